"""Per-release switches, table-driven from the upstream unit tests of each release.

Rows follow the tables of the release named in each test: tainttoleration
TestTaintTolerationFilter (v1.35), balanced_allocation TestNodeResourcesBalancedAllocation
"best-effort" rows (v1.33), framework TestNodeInfoAddPod sidecar rows (v1.32) and
nodeports TestNodePorts sidecar rows (v1.34) and volumerestrictions' ReadWriteOncePod
conflict message (v1.34).
"""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.engine.permit import WaitingPodEntry
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.nodeinfo import NodeInfo
from ksched_cli.framework.status import Code, Status
from ksched_cli.framework.types import QueuedPodInfo
from ksched_cli.plugins import nodeports, tainttoleration, volumerestrictions
from ksched_cli.plugins.noderesources.balanced_allocation import BalancedAllocation
from ksched_cli.versions.releases import release
from tests.fakes import FakeHandle, make_node, make_pod
from tests.plugins.volume_helpers import make_handle, make_pvc, pod_with_claims, run_filters

TAINT = [{"key": "dedicated", "value": "user1", "effect": "NoSchedule"}]


@pytest.mark.parametrize(
    ("version", "reason"),
    [
        ("1.30", "node(s) had untolerated taint {dedicated: user1}"),
        ("1.32", "node(s) had untolerated taint {dedicated: user1}"),
        ("1.36", "node(s) had untolerated taint(s)"),
    ],
)
def test_taint_message(version: str, reason: str) -> None:
    node = make_node("n1", taints=TAINT)
    handle = FakeHandle([node], features=release(version).features)
    plugin = tainttoleration.Plugin(None, handle)
    status = plugin.filter(CycleState(), make_pod("p"), handle.snapshot.list()[0])
    assert status == Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reason)


@pytest.mark.parametrize(
    ("version", "cpu", "skipped", "score"),
    [
        ("1.30", None, False, 100),  # best-effort pod: 1.30 scores the node as is
        ("1.32", None, False, 100),
        ("1.36", None, True, 0),  # skipped at PreScore; Score without PreScore gives 0
        ("1.32", "1", False, 87),  # s(.25, 0) = 87
        ("1.36", "1", False, 68),  # the change from an empty node's 100: 50 + (50 + 87 - 100) // 2
    ],
)
def test_balanced_best_effort(version: str, cpu: str | None, skipped: bool, score: int) -> None:
    node = make_node("n1", cpu="4", memory="8Gi")
    handle = FakeHandle([node], features=release(version).features)
    plugin = BalancedAllocation(None, handle)
    pod = make_pod("p", cpu=cpu)
    state = CycleState()
    status = plugin.pre_score(state, pod, handle.snapshot.list())
    assert (status is not None and status.code == Code.SKIP) is skipped
    assert plugin.score(CycleState(), pod, handle.snapshot.list()[0]) == (score, None)


SIDECAR = {
    "initContainers": [
        {
            "name": "proxy",
            "image": "proxy",
            "restartPolicy": "Always",
            "resources": {"requests": {"cpu": "500m", "memory": "500Mi"}},
            "ports": [{"containerPort": 15001, "hostPort": 15001}],
        }
    ]
}


@pytest.mark.parametrize(
    ("version", "cpu", "memory"),
    [
        # v1.30: max(containers, init containers with the sidecars before them)
        ("1.30", 500, 500 * 1024 * 1024),
        # v1.32+: the sidecar adds to the regular containers
        ("1.32", 600, 500 * 1024 * 1024 + 200 * 1024 * 1024),
        ("1.36", 600, 500 * 1024 * 1024 + 200 * 1024 * 1024),
    ],
)
def test_sidecar_non_zero_requested(version: str, cpu: int, memory: int) -> None:
    info = NodeInfo(make_node("n1"), features=release(version).features)
    info.add_pod(make_pod("p", node="n1", spec=SIDECAR))
    assert (info.non_zero_requested.milli_cpu, info.non_zero_requested.memory) == (cpu, memory)


@pytest.mark.parametrize(("version", "fits"), [("1.30", True), ("1.32", True), ("1.36", False)])
def test_sidecar_host_ports(version: str, fits: bool) -> None:
    features = release(version).features
    node = make_node("n1")
    running = make_pod("running", node="n1", spec=SIDECAR)
    handle = FakeHandle([node], [running], features=features)
    pending = make_pod(
        "p", spec={"containers": [{"name": "c", "image": "i", "ports": [
            {"containerPort": 15001, "hostPort": 15001}]}]}
    )
    plugin = nodeports.Plugin(None, handle)
    state = CycleState()
    plugin.pre_filter(state, pending)
    status = plugin.filter(state, pending, handle.snapshot.list()[0])
    assert (status is None) is fits


def test_extender_failures_replace_statuses_from_132() -> None:
    from ksched_cli.extender.scheduling import _set_failures

    shared = Status(Code.UNSCHEDULABLE, "Insufficient cpu", plugin="NodeResourcesFit")
    statuses = {"a": shared, "b": shared}
    _set_failures({"a": "busy", "c": "down"}, {"b": "gone"}, statuses)
    assert shared.all_reasons() == ["Insufficient cpu"]
    assert statuses == {
        "a": Status(Code.UNSCHEDULABLE, "busy", plugin="Extender"),
        "b": Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "gone", plugin="Extender"),
        "c": Status(Code.UNSCHEDULABLE, "down", plugin="Extender"),
    }
    assert release("1.32").features.extender_status_overwrite
    assert not release("1.30").features.extender_status_overwrite


