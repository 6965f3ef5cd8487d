"""v1.35 SelectHost heap and opportunistic batching, table-driven.

Heap rows follow Go's container/heap (schedule_one_test TestSelectHost's equal-score
rows, where without extenders every Randomizer is 0); batching rows follow batch_test.go
TestOpportunisticBatch's flush reasons (skipped cycle, failed cycle, incompatible
signature, expired batch, last node not full) and the hint-used path.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_cli.engine.batching import OpportunisticBatch
from ksched_cli.engine.tie_break import NodeScoreHeap, build_heap
from tests.fakes import make_pod


def _pops(heap: NodeScoreHeap) -> list[str]:
    return [heap.pop() for _ in range(len(heap))]


@pytest.mark.parametrize(
    ("name", "entries", "order"),
    [
        ("equal scores, zero randomizers", [("n1", 5, 0), ("n2", 5, 0), ("n3", 5, 0)],
         ["n1", "n3", "n2"]),
        ("top score first, then heap order", [("a", 10, 0), ("b", 20, 0), ("c", 20, 0)],
         ["b", "c", "a"]),
        ("randomizer breaks ties", [("a", 7, 1), ("b", 7, 9), ("c", 7, 4)], ["b", "c", "a"]),
        ("single node", [("only", 0, 0)], ["only"]),
    ],
)
def test_go_heap_order(name: str, entries: list[tuple[str, int, int]], order: list[str]) -> None:
    assert _pops(NodeScoreHeap(entries)) == order, name


def test_lowest_name_rule_under_the_heap() -> None:
    heap = build_heap(["n3", "n1", "n2", "n0"], [5, 5, 5, 1], None, False)
    assert _pops(heap) == ["n1", "n2", "n3", "n0"]


def test_random_mode_without_extenders_is_the_cluster_heap() -> None:
    heap = build_heap(["n3", "n1", "n2"], [5, 5, 5], random.Random(7), False)
    assert _pops(heap) == ["n3", "n2", "n1"]


class _Pl:
    class args:
        ignore_preferred_terms_of_existing_pods = False

    default_constraints: tuple[Any, ...] = ()


PLUGINS: list[tuple[str, Any]] = [
    ("NodeResourcesFit", _Pl()),
    ("PodTopologySpread", _Pl()),
    ("InterPodAffinity", _Pl()),
]


def _stored(batch: OpportunisticBatch, sig: Any, now: float = 0.0) -> None:
    heap = NodeScoreHeap([("n2", 50, 0), ("n3", 40, 0)])
    batch.store(sig, "", "n1", heap, cycle=1, now=now)


@pytest.mark.parametrize(
    ("name", "cycle", "now", "pod_cpu", "full", "hint"),
    [
        ("compatible: next node of the cached scores", 2, 0.0, "1", True, "n2"),
        ("skipped cycle", 3, 0.0, "1", True, ""),
        ("incompatible signature", 2, 0.0, "2", True, ""),
        ("expired after 500ms", 2, 0.6, "1", True, ""),
        ("last chosen node not full", 2, 0.0, "1", False, ""),
    ],
)
def test_node_hint(
    name: str, cycle: int, now: float, pod_cpu: str, full: bool, hint: str
) -> None:
    batch = OpportunisticBatch(PLUGINS)
    first = make_pod("a", cpu="1")
    _stored(batch, batch.sign(first))
    got, _ = batch.node_hint(make_pod("b", cpu=pod_cpu), cycle, now, lambda _n: full)
    assert got == hint, name


def test_failed_cycle_flushes() -> None:
    batch = OpportunisticBatch(PLUGINS)
    _stored(batch, batch.sign(make_pod("a", cpu="1")))
    # A failed cycle never stores, so the next cycle is not consecutive to a success.
    got, _ = batch.node_hint(make_pod("b", cpu="1"), 3, 0.0, lambda _n: True)
    assert got == ""


def test_hint_used_keeps_the_batch() -> None:
    batch = OpportunisticBatch(PLUGINS)
    sig = batch.sign(make_pod("a", cpu="1"))
    _stored(batch, sig)
    hint, sig_b = batch.node_hint(make_pod("b", cpu="1"), 2, 0.0, lambda _n: True)
    batch.store(sig_b, hint, hint, None, 2, 0.0)
    assert batch.batched == 1
    hint, _ = batch.node_hint(make_pod("c", cpu="1"), 3, 0.0, lambda _n: True)
    assert hint == "n3"


@pytest.mark.parametrize(
    ("name", "spec", "signable"),
    [
        ("plain pod", {}, True),
        ("pod affinity", {"affinity": {"podAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"a": "b"}}, "topologyKey": "zone"}]}}}, False),
        ("spread constraints", {"topologySpreadConstraints": [
            {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
             "labelSelector": {"matchLabels": {"a": "b"}}}]}, False),
    ],
)
def test_sign(name: str, spec: dict[str, Any], signable: bool) -> None:
    batch = OpportunisticBatch(PLUGINS)
    assert (batch.sign(make_pod("p", spec=spec)) is not None) is signable, name


def test_profile_with_system_default_spreading_never_signs() -> None:
    class _Defaults(_Pl):
        default_constraints = ("zone",)

    batch = OpportunisticBatch([("PodTopologySpread", _Defaults())])
    assert batch.sign(make_pod("p")) is None
    assert OpportunisticBatch(None).sign(make_pod("p")) is None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.text("abcdef", min_size=1, max_size=4), st.integers(0, 5)),
        min_size=1,
        max_size=40,
        unique_by=lambda e: e[0],
    )
)
def test_ranked_scores_pop_as_the_heap(entries: list[tuple[str, int]]) -> None:
    """The lowest-name rule's fast path pops exactly as the emulated container/heap with
    Randomizers that fall with the name (every key distinct)."""
    from ksched_cli.engine.tie_break import RankedScores

    names = [n for n, _ in entries]
    totals = [t for _, t in entries]
    rank = {name: i for i, name in enumerate(sorted(names, reverse=True))}
    emulated = _pops(NodeScoreHeap([(n, t, rank[n]) for n, t in entries]))
    assert _pops(RankedScores(names, totals)) == emulated
    # With the columns' name ranks (ascending names), as the engine passes them.
    by_name = {name: i for i, name in enumerate(sorted(names))}
    name_rank = np.array([by_name[n] for n in names], dtype=np.int64)
    assert _pops(RankedScores(names, totals, name_rank)) == emulated
