"""Coscheduling extension points, ported from scheduler-plugins v0.30 coscheduling_test.go."""

from __future__ import annotations

import pytest

from ksched_cli.api.meta import DEFAULT_TIME
from ksched_cli.api.pod import Pod
from ksched_cli.api.podgroup import PodGroup
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.interface import (
    PermitPlugin,
    PostFilterPlugin,
    PreFilterPlugin,
    QueueSortPlugin,
    ReservePlugin,
)
from ksched_cli.framework.status import Code, Status
from ksched_cli.framework.types import (
    PODS_TO_ACTIVATE_KEY,
    PodsToActivate,
    PostFilterResult,
    QueuedPodInfo,
)
from ksched_cli.plugins import registry
from ksched_cli.plugins.coscheduling import plugin as coscheduling
from tests.plugins.test_coscheduling_fakes import GangHandle, gang_pod, make_plugin, pod_group

LOW, HIGH = 10, 100
T0 = DEFAULT_TIME


def _queued(pod: Pod, first_entry: float | None) -> QueuedPodInfo:
    return QueuedPodInfo(pod=pod, initial_attempt_timestamp=first_entry)


def test_plugin_shape() -> None:
    pl = registry.build_plugin("Coscheduling", None, GangHandle())
    assert pl.name == coscheduling.NAME == "Coscheduling"
    for point in (QueueSortPlugin, PreFilterPlugin, PostFilterPlugin, PermitPlugin, ReservePlugin):
        assert isinstance(pl, point)
    assert isinstance(pl, coscheduling.Plugin)
    assert pl.pre_filter_extensions() is None
    assert pl.reserve(CycleState(), gang_pod("p", "pg"), "node") is None


# coscheduling_test.go TestLess. Times are seconds after the plan starts; groups carry
# absolute creation times. (pod name, namespace, priority, group, first activeQ entry)
@pytest.mark.parametrize(
    ("p1", "p2", "groups", "want"),
    [
        pytest.param(("p1", "ns1", LOW, "", None), ("p2", "ns2", HIGH, "", None), [], False,
                     id="p1.priority less than p2.priority"),
        pytest.param(("p1", "ns1", HIGH, "", None), ("p2", "ns2", LOW, "", None), [], True,
                     id="p1.priority greater than p2.priority"),
        pytest.param(("p1", "ns1", HIGH, "", 1.0), ("p2", "ns2", HIGH, "", 2.0), [], True,
                     id="equal priority. p1 is added to schedulingQ earlier than p2"),
        pytest.param(("p1", "ns1", HIGH, "", 2.0), ("p2", "ns2", HIGH, "", 1.0), [], False,
                     id="equal priority. p2 is added to schedulingQ earlier than p1"),
        pytest.param(("p1", "ns1", LOW, "pg1", None), ("p2", "ns2", HIGH, "", None),
                     [pod_group("pg1", "ns1")], False,
                     id="p1.priority less than p2.priority, p1 belongs to pg1"),
        pytest.param(("p1", "ns1", HIGH, "pg1", None), ("p2", "ns2", LOW, "", None),
                     [pod_group("pg1", "ns1")], True,
                     id="p1.priority greater than p2.priority, p1 belongs to pg1"),
        pytest.param(("p1", "ns1", HIGH, "pg1", 1.0), ("p2", "ns2", HIGH, "", 2.0),
                     [pod_group("pg1", "ns1", created=T0 + 1)], True,
                     id="equal priority. p1 is added earlier than p2, p1 belongs to pg1"),
        pytest.param(("p1", "ns1", HIGH, "pg1", 2.0), ("p2", "ns2", HIGH, "", 1.0),
                     [pod_group("pg1", "ns1", created=T0 + 2)], False,
                     id="equal priority. p2 is added earlier than p1, p1 belongs to pg1"),
        pytest.param(("p1", "ns1", LOW, "pg1", None), ("p2", "ns2", HIGH, "pg2", None),
                     [pod_group("pg1", "ns1", created=T0 + 1),
                      pod_group("pg2", "ns2", created=T0 + 2)], False,
                     id="p1.priority less than p2.priority, p1 in pg1 and p2 in pg2"),
        pytest.param(("p1", "ns1", HIGH, "pg1", None), ("p2", "ns2", LOW, "pg1", None),
                     [pod_group("pg1", "ns1", created=T0 + 1),
                      pod_group("pg2", "ns2", created=T0 + 2)], True,
                     id="p1.priority greater than p2.priority, p1 in pg1 and p2 in pg2"),
        pytest.param(("p1", "ns1", HIGH, "pg1", 1.0), ("p2", "ns2", HIGH, "pg2", 2.0),
                     [pod_group("pg1", "ns1", created=T0 + 1),
                      pod_group("pg2", "ns2", created=T0 + 2)], True,
                     id="equal priority. p1 added earlier than p2, p1 in pg1 and p2 in pg2"),
        pytest.param(("p1", "ns", LOW, "pg2", 1.0), ("p2", "ns", HIGH, "pg1", 2.0),
                     [pod_group("pg1", "ns", created=T0 + 1),
                      pod_group("pg2", "ns", created=T0 + 2)], False,
                     id="equal priority. p2 added earlier than p1, p1 in pg2 and p2 in pg1"),
        pytest.param(("p1", "ns1", HIGH, "pg2", 1.0), ("p2", "ns2", HIGH, "pg2", 1.0),
                     [pod_group("pg1", "ns1", created=T0 + 1),
                      pod_group("pg2", "ns2", created=T0 + 2)], True,
                     id="equal priority and creation time, p1 in pg1 and p2 in pg2"),
        pytest.param(("p1", "ns1", HIGH, "", 1.0), ("p2", "ns2", HIGH, "pg2", 1.0),
                     [pod_group("pg2", "ns2", created=T0 + 2)], True,
                     id="equal priority and creation time, and p2 belong to pg2"),
        # ksched: the default creation time equals a t=0 first entry; names decide.
        pytest.param(("b", "ns", HIGH, "pg", 5.0), ("a", "ns", HIGH, "", None),
                     [pod_group("pg", "ns")], False,
                     id="default group time ties with initial pods, name decides"),
        pytest.param(("a", "ns", HIGH, "pg", 5.0), ("b", "ns", HIGH, "", 0.0),
                     [pod_group("pg", "ns")], True,
                     id="requeued gang pod keeps its group time"),
        pytest.param(("a", "ns", HIGH, "", 0.0), ("a", "ns", HIGH, "", 0.0), [], False,
                     id="a pod is not less than itself"),
    ],
)
def test_less(
    p1: tuple[str, str, int, str, float | None],
    p2: tuple[str, str, int, str, float | None],
    groups: list[PodGroup],
    want: bool,
) -> None:
    pl = make_plugin(GangHandle(groups=groups))

    def info(spec: tuple[str, str, int, str, float | None]) -> QueuedPodInfo:
        name, namespace, priority, group, first_entry = spec
        pod = gang_pod(name, group, namespace=namespace, priority=priority)
        return _queued(pod, first_entry)

    assert pl.less(info(p1), info(p2)) is want


