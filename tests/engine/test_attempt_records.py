"""Preemption and Permit detail recorded as data on attempts (what the HTML report reads)."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from ksched_cli.config.load import load_config
from ksched_cli.engine.engine import Engine, EngineOptions
from ksched_cli.engine.records import (
    Attempt,
    PermitWait,
    PositionNames,
    PreemptionCandidate,
    PreemptionRecord,
    ScoreTable,
)
from ksched_cli.engine.tie_break import build_heap
from ksched_cli.whatif.inputs import load_cluster
from tests.cli.helpers import REPO

_VISIT = re.compile(r"^preemption: (?:not a )?candidate (\S+):")


def _attempts(example: str, config: str, record: str) -> list[Attempt]:
    cluster = load_cluster([str(REPO / "examples" / example)]).cluster
    return Engine(load_config(config), cluster, EngineOptions(record=record)).run().attempts


def test_preemption_candidates_victims_and_the_deciding_rule() -> None:
    first = next(a for a in _attempts("preemption", "default", "weighted")
                 if a.pod == "default/payments")
    assert first.preemption == PreemptionRecord(
        candidates=[
            PreemptionCandidate("node-a", ["default/batch-a2", "default/batch-a1"], 1),
            PreemptionCandidate("node-b", ["default/batch-b1"], 0),
        ],
        chosen="node-b",
        chosen_victims=["default/batch-b1"],
        criterion="fewest PDB violations",
    )
    assert first.victims == ["default/batch-b1"]


def test_gang_waits_and_not_candidates() -> None:
    attempts = _attempts("gang", "gang", "weighted")
    by_pod: dict[str, list[Attempt]] = {}
    for a in attempts:
        by_pod.setdefault(a.pod, []).append(a)
    assert by_pod["default/training-0"][0].permit == [
        PermitWait("Coscheduling", 0.0, 30.0, 1.0, "allowed", node="gpu-0")]
    timeout = "rejected due to timeout after waiting 30s at plugin Coscheduling"
    assert [a.permit for a in by_pod["default/etl-0"] if a.permit] == [
        [PermitWait("Coscheduling", 0.0, 30.0, 30.0, "rejected", by="Coscheduling",
                    message=timeout)],
        [PermitWait("Coscheduling", 31.0, 61.0, 61.0, "rejected", by="Coscheduling",
                    message=timeout)],
    ]
    preemption = next(a.preemption for a in by_pod["default/training-2"] if a.preemption)
    none_found = "No preemption victims found for incoming pod"
    assert preemption == PreemptionRecord(
        candidates=[PreemptionCandidate("gpu-2", ["default/batch-0"], 0)],
        not_candidates=[("gpu-0", none_found), ("gpu-1", none_found)],
        chosen="gpu-2",
        chosen_victims=["default/batch-0"],
    )


@pytest.mark.parametrize("record", ["weighted", "full"])
def test_the_lines_say_the_same(record: str) -> None:
    for a in _attempts("gang", "gang", record):
        lines = a.detail.get("preemption", {}).get("lines", [])
        if a.preemption is None:
            assert lines == []
            continue
        # Every candidate and every node ruled out has its line.
        nodes = [m[1] for line in lines if (m := _VISIT.match(line))]
        visited = [n for n, _ in a.preemption.not_candidates] + [
            c.node for c in a.preemption.candidates]
        assert sorted(nodes) == sorted(visited)


def test_summary_plans_keep_no_preemption_record() -> None:
    attempts = _attempts("preemption", "default", "summary")
    assert all(a.preemption is None for a in attempts)
    assert any(a.victims for a in attempts)


def _runner_up_reference(names: list[str], totals: list[int], node: str) -> object:
    ranked = sorted((-t, n) for n, t in zip(names, totals, strict=True) if n != node)
    return (ranked[0][1], -ranked[0][0]) if ranked else None


@pytest.mark.parametrize("seed", range(40))
def test_runner_up_is_the_best_other_node_lowest_name_among_equals(seed: int) -> None:
    rng = random.Random(seed)
    names = rng.sample([f"n{i:02d}" for i in range(60)], rng.randint(0, 12))
    totals = [rng.randint(0, 3) for _ in names]  # many ties
    table = ScoreTable(names, [], {}, {}, {}, np.array(totals, dtype=np.int64))
    for node in [*names, "", "absent"]:
        assert table.runner_up(node) == _runner_up_reference(names, totals, node)


@pytest.mark.parametrize("seed", range(40))
def test_tables_over_live_positions_equal_tables_over_names(seed: int) -> None:
    """Names looked up by column position, ties broken by name rank: as plain names do."""
    rng = random.Random(seed)
    all_names = rng.sample([f"n{i:02d}" for i in range(60)], 30)
    rank = np.empty(len(all_names), dtype=np.int64)
    rank[sorted(range(len(all_names)), key=all_names.__getitem__)] = np.arange(len(all_names))
    positions = rng.sample(range(len(all_names)), rng.randint(1, 12))
    names = [all_names[i] for i in positions]
    totals = np.array([rng.randint(0, 3) for _ in names], dtype=np.int64)
    plain = ScoreTable(names, [], {}, {}, {}, totals)
    lazy = ScoreTable(
        PositionNames(all_names, positions), [], {}, {}, {}, totals,
        name_rank=rank[np.array(positions)],
    )
    assert list(lazy.names) == names and len(lazy.names) == len(names)
    tied = np.flatnonzero(totals == totals.max())
    assert lazy.lowest_named(tied) == plain.lowest_named(tied)
    assert lazy.by_name(tied).tolist() == plain.by_name(tied).tolist()
    for node in [*names, "absent"]:
        assert lazy.runner_up(node) == plain.runner_up(node)
        assert (node in lazy.names) == (node in names)


@pytest.mark.parametrize("seed", range(40))
def test_runner_up_known_from_the_ranking_equals_the_scan(seed: int) -> None:
    """Under the lowest-name rule SelectHost's ranking (v1.35+) names the runner-up as it
    pops the best node; the table then answers from it, as the scan over totals does."""
    rng = random.Random(seed)
    names = rng.sample([f"n{i:02d}" for i in range(60)], rng.randint(1, 12))
    totals = np.array([rng.randint(0, 3) for _ in names], dtype=np.int64)
    rank = np.empty(len(names), dtype=np.int64)
    rank[sorted(range(len(names)), key=names.__getitem__)] = np.arange(len(names))
    for name_rank in (None, rank):
        heap = build_heap(names, totals, None, False, name_rank)
        table = ScoreTable(names, [], {}, {}, {}, totals)
        host, table.chosen = heap.pop_with_index()
        table.runner = heap.next_index()
        assert (table.runner >= 0) is (len(names) > 1)
        assert table.runner_up(host) == _runner_up_reference(names, totals.tolist(), host)
