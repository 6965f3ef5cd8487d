"""What-if reports (plan with operations, capacity, simulate) show the JSON answer's numbers."""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.render.html.whatif_data import CHANGES
from ksched_cli.whatif.model import BLOCKED, LOST, PENDING

from .helpers import Shown, page_data
from .whatif_reports import (
    CAPACITY_QUESTIONS,
    PLAN_OPERATIONS,
    Marked,
    capacity_answer,
    plan_answer,
    simulate_answer,
)


def _counts(changes: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for c in changes:
        counts[c["change"]] = counts.get(c["change"], 0) + 1
    return counts


def _without(rows: list[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in keys} for r in rows]


def _triples(side: dict[str, Any] | None) -> list[int] | None:
    if side is None:
        return None
    return [side[r]["requested"] for r in ("cpu", "memory", "pods")]


@pytest.mark.parametrize("name", PLAN_OPERATIONS)
def test_plan_whatif_is_the_json_answer(name: str) -> None:
    answer = plan_answer(name)
    assert answer.html_code == answer.code == 2  # a blocked drain or a lost pod
    data = page_data(answer.html)
    whatif = answer.doc["whatif"]
    w = data["whatif"]
    assert [(op["operation"], op["time"], op["nodes"], op["warnings"]) for op in w["operations"]] \
        == [(op["operation"], op["time"], op.get("nodes", []), op.get("warnings", []))
            for op in whatif["operations"]]
    expected = [c for op in whatif["operations"] for c in op["changes"]] + whatif["outcomes"]
    assert _without(w["changes"], "op") == expected
    assert _without(w["nodes"], "changed") == whatif["nodes"]
    # The chips show the counts, with the alarming changes (exit code 2) marked.
    chips = Marked(answer.html, "data-change").texts("data-change")
    assert {change: int(text.split()[-1]) for change, text in chips} == _counts(expected)
    assert set(w["alarms"]) == {c["change"] for c in expected} & {BLOCKED, LOST, PENDING}
    per_op = Marked(answer.html, "data-op-change").texts("data-op-change")
    assert [(c, int(t.split()[-1])) for c, t in per_op] == [
        item for op in whatif["operations"]
        for item in sorted(_counts(op["changes"]).items(), key=lambda kv: CHANGES.index(kv[0]))]
    # The plan itself is there as ever: pods and the summary.
    assert data["summary"] == answer.doc["summary"]
    assert [p["pod"] for p in data["pods"]] == [p["pod"] for p in answer.doc["pods"]]


@pytest.mark.parametrize("name", PLAN_OPERATIONS)
def test_plan_cluster_view_spans_the_operations(name: str) -> None:
    """Nodes before the operations, and after the plan: the what-if nodes' numbers."""
    answer = plan_answer(name)
    data = page_data(answer.html)
    expected = {n["name"]: (_triples(n.get("before")), _triples(n.get("after")))
                for n in answer.doc["whatif"]["nodes"]}
    assert {n["name"]: (n["before"], n["after"]) for n in data["nodes"]} == expected
    drained = next(n for n in data["nodes"] if n["name"] == "node-a")
    before = next(n for n in answer.doc["whatif"]["nodes"] if n["name"] == "node-a")
    if "after" in before:  # drained: cordoned, and the pods that left are counted
        assert drained["cordoned"] is True
        assert drained["evicted"] == before["before"]["pods"]["requested"] - (
            before["after"]["pods"]["requested"])


def test_drain_shows_the_blocking_budget() -> None:
    data = page_data(plan_answer("drain-timeout").html)
    blocked = [c for c in data["whatif"]["changes"] if c["change"] == BLOCKED]
    assert [(c["pod"], c["podDisruptionBudget"]) for c in blocked] == [
        ("default/web-7d9f6-8qz5m", "default/web")]
    assert "disruption budget web" in blocked[0]["reason"]


@pytest.mark.parametrize("name", CAPACITY_QUESTIONS)
def test_capacity_page_is_the_json_answer(name: str) -> None:
    answer = capacity_answer(name)
    assert answer.html_code == answer.code == 0
    data = page_data(answer.html)
    assert data["kind"] == "capacity"
    capacity = data["capacity"]
    doc = answer.doc
    assert {k: v for k, v in capacity.items() if k not in ("nodes", "reasons")} == {
        k: v for k, v in doc.items() if k != "nodes"}
    assert _without(capacity["nodes"], "changed") == doc["nodes"]
    shown = dict(Marked(answer.html, "id").texts("id"))
    copies = "copy" if doc["count"] == 1 else "copies"
    assert shown["capacity-count"] == f"{doc['count']} more {copies} of {doc['pod']} fit"
    if doc["stopReason"] == "LimitReached":
        assert shown["capacity-stop"] == f"Stopped at --max {doc['limit']}."
        assert "capacity-message" not in shown
    else:
        assert shown["capacity-stop"] == "The next copy is Unschedulable:"
        assert shown["capacity-message"] == doc["message"]
    # The cluster view: each node's copies are pods it received; numbers as the JSON's.
    nodes = {n["name"]: n for n in data["nodes"]}
    for n in doc["nodes"]:
        assert nodes[n["name"]]["before"] == _triples(n.get("before"))
        assert nodes[n["name"]]["after"] == _triples(n.get("after"))
    assert {k: n["received"] for k, n in nodes.items() if n["received"]} == doc["perNode"]


def test_capacity_reasons_keep_their_node_counts() -> None:
    data = page_data(capacity_answer("api").html)
    assert data["capacity"]["reasons"] == [
        "1 Insufficient memory", "2 node(s) didn't match pod topology spread constraints"]


def test_capacity_after_a_drain_shows_the_drain() -> None:
    data = page_data(capacity_answer("worker-drained").html)
    assert [op["operation"] for op in data["whatif"]["operations"]] == ["--drain node-3"]
    assert "node-3" not in data["capacity"]["perNode"]


def test_simulate_page_is_the_json_answer() -> None:
    answer = simulate_answer()
    assert answer.html_code == answer.code
    data = page_data(answer.html)
    doc = answer.doc
    assert data["kind"] == "simulate"
    assert data["timeline"] == doc["timeline"]
    assert data["summary"] == doc["summary"]
    assert Shown(answer.html).chips == {k: str(v) for k, v in doc["summary"].items()}
    assert [p["pod"] for p in data["pods"]] == [p["pod"] for p in doc["pods"]]
    assert _without(data["whatif"]["nodes"], "changed") == doc["nodes"]
    assert data["whatif"]["changes"][-len(doc["outcomes"]):] == [
        {**c, "op": -1} for c in doc["outcomes"]]
    # Each step's chips: its pod changes, the pods its events requeued, its decisions.
    chips = Marked(answer.html, "data-count").texts("data-count")
    expected = []
    for entry in doc["timeline"]:
        if "changes" in entry:
            expected.append(("changes", f"pod changes {len(entry['changes'])}"))
        expected.append(("requeued", f"requeued {sum(len(r['pods']) for r in entry['requeued'])}"))
        expected.append(("decisions", f"decisions {len(entry['decisions'])}"))
    assert chips == expected
    steps = Marked(answer.html, "data-step").texts("data-step")
    assert [text.split(" · ")[0] for _, text in steps if text.startswith("t=")] == [
        f"t={e['time']:g}s" for e in doc["timeline"]]
    # Every pod a decision names has its story on the page.
    decided = {d["pod"] for e in doc["timeline"] for d in e["decisions"]}
    assert decided <= set(data["stories"])


def _all_answers() -> list[str]:
    return [f"plan:{n}" for n in PLAN_OPERATIONS] + [
        f"capacity:{n}" for n in CAPACITY_QUESTIONS] + ["simulate:"]


@pytest.mark.parametrize("which", _all_answers())
def test_whatif_pages_are_self_contained(which: str) -> None:
    command, _, name = which.partition(":")
    answer = (plan_answer(name) if command == "plan" else capacity_answer(name)
              if command == "capacity" else simulate_answer())
    shown = Shown(answer.html)
    assert shown.urls == []
    assert not {"link", "img", "iframe", "object", "embed"} & shown.tags
    assert "default-src 'none'" in answer.html
    assert answer.html.count("<script") == 3