def test_pre_filter_statuses() -> None:
    pods = [gang_pod("a", "pg1"), gang_pod("b", "pg1")]
    handle = GangHandle(pods=pods, groups=[pod_group("pg1", min_member=3)])
    result, status = make_plugin(handle).pre_filter(CycleState(), pods[0])
    assert result is None
    assert status == Status(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "pre-filter pod a cannot find enough sibling pods, current pods number: 2, "
        "minMember of group: 3",
    )
    assert make_plugin(handle).pre_filter(CycleState(), gang_pod("c")) == (None, None)


# coscheduling_test.go TestPodGroupBackoffTime.
def test_pod_group_backoff_time() -> None:
    pods = [gang_pod(f"pod{i}", "pg1") for i in (1, 2, 3)]
    handle = GangHandle(pods=pods, groups=[pod_group("pg1", min_member=3)])
    pl = make_plugin(handle, backoff_seconds=1)
    state = CycleState()
    activate = PodsToActivate()
    state.write(PODS_TO_ACTIVATE_KEY, activate)
    status, _ = pl.permit(state, pods[0], "node")
    assert status is not None and status.code == Code.WAIT
    assert sorted(activate.pods) == ["ns/pod2", "ns/pod3"]

    pl.post_filter(CycleState(), pods[1], {})
    _, status = pl.pre_filter(CycleState(), pods[2])
    assert status == Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "podGroup ns/pg1 failed recently")
    handle.clock = 1.5
    assert pl.pre_filter(CycleState(), pods[2]) == (None, None)


def test_post_filter_backs_off_only_complete_groups() -> None:
    pods = [gang_pod("a", "pg1"), gang_pod("b", "pg1")]
    handle = GangHandle(pods=pods, groups=[pod_group("pg1", min_member=3)])
    pl = make_plugin(handle, backoff_seconds=30)
    pl.post_filter(CycleState(), pods[0], {})
    assert not pl.manager.backed_off.contains("ns/pg1")


