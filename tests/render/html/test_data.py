"""The page data builders: reasons, rejections, top scores, ties, preemption, Permit waits."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ksched_cli.engine.records import (
    Attempt,
    Decision,
    FilteredNode,
    PermitWait,
    PreemptionCandidate,
    PreemptionRecord,
    ScoreTable,
)
from ksched_cli.render.html.page import amount, embed_json, percent
from ksched_cli.render.html.plan_data import reason_groups, split_reasons
from ksched_cli.render.html.story import (
    permit_story,
    pod_story,
    preemption_story,
    rejections,
    top_scores,
)


@pytest.mark.parametrize(
    ("message", "reasons"),
    [
        ("0/5 nodes are available: 2 Insufficient cpu, 3 node(s) didn't match Pod's node "
         "affinity/selector.",
         ["Insufficient cpu", "node(s) didn't match Pod's node affinity/selector"]),
        ("0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory. preemption: "
         "0/3 nodes are available: 3 No preemption victims found for incoming pod.",
         ["Insufficient cpu", "Insufficient memory"]),
        ("0/2 nodes are available: 2 node(s) had untolerated taint {a: b, c}.",
         ["node(s) had untolerated taint {a: b, c}"]),
        ("waiting for scheduling gates: [example.com/quota]",
         ["waiting for scheduling gates: [example.com/quota]"]),
        ("0/1 nodes are available: 1 rejected due to timeout after waiting 30s at plugin "
         "Coscheduling.", ["rejected due to timeout after waiting 30s at plugin Coscheduling"]),
    ],
)
def test_split_reasons(message: str, reasons: list[str]) -> None:
    assert split_reasons(message) == reasons


def test_reason_groups_count_pods_and_drop_node_counts() -> None:
    decisions = [
        Decision("ns/a", "Unschedulable", message="0/5 nodes are available: 5 Insufficient cpu."),
        Decision("ns/b", "Unschedulable", message="0/5 nodes are available: 2 Insufficient cpu, "
                 "3 Insufficient memory."),
        Decision("ns/c", "Gated", message="waiting for scheduling gates: [g]"),
        Decision("ns/d", "Scheduled", node="n1"),
        Decision("ns/e", "Skipped", note='no profile has schedulerName "x"'),
    ]
    groups, ids = reason_groups(decisions)
    # Most pods first, then most nodes rejected: memory (3 nodes) before the gates.
    assert groups == [
        {"outcome": "Unschedulable", "reason": "Insufficient cpu", "count": 2, "nodes": 7,
         "pods": ["ns/a", "ns/b"]},
        {"outcome": "Unschedulable", "reason": "Insufficient memory", "count": 1, "nodes": 3,
         "pods": ["ns/b"]},
        {"outcome": "Gated", "reason": "waiting for scheduling gates: [g]", "count": 1,
         "nodes": 0, "pods": ["ns/c"]},
        {"outcome": "Skipped", "reason": 'no profile has schedulerName "x"', "count": 1,
         "nodes": 0, "pods": ["ns/e"]},
    ]
    assert ids == {"ns/a": [0], "ns/b": [0, 1], "ns/c": [2], "ns/e": [3]}


def _attempt(**kw: Any) -> Attempt:
    return Attempt(pod="ns/p", time=0.0, result="Scheduled", **kw)


def test_rejections_grouped_by_plugin_and_reason_with_samples() -> None:
    fit = "NodeResourcesFit"
    filtered = {f"n{i:02}": FilteredNode(fit, ["Insufficient cpu"]) for i in range(12)}
    filtered["n03"] = FilteredNode("NodeResourcesFit", ["Insufficient cpu", "Insufficient memory"])
    filtered["t1"] = FilteredNode("TaintToleration", ["node(s) had untolerated taint {a: b}"])
    assert rejections(_attempt(filtered=filtered)) == [
        {"plugin": "NodeResourcesFit", "reason": "Insufficient cpu", "count": 12,
         "nodes": ["n00", "n01", "n02", "n03", "n04", "n05", "n06", "n07"]},
        {"plugin": "NodeResourcesFit", "reason": "Insufficient memory", "count": 1,
         "nodes": ["n03"]},
        {"plugin": "TaintToleration", "reason": "node(s) had untolerated taint {a: b}",
         "count": 1, "nodes": ["t1"]},
    ]


def _table(totals: dict[str, int]) -> ScoreTable:
    names = list(totals)
    total = np.array(list(totals.values()), dtype=np.int64)
    return ScoreTable(names, ["A", "B"], {}, {}, {"A": total - 1, "B": np.ones_like(total)}, total)


def test_top_scores_keep_the_chosen_node_the_best_others_and_the_tie() -> None:
    totals = {"n1": 50, "n2": 90, "n3": 90, "n4": 70, "n5": 90, "n6": 10, "n7": 60, "n8": 65}
    scores = top_scores(_attempt(node="n3", score_table=_table(totals)))
    assert scores is not None
    assert [r["node"] for r in scores["rows"]] == ["n3", "n2", "n5", "n4", "n8", "n7"]
    assert scores["rows"][0] == {"node": "n3", "weighted": [89, 1], "total": 90}
    assert scores["scored"] == 8
    assert scores["tie"] == {"total": 90, "count": 2, "nodes": ["n2", "n5"]}


def test_no_tie_when_the_chosen_node_leads() -> None:
    scores = top_scores(_attempt(node="n1", score_table=_table({"n1": 9, "n2": 8})))
    assert scores is not None and "tie" not in scores


def test_no_scores_without_a_table() -> None:
    assert top_scores(_attempt()) is None


def test_many_attempts_keep_the_first_and_last() -> None:
    attempts = [Attempt(pod="ns/p", time=float(t), result="Unschedulable") for t in range(14)]
    story = pod_story(attempts)
    assert [a["time"] for a in story["attempts"]] == [0, 1, 2, 3, 4, 9, 10, 11, 12, 13]
    assert (story["skipped"], story["skippedAfter"]) == (4, 5)


def test_preemption_story() -> None:
    record = PreemptionRecord(
        candidates=[PreemptionCandidate("node-a", ["ns/x", "ns/y"], 1),
                    PreemptionCandidate("node-b", ["ns/z"], 0)],
        not_candidates=[("node-c", "Insufficient cpu"), ("node-d", "Insufficient cpu"),
                        ("node-e", "node(s) had untolerated taint {a: b}")],
        chosen="node-b", chosen_victims=["ns/z"], criterion="fewest PDB violations",
    )
    assert preemption_story(record) == {
        "candidates": [
            {"node": "node-a", "victims": ["ns/x", "ns/y"], "pdb": 1},
            {"node": "node-b", "victims": ["ns/z"], "pdb": 0},
        ],
        "candidateCount": 2,
        "chosen": "node-b",
        "notCandidates": [{"reason": "Insufficient cpu", "count": 2},
                          {"reason": "node(s) had untolerated taint {a: b}", "count": 1}],
        "notes": ["decided by fewest PDB violations", "chose node-b: victims ns/z"],
    }


def test_preemption_story_without_candidates() -> None:
    ineligible = PreemptionRecord(ineligible="not eligible due to preemptionPolicy=Never.")
    assert preemption_story(ineligible)["notes"] == [
        "not eligible: not eligible due to preemptionPolicy=Never."]
    narrowed = PreemptionRecord(no_potential_nodes=True, extenders_kept=[])
    assert preemption_story(narrowed)["notes"] == [
        "no node where preemption might help", "extenders kept none"]


def test_permit_story() -> None:
    allowed = [PermitWait("Coscheduling", 0.0, 30.0, 1.5, "allowed", node="gpu-0")]
    assert permit_story(allowed) == [
        {"plugin": "Coscheduling", "start": 0.0, "timeout": 30.0, "end": 1.5,
         "outcome": "allowed", "node": "gpu-0"},
    ]
    why = "rejected due to timeout after waiting 10s at plugin A"
    rejected = [PermitWait("A", 2.0, 12.0, 12.0, "rejected", by="A", message=why),
                PermitWait("B", 2.0, 32.0, 12.0, "rejected", by="A", message=why),
                PermitWait("C", 2.0, 40.0)]
    waits = permit_story(rejected)
    assert [(w["plugin"], w.get("end"), w.get("outcome"), w.get("by")) for w in waits] == [
        ("A", 12.0, "rejected", "A"), ("B", 12.0, "rejected", "A"), ("C", None, None, None)]


@pytest.mark.parametrize(
    ("value", "resource", "text"),
    [
        (4000, "cpu", "4"), (1500, "cpu", "1.5"), (100, "cpu", "0.1"), (1, "cpu", "0"),
        (5, "cpu", "0.01"), (0, "cpu", "0"), (8 << 30, "memory", "8Gi"),
        (1536 << 20, "memory", "1.5Gi"), (200 << 20, "memory", "200Mi"),
        (1152 << 20, "memory", "1.13Gi"), (512, "memory", "512"), (110, "pods", "110"),
    ],
)
def test_amounts(value: int, resource: str, text: str) -> None:
    assert amount(value, resource) == text


def test_percent() -> None:
    assert [percent(1, 3), percent(2, 3), percent(0, 0)] == ["33%", "67%", "-"]


def test_embedded_json_cannot_end_its_script() -> None:
    text = embed_json({"m": "</script><!-- & >"})
    assert "<" not in text and ">" not in text and "&" not in text


def test_top_scores_equal_a_full_sort_on_random_tables() -> None:
    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(1, 40))
        names = [f"node-{int(i):03}" for i in rng.permutation(200)[:n]]
        totals = {name: int(rng.integers(0, 4)) for name in names}
        chosen = names[int(rng.integers(0, n))]
        scores = top_scores(_attempt(node=chosen, score_table=_table(totals)))
        assert scores is not None
        ranked = sorted(totals, key=lambda name: (-totals[name], name))
        others = [name for name in ranked if name != chosen]
        assert [r["node"] for r in scores["rows"]] == [chosen, *others[:5]]
        tied = [name for name in others if totals[name] == totals[chosen]]
        assert scores.get("tie", {"count": 0, "nodes": []}) == (
            {"total": totals[chosen], "count": len(tied), "nodes": tied[:8]} if tied
            else {"count": 0, "nodes": []}
        )
