"""Every ``examples/*/`` directory plans as its README says, with the outcomes it promises.

Each example is planned with the ``--config`` of its README's first ``ksched plan``
command, so the README is the one place that says how an example is run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from .helpers import EXPECTED_STDERR, PLAN_EXAMPLES, plan_json, readme_commands, run


@dataclass(frozen=True)
class Outcome:
    """One decision of the plan; ``message`` is a substring, None fields are not checked."""

    outcome: str
    node: str | None = None
    preempted_by: str | None = None
    message: str | None = None
    time: float | None = None


S, U = "Scheduled", "Unschedulable"
TAINT_MESSAGE = (
    "0/3 nodes are available: 1 node(s) had untolerated taint(s), "
    "2 node(s) didn't match Pod's node affinity/selector."
)
BIG_MESSAGE = (
    "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu, "
    "2 Insufficient memory."
)
GANG_TIMEOUT = (
    "0/1 nodes are available: 1 rejected due to timeout after waiting 30s at plugin "
    "Coscheduling."
)
CSI_LIMIT = (
    "0/4 nodes are available: 2 node(s) didn't find available persistent volumes to bind, "
    "2 node(s) exceed max volume count."
)

# Per example: the exit code, and the decisions its README promises.
EXPECTED: dict[str, tuple[int, dict[str, Outcome]]] = {
    "basic": (0, {
        "default/web-0": Outcome(S, "node-b"),
        "default/web-1": Outcome(S, "node-b"),
        "default/web-2": Outcome(S, "node-b"),
        "default/batch-0": Outcome(S, "node-b"),
    }),
    "taints": (2, {
        "default/trainer": Outcome(S, "gpu-1"),
        "default/api": Outcome(S, "general-1"),
        "default/api-tolerant": Outcome(S, "general-1"),
        "default/gpu-only-no-toleration": Outcome(U, message=TAINT_MESSAGE),
    }),
    "zone-spread": (0, {
        "default/frontend-2": Outcome(S, "n-b1"),
        "default/frontend-3": Outcome(S, "n-c1"),
    }),
    "anti-affinity": (2, {
        "default/cache-0": Outcome(S, "node-2"),
        "default/cache-1": Outcome(S, "node-1"),
        "default/cache-2": Outcome(S, "node-3"),
        "default/cache-3": Outcome(
            U, message="3 node(s) didn't match pod anti-affinity rules. no new claims to "
            "deallocate, preemption: 0/3 nodes "
            "are available: 3 No preemption victims found for incoming pod."
        ),
    }),
    "unschedulable": (2, {
        "default/fits": Outcome(S),
        "default/big": Outcome(U, message=BIG_MESSAGE),
    }),
    "preemption": (0, {
        "default/batch-b1": Outcome("Preempted", "node-b", preempted_by="default/payments"),
        "default/payments": Outcome(S, "node-b", time=0),
    }),
    "gang": (2, {
        "default/batch-0": Outcome("Preempted", "gpu-2", preempted_by="default/training-2"),
        "default/training-0": Outcome(S, "gpu-0", time=0),
        "default/training-1": Outcome(S, "gpu-1", time=0),
        "default/training-2": Outcome(S, "gpu-2", time=0),
        "default/etl-0": Outcome(U, message=GANG_TIMEOUT, time=60),
        "default/etl-1": Outcome("Gated", message="waiting for scheduling gates"),
        "default/etl-2": Outcome("Gated"),
    }),
    "extender": (2, {
        "default/web-0": Outcome(S, "node-b"),
        "default/legacy": Outcome(U, message="1 rack is being retired, 2 node(s) didn't match"),
    }),
    "chart": (2, {
        "shop/db-0": Outcome(S, "node-a"),
        "shop/db-1": Outcome(S, "node-b"),
        "shop/db-2": Outcome(U, message="2 node(s) didn't match pod anti-affinity rules"),
        "shop/log-agent-c6z64": Outcome(S, "node-a"),
        "shop/log-agent-2kmlw": Outcome(S, "node-b"),
        "shop/log-agent-qz8zq": Outcome(S, "node-c"),
        "shop/log-agent-ggtgl": Outcome(
            U, message="0/4 nodes are available: 1 Insufficient cpu, 3 node(s) didn't satisfy "
            "plugin(s) [NodeAffinity]."
        ),
        "shop/web-c5d6f6c4b-mswl6": Outcome(S, "node-a"),
        "shop/web-c5d6f6c4b-c9j2x": Outcome(S, "node-b"),
        "shop/web-c5d6f6c4b-2n6gs": Outcome(S, "node-c"),
        "shop/migrate-t9q7p": Outcome(S),
        "shop/report-28401120-hctdt": Outcome(S),
    }),
    "drain": (2, {
        "default/batch-big": Outcome(U, message="0/3 nodes are available: 3 Insufficient cpu."),
    }),
    "storage": (2, {
        "default/web-0": Outcome(S, "node-a2"),
        "default/ssd-0": Outcome(S, "node-b1"),
        "default/ssd-1": Outcome(U, message=CSI_LIMIT),
        "default/reports": Outcome(
            U, message="0/4 nodes are available: 4 node(s) didn't match PersistentVolume's node "
            "affinity."
        ),
    }),
}


def _attempts(doc: dict[str, Any], pod: str) -> list[dict[str, Any]]:
    return [a for a in doc["attempts"] if a["pod"] == pod]


def _check(pod: str, want: Outcome, got: dict[str, Any]) -> None:
    assert got["outcome"] == want.outcome, (pod, got)
    if want.node is not None:
        assert got.get("node") == want.node, (pod, got)
    if want.preempted_by is not None:
        assert got.get("preemptedBy") == want.preempted_by, (pod, got)
    if want.message is not None:
        assert want.message in got.get("message", ""), (pod, got)
    if want.time is not None:
        assert got["time"] == want.time, (pod, got)


def test_every_example_has_expectations() -> None:
    assert sorted(EXPECTED) == PLAN_EXAMPLES


@pytest.mark.parametrize("example", PLAN_EXAMPLES)
def test_example_outcomes(monkeypatch: pytest.MonkeyPatch, example: str) -> None:
    exit_code, doc = plan_json(monkeypatch, example)
    want_exit, outcomes = EXPECTED[example]
    assert exit_code == want_exit
    pods = {p["pod"]: p for p in doc["pods"]}
    for pod, want in outcomes.items():
        assert pod in pods, f"{example}: no decision for {pod}"
        _check(pod, want, pods[pod])


@pytest.mark.parametrize("example", PLAN_EXAMPLES)
def test_readme_commands_run(monkeypatch: pytest.MonkeyPatch, example: str) -> None:
    commands = readme_commands(example)
    assert commands, f"examples/{example}/README.md shows no `ksched plan` command"
    for args in commands:
        result = run(monkeypatch, *args)
        assert result.exit_code == EXPECTED[example][0], (args, result.output)
        assert result.stderr == EXPECTED_STDERR.get(example, ""), (args, result.stderr)
        assert result.stdout


def test_preemption_respects_the_pdb(monkeypatch: pytest.MonkeyPatch) -> None:
    _, doc = plan_json(monkeypatch, "preemption")
    first = _attempts(doc, "default/payments")[0]
    assert (first["result"], first["node"], first["victims"]) == (
        "Nominated", "node-b", ["default/batch-b1"]
    )
    assert any("batch-pdb" in note for note in doc["notes"])


def test_unschedulable_big_is_retried_after_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    _, doc = plan_json(monkeypatch, "unschedulable")
    # v1.36's queueing hints keep it in unschedulablePods: no bind can make it fit.
    assert [a["time"] for a in _attempts(doc, "default/big")] == [0]


def test_zone_spread_filters_zone_a_first(monkeypatch: pytest.MonkeyPatch) -> None:
    _, doc = plan_json(monkeypatch, "zone-spread")
    filtered = doc["attempts"][0]["filtered"]
    assert sorted(filtered) == ["n-a1", "n-a2"]
    reason = "node(s) didn't match pod topology spread constraints"
    assert all(f["reasons"] == [reason] for f in filtered.values())


def test_gang_members_wait_then_bind_together(monkeypatch: pytest.MonkeyPatch) -> None:
    _, doc = plan_json(monkeypatch, "gang")
    for pod, node in (("default/training-0", "gpu-0"), ("default/training-1", "gpu-1")):
        (attempt,) = _attempts(doc, pod)
        assert (attempt["result"], attempt["node"], attempt["time"]) == ("Waiting", node, 0)
        assert attempt["detail"]["permit"][-1] == f"allowed at t=0s: bound to {node}"
    assert [a["result"] for a in _attempts(doc, "default/training-2")] == [
        "Nominated", "Scheduled"
    ]


def test_gang_without_quorum_times_out(monkeypatch: pytest.MonkeyPatch) -> None:
    _, doc = plan_json(monkeypatch, "gang")
    attempts = _attempts(doc, "default/etl-0")
    assert [(a["time"], a["result"]) for a in attempts] == [(0, "Waiting"), (30, "Waiting")]
    timeout = "rejected due to timeout after waiting 30s at plugin Coscheduling"
    assert attempts[0]["detail"]["permit"][-1] == f"rejected at t=30s by Coscheduling: {timeout}"


def test_storage_volume_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    _, doc = plan_json(monkeypatch, "storage")
    (web,) = _attempts(doc, "default/web-0")
    assert "binds to PV local-pv-a2" in web["detail"]["volumes"][0]
    (ssd,) = _attempts(doc, "default/ssd-0")
    assert "provisioned by StorageClass zonal-ssd for node node-b1" in ssd["detail"]["volumes"][0]
    (rejected,) = _attempts(doc, "default/ssd-1")
    plugins = {node: f["plugin"] for node, f in rejected["filtered"].items()}
    assert plugins == {
        "node-a1": "VolumeBinding", "node-a2": "VolumeBinding",
        "node-b1": "NodeVolumeLimits", "node-c1": "NodeVolumeLimits",
    }