def test_post_filter_does_not_extend_a_live_backoff() -> None:
    pods = [gang_pod(f"p{i}", "pg1") for i in range(2)]
    handle = GangHandle(pods=pods, groups=[pod_group("pg1", min_member=2)])
    pl = make_plugin(handle, backoff_seconds=20)
    pl.post_filter(CycleState(), pods[0], {})
    handle.clock = 10.0
    pl.post_filter(CycleState(), pods[1], {})
    handle.clock = 20.5
    assert pl.pre_filter(CycleState(), pods[0]) == (None, None)


# coscheduling_test.go TestPermit, plus the wait time and the allow of siblings.
@pytest.mark.parametrize(
    ("pod", "groups", "permit_seconds", "want", "wait"),
    [
        pytest.param(gang_pod("p"),
                     [pod_group("pg1", min_member=1), pod_group("pg2", min_member=2)],
                     10, None, 0.0, id="pods do not belong to any podGroup"),
        pytest.param(gang_pod("p", "pg2", node="node"),
                     [pod_group("pg1", min_member=1), pod_group("pg2", min_member=2)],
                     10, Status(Code.WAIT), 10.0,
                     id="pods belong to a pg1, but quorum not satisfied"),
        pytest.param(gang_pod("p", "pg1", node="node"),
                     [pod_group("pg1", min_member=1), pod_group("pg2", min_member=2)],
                     10, None, 0.0, id="pods belong to a podGroup, and quorum satisfied"),
        pytest.param(gang_pod("p", "nope"), [], 10,
                     Status(Code.UNSCHEDULABLE, "PodGroup not found"), 0.0, id="group not found"),
        pytest.param(gang_pod("p", "pg", node="node"), [pod_group("pg", min_member=2, timeout=20)],
                     10, Status(Code.WAIT), 20.0, id="group scheduleTimeoutSeconds wins"),
        pytest.param(gang_pod("p", "pg", node="node"), [pod_group("pg", min_member=2, timeout=0)],
                     10, Status(Code.WAIT), 10.0, id="group timeout 0 keeps the args time"),
        pytest.param(gang_pod("p", "pg", node="node"), [pod_group("pg", min_member=2)],
                     0, Status(Code.WAIT), 60.0, id="neither set: 60s"),
        pytest.param(gang_pod("p", "pg", node="node"), [pod_group("pg", min_member=2, timeout=0)],
                     0, Status(Code.WAIT), 0.0, id="group timeout 0 and args 0"),
        pytest.param(gang_pod("p", "pg", node="node"),
                     [pod_group("pg", min_member=2, timeout=3600)],
                     10, Status(Code.WAIT), 3600.0, id="the framework caps, not the plugin"),
    ],
)
def test_permit(
    pod: Pod, groups: list[PodGroup], permit_seconds: int, want: Status | None, wait: float
) -> None:
    pl = make_plugin(GangHandle(pods=[pod], groups=groups), permit_seconds=permit_seconds)
    assert pl.permit(CycleState(), pod, "node") == (want, wait)


def test_permit_success_allows_waiting_siblings_only() -> None:
    waiting = [
        gang_pod("a", "pg", node="node"),
        gang_pod("b", "other", node="node"),
        gang_pod("c", "pg", namespace="elsewhere", node="node"),
    ]
    me = gang_pod("d", "pg", node="node")
    handle = GangHandle(pods=[*waiting, me], groups=[pod_group("pg", min_member=2)],
                        waiting=waiting)
    assert make_plugin(handle).permit(CycleState(), me, "node") == (None, 0.0)
    assert [w.allowed for w in handle.waiting] == [["Coscheduling"], [], []]


def test_permit_wait_does_not_activate_after_first_member() -> None:
    first = gang_pod("a", "pg", node="node")
    me = gang_pod("b", "pg", node="node")
    rest = gang_pod("c", "pg")
    handle = GangHandle(pods=[first, me, rest], groups=[pod_group("pg", min_member=3)],
                        waiting=[first])
    state = CycleState()
    activate = PodsToActivate()
    state.write(PODS_TO_ACTIVATE_KEY, activate)
    status, _ = make_plugin(handle).permit(state, me, "node")
    assert status == Status(Code.WAIT)
    assert activate.pods == {}
    assert handle.waiting[0].allowed == []