def _t(key: str, value: str, effect: str = "NoSchedule") -> dict[str, str]:
    return {"key": key, "value": value, "effect": effect}


def _tol(key: str, operator: str = "Equal", value: str = "", effect: str = "") -> dict[str, str]:
    out = {"key": key, "operator": operator, "value": value, "effect": effect}
    return {k: v for k, v in out.items() if v}


# TestTaintTolerationFilter (v1.35+), rows without the alpha comparison operators; the
# untolerated taint is the first NoSchedule/NoExecute taint no toleration matches.
TAINT_ROWS: list[tuple[str, list[dict[str, str]], list[dict[str, str]], tuple[str, str] | None]] = [
    ("no tolerations, nonempty taints", [], [_t("dedicated", "user1")], ("dedicated", "user1")),
    ("tolerates the dedicated user1 taint",
     [_tol("dedicated", value="user1", effect="NoSchedule")], [_t("dedicated", "user1")], None),
    ("toleration for user2 on a user1 node",
     [_tol("dedicated", value="user2", effect="NoSchedule")], [_t("dedicated", "user1")],
     ("dedicated", "user1")),
    ("Exists toleration", [_tol("foo", "Exists", effect="NoSchedule")], [_t("foo", "bar")], None),
    ("all taints tolerated",
     [_tol("dedicated", value="user2", effect="NoSchedule"),
      _tol("foo", "Exists", effect="NoSchedule")],
     [_t("dedicated", "user2"), _t("foo", "bar")], None),
    ("effect does not match",
     [_tol("foo", value="bar", effect="PreferNoSchedule")], [_t("foo", "bar")], ("foo", "bar")),
    ("empty toleration effect matches", [_tol("foo", value="bar")], [_t("foo", "bar")], None),
    ("PreferNoSchedule taint never filters",
     [_tol("dedicated", value="user2", effect="NoSchedule")],
     [_t("dedicated", "user1", "PreferNoSchedule")], None),
    ("no toleration, PreferNoSchedule taint", [], [_t("dedicated", "user1", "PreferNoSchedule")],
     None),
]


@pytest.mark.parametrize("version", ["1.30", "1.32", "1.36"])
@pytest.mark.parametrize(
    ("name", "tolerations", "taints", "untolerated"), TAINT_ROWS, ids=[r[0] for r in TAINT_ROWS]
)
def test_taint_toleration_filter(
    version: str,
    name: str,
    tolerations: list[dict[str, str]],
    taints: list[dict[str, str]],
    untolerated: tuple[str, str] | None,
) -> None:
    handle = FakeHandle([make_node("nodeA", taints=taints)], features=release(version).features)
    pod = make_pod("pod1", spec={"tolerations": tolerations})
    got = tainttoleration.Plugin(None, handle).filter(CycleState(), pod, handle.snapshot.list()[0])
    if untolerated is None:
        assert got is None, name
        return
    reason = (
        "node(s) had untolerated taint(s)"
        if version == "1.36"
        else f"node(s) had untolerated taint {{{untolerated[0]}: {untolerated[1]}}}"
    )
    assert got == Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reason), name


@pytest.mark.parametrize(
    ("version", "reason"),
    [
        ("1.30", "node has pod using PersistentVolumeClaim with the same name and "
                 "ReadWriteOncePod access mode"),
        ("1.32", "node has pod using PersistentVolumeClaim with the same name and "
                 "ReadWriteOncePod access mode"),
        ("1.36", "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod "
                 "access mode already in-use by another pod"),
    ],
)
def test_read_write_once_pod_message(version: str, reason: str) -> None:
    """volume_restrictions_test TestAccessModeConflicts' in-use row (v1.34 message)."""
    handle = make_handle([make_node("n1")], [pod_with_claims("user", "data", node="n1")],
                         pvcs=[make_pvc("data", access_modes=("ReadWriteOncePod",))])
    handle.features = release(version).features
    plugin = volumerestrictions.Plugin(None, handle)
    status, statuses = run_filters(plugin, handle, pod_with_claims("p", "data"))
    assert status is None
    assert statuses == {"n1": Status(Code.UNSCHEDULABLE, reason)}


def test_waiting_pod_first_signal_wins() -> None:
    """WaitingPod: Allow-all, Reject or (v1.36) Preempt, whichever comes first."""

    def entry() -> WaitingPodEntry:
        pod = make_pod("w")
        waits = {"Coscheduling": 30.0}
        fwk: Any = None  # never reached by the signals
        return WaitingPodEntry(
            pod, QueuedPodInfo(pod=pod), fwk, CycleState(), "n1", 0.0, waits, dict(waits)
        )

    preempted = entry()
    preempted.preempt("DefaultPreemption", "preempted")
    preempted.reject("Coscheduling", "late")
    assert preempted.decision == Status(Code.ERROR, "preempted", plugin="DefaultPreemption")
    rejected = entry()
    rejected.reject("Coscheduling", "first")
    rejected.preempt("DefaultPreemption", "preempted")
    assert rejected.decision is not None and rejected.decision.code == Code.UNSCHEDULABLE
