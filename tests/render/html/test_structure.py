"""The numbers a plan report shows equal the JSON plan's, for every example."""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.config.load import load_config
from ksched_cli.engine.engine import Engine, EngineOptions
from ksched_cli.render.html.page import amount, percent
from ksched_cli.whatif.inputs import load_cluster
from tests.cli.helpers import PLAN_EXAMPLES, REPO, config_args, manifest_path

from .helpers import Reports, Shown, page_data, reports


@pytest.fixture(params=PLAN_EXAMPLES)
def report(request: pytest.FixtureRequest) -> Reports:
    return reports(request.param)


def test_exit_code_is_the_plans(report: Reports) -> None:
    assert report.html_code == report.code


def test_self_contained(report: Reports) -> None:
    html: str = report.html
    shown = Shown(html)
    assert shown.urls == []  # nothing linked or loaded: no src, href or action at all
    assert not {"link", "img", "iframe", "object", "embed"} & shown.tags
    assert "default-src 'none'" in html
    assert html.count("<script") == 3  # data, shared script, page script: all inline


def test_summary_chips_are_the_plans(report: Reports) -> None:
    doc = report.doc
    shown = Shown(report.html)
    assert shown.chips == {k: str(v) for k, v in doc["summary"].items()}
    assert page_data(report.html)["summary"] == doc["summary"]


def test_pods_are_the_plans(report: Reports) -> None:
    pods = page_data(report.html)["pods"]
    expected = [
        {k: p[k] for k in ("pod", "outcome", "node", "priority", "preemptedBy") if k in p}
        for p in report.doc["pods"]
    ]
    got = [
        {k: p[k] for k in ("pod", "outcome", "node", "priority", "preemptedBy") if k in p}
        for p in pods
    ]
    assert got == expected
    messages = {p["pod"]: p.get("message", "") for p in report.doc["pods"]}
    for p in pods:
        if messages[p["pod"]]:
            assert p["message"] == messages[p["pod"]]


def test_reason_counts_add_up(report: Reports) -> None:
    data = page_data(report.html)
    shown = Shown(report.html)
    assert [
        [r["outcome"], r["reason"], str(r["count"]), str(r["nodes"]), ", ".join(r["pods"])]
        for r in data["reasons"]
    ] == shown.reasons
    unplaced = [
        p for p in report.doc["pods"] if p["outcome"] in ("Unschedulable", "Gated", "Skipped")
    ]
    # Every unplaced pod is under at least one reason, and only unplaced pods are.
    members = {p["pod"] for p in data["pods"] if p.get("reasons")}
    assert members == {p["pod"] for p in unplaced}
    counts = [0] * len(data["reasons"])
    for p in data["pods"]:
        for i in p.get("reasons", []):
            counts[i] += 1
    assert counts == [r["count"] for r in data["reasons"]]
    assert counts == [len(r["pods"]) for r in data["reasons"]]


def _expected_nodes(example: str, doc: dict[str, Any]) -> dict[str, dict[str, list[int]]]:
    """Requested per node before (the input) and after (plus scheduled, minus preempted)."""
    cluster = load_cluster([str(REPO / manifest_path(example))]).cluster
    requests = _requests_with_created(example)
    before: dict[str, list[int]] = {n.name: [0, 0, 0] for n in cluster.nodes}
    for p in cluster.pods:
        if p.node_name:
            before[p.node_name] = _plus(before[p.node_name], requests[p.key], 1)
    after = {name: list(v) for name, v in before.items()}
    for d in doc["pods"]:
        if d["outcome"] == "Scheduled":
            after[d["node"]] = _plus(after[d["node"]], requests[d["pod"]], 1)
        elif d["outcome"] == "Preempted":
            after[d["node"]] = _plus(after[d["node"]], requests[d["pod"]], -1)
    alloc = {
        n.name: [n.allocatable.get(r, 0) for r in ("cpu", "memory", "pods")]
        for n in cluster.nodes
    }
    return {n: {"before": before[n], "after": after[n], "alloc": alloc[n]} for n in before}


def _requests_with_created(example: str) -> dict[str, dict[str, int]]:
    """Every pod's requests, including pods controllers create during the run (an
    OrderedReady StatefulSet's next ordinal): the plan is run once more to have them."""
    args = config_args(example)
    config = args[args.index("--config") + 1] if "--config" in args else "default"
    cluster = load_cluster([str(REPO / manifest_path(example))]).cluster
    requests = {p.key: p.requests for p in cluster.pods}
    Engine(load_config(config), cluster, EngineOptions(extender_mode="skip")).run()
    return {**requests, **{p.key: p.requests for p in cluster.pods}}


def _plus(total: list[int], requests: dict[str, int], sign: int) -> list[int]:
    return [
        total[0] + sign * requests.get("cpu", 0),
        total[1] + sign * requests.get("memory", 0),
        total[2] + sign,
    ]


def test_node_numbers_are_the_plans(report: Reports) -> None:
    data = page_data(report.html)
    expected = _expected_nodes(report.example, report.doc)
    got = {n["name"]: {k: n[k] for k in ("before", "after", "alloc")} for n in data["nodes"]}
    assert got == expected
    placed: dict[str, int] = {}
    for d in report.doc["pods"]:
        if d["outcome"] == "Scheduled":
            placed[d["node"]] = placed.get(d["node"], 0) + 1
    assert {n["name"]: n["received"] for n in data["nodes"] if n["received"]} == placed


def test_zone_rows_show_the_sums(report: Reports) -> None:
    data = page_data(report.html)
    shown = Shown(report.html)
    rows = []
    for z in data["zones"]:
        cells = [z["zone"] or "(no zone label)", str(z["nodes"])]
        for i, r in enumerate(data["resources"]):
            before, after, alloc = z["before"][i], z["after"][i], z["alloc"][i]
            cells.append(
                f"{amount(before, r)} → {amount(after, r)} / {amount(alloc, r)} "
                f"({percent(before, alloc)} → {percent(after, alloc)})"
            )
        rows.append(cells)
        members = [n for n in data["nodes"] if n["zone"] == z["zone"] and not n["unusable"]]
        assert z["nodes"] == len(members)
        assert z["after"] == [sum(n["after"][i] for n in members) for i in range(3)]
    assert shown.zones == rows


def test_stories_are_the_attempts(report: Reports) -> None:
    data = page_data(report.html)
    attempts: dict[str, list[dict[str, Any]]] = {}
    for a in report.doc.get("attempts", []):
        attempts.setdefault(a["pod"], []).append(a)
    assert set(data["stories"]) == set(attempts)
    for pod, story in data["stories"].items():
        for got, want in zip(story["attempts"], attempts[pod], strict=True):
            assert (got["result"], got.get("node")) == (want["result"], want.get("node"))
            rejected = sum(g["count"] for g in got.get("rejections", []))
            assert rejected == sum(len(f["reasons"]) or 1 for f in want["filtered"].values())
            scores = got.get("scores")
            if scores is None:
                assert not want.get("scores")
                continue
            for row in scores["rows"]:
                weighted = dict(zip(scores["plugins"], row["weighted"], strict=True))
                assert {**weighted, "total": row["total"]} == want["scores"][row["node"]]
            tie = scores.get("tie", {"count": 0})
            assert tie["count"] == len(want["tiedWith"])