# coscheduling_test.go TestPostFilter, plus the 10 % rule and the rejection of waiting pods.
@pytest.mark.parametrize(
    ("pod", "existing", "groups", "want"),
    [
        pytest.param(gang_pod("p"), [], [pod_group("pg1", min_member=2)],
                     Status(Code.UNSCHEDULABLE, "can not find pod group"),
                     id="pod does not belong to any pod group"),
        pytest.param(gang_pod("p", "missing"), [], [],
                     Status(Code.UNSCHEDULABLE, "can not find pod group"),
                     id="pod group not found"),
        pytest.param(gang_pod("p", "pg1"), [gang_pod("p1", "pg1", node="node")],
                     [pod_group("pg1", min_member=1)], Status(Code.UNSCHEDULABLE),
                     id="enough pods assigned, do not reject all"),
        pytest.param(gang_pod("p", "pg1"), [gang_pod("p1", "pg1", node="node")],
                     [pod_group("pg1", min_member=2)],
                     Status(Code.UNSCHEDULABLE, "PodGroup ns/pg1 gets rejected due to Pod p is "
                            "unschedulable even after PostFilter"),
                     id="pod failed at filter phase, reject all pods"),
        pytest.param(gang_pod("p", "pg1"),
                     [gang_pod(f"m{i}", "pg1", node="node") for i in range(9)],
                     [pod_group("pg1", min_member=10)], Status(Code.UNSCHEDULABLE),
                     id="gap of exactly 10 percent is small"),
        pytest.param(gang_pod("p", "pg1"),
                     [gang_pod(f"m{i}", "pg1", node="node") for i in range(8)],
                     [pod_group("pg1", min_member=9)],
                     Status(Code.UNSCHEDULABLE, "PodGroup ns/pg1 gets rejected due to Pod p is "
                            "unschedulable even after PostFilter"),
                     id="gap of 11 percent rejects"),
        pytest.param(gang_pod("p", "pg1"), [], [pod_group("pg1", min_member=0)],
                     Status(Code.UNSCHEDULABLE), id="minMember 0"),
    ],
)
def test_post_filter(
    pod: Pod, existing: list[Pod], groups: list[PodGroup], want: Status
) -> None:
    handle = GangHandle(pods=[*existing, pod], groups=groups)
    assert make_plugin(handle).post_filter(CycleState(), pod, {}) == (PostFilterResult(), want)


def test_post_filter_rejects_waiting_members_and_forgets_permission() -> None:
    waiting = [gang_pod("a", "pg", node="node"), gang_pod("b", "pg2", node="node"),
               gang_pod("c", "pg", namespace="o", node="node")]
    me = gang_pod("d", "pg")
    groups = [pod_group("pg", min_member=10, min_resources={"cpu": "1"})]
    handle = GangHandle(pods=[*waiting, me], groups=groups, waiting=waiting)
    pl = make_plugin(handle)
    pl.manager.permitted.add("ns/pg", 100)
    _, status = pl.post_filter(CycleState(), me, {})
    assert status is not None and status.reasons[0].startswith("PodGroup ns/pg gets rejected")
    assert [w.rejected for w in handle.waiting] == [
        [("Coscheduling", "optimistic rejection in PostFilter")], [], [],
    ]
    assert not pl.manager.permitted.contains("ns/pg")


def test_unreserve_rejects_waiting_members() -> None:
    waiting = [gang_pod("a", "pg", node="node"), gang_pod("b", "pg2", node="node")]
    me = gang_pod("c", "pg", node="node")
    handle = GangHandle(pods=[*waiting, me], groups=[pod_group("pg", min_member=3)],
                        waiting=waiting)
    pl = make_plugin(handle)
    pl.manager.permitted.add("ns/pg", 100)
    pl.unreserve(CycleState(), me, "node")
    assert [w.rejected for w in handle.waiting] == [
        [("Coscheduling", "rejection in Unreserve")], [],
    ]
    assert not pl.manager.permitted.contains("ns/pg")


def test_unreserve_without_group_does_nothing() -> None:
    waiting = [gang_pod("a", "pg", node="node")]
    handle = GangHandle(pods=waiting, groups=[pod_group("pg", min_member=3)], waiting=waiting)
    make_plugin(handle).unreserve(CycleState(), gang_pod("x", "missing"), "node")
    make_plugin(handle).unreserve(CycleState(), gang_pod("y"), "node")
    assert handle.waiting[0].rejected == []
