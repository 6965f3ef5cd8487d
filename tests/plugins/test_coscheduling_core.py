"""PodGroupManager, ported from scheduler-plugins v0.30 core_test.go and extended."""

from __future__ import annotations

import pytest

from ksched_cli.api.pod import Pod
from ksched_cli.api.podgroup import PodGroup
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.types import PODS_TO_ACTIVATE_KEY, PodsToActivate
from ksched_cli.plugins.coscheduling.core import (
    PERMIT_STATE_KEY,
    PermitDecision,
    PermitState,
    PodGroupManager,
    TTLCache,
    check_cluster_resource,
    min_resources_request,
)
from ksched_cli.plugins.coscheduling.quantity import DECIMAL_SI, new_quantity
from tests.fakes import make_node
from tests.plugins.test_coscheduling_fakes import GangHandle, gang_pod, pod_group

TWO_NODES = [make_node("node-a", cpu="4", pods="32"), make_node("node-b", cpu="4", pods="32")]


def _manager(handle: GangHandle, timeout: float = 10.0) -> PodGroupManager:
    return PodGroupManager(handle, timeout)


# core_test.go TestPreFilter. Unlike Go's test informer, ksched's pod list holds the
# pod being scheduled too, as the API server does.
@pytest.mark.parametrize(
    ("pod", "others", "groups", "want"),
    [
        pytest.param(
            gang_pod("p", namespace="default"),
            [gang_pod("p1", "pg1"), gang_pod("p2", "pg2")],
            [pod_group("pg1", min_member=1), pod_group("pg2", min_member=1)],
            None,
            id="pod does not belong to any pg",
        ),
        pytest.param(
            gang_pod("p", "pg-non-existent"),
            [],
            [pod_group("pg1", min_member=1)],
            None,
            id="pod belongs to a non-existent pg",
        ),
        pytest.param(
            gang_pod("p", "pg1"),
            [gang_pod("pg2-1", "pg2")],
            [pod_group("pg1", min_member=2), pod_group("pg2", min_member=2)],
            "pre-filter pod p cannot find enough sibling pods, "
            "current pods number: 1, minMember of group: 2",
            id="pod count less than minMember",
        ),
        pytest.param(
            gang_pod("p1a", "pg1"),
            [gang_pod("p1b", "pg1")],
            [pod_group("pg1", min_member=2), pod_group("pg2", min_member=2)],
            None,
            id="pod count equal minMember",
        ),
        pytest.param(
            gang_pod("p1a", "pg1"),
            [gang_pod("p1b", "pg1"), gang_pod("p1c", "pg1")],
            [pod_group("pg1", min_member=2), pod_group("pg2", min_member=2)],
            None,
            id="pod count more than minMember",
        ),
        pytest.param(
            gang_pod("p1a", "pg1"),
            [gang_pod("p1b", "pg1"), gang_pod("p1c", "pg1")],
            [pod_group("pg1", min_member=2, min_resources={"cpu": "6"})],
            None,
            id="cluster's resource satisfies minResource",
        ),
        pytest.param(
            gang_pod("p1a", "pg1"),
            [gang_pod("p1b", "pg1"), gang_pod("p1c", "pg1")],
            [pod_group("pg1", min_member=2, min_resources={"cpu": "10"})],
            "resource gap: map[cpu:{{2000 -3} {<nil>}  DecimalSI}]",
            id="cluster's resource cannot satisfy minResource",
        ),
        pytest.param(
            gang_pod("p1a", "pg1"),
            [gang_pod("p1b", "pg1"), gang_pod("x", "pg1", namespace="other")],
            [pod_group("pg1", min_member=3)],
            "pre-filter pod p1a cannot find enough sibling pods, "
            "current pods number: 2, minMember of group: 3",
            id="members of a same-named group in another namespace do not count",
        ),
        pytest.param(
            gang_pod("p1a", "pg1"),
            [gang_pod("p1b", "pg1", node="node-a"), gang_pod("p1c", "pg1")],
            [pod_group("pg1", min_member=3)],
            None,
            id="running members count",
        ),
    ],
)
def test_pre_filter(pod: Pod, others: list[Pod], groups: list[PodGroup], want: str | None) -> None:
    handle = GangHandle(TWO_NODES, [*others, pod], groups)
    assert _manager(handle).pre_filter(pod) == want


def test_pre_filter_rejects_backed_off_group_until_expiry() -> None:
    pod = gang_pod("p", "pg1")
    handle = GangHandle(TWO_NODES, [pod], [pod_group("pg1", min_member=1)])
    mgr = _manager(handle)
    mgr.backoff_pod_group("ns/pg1", 20)
    assert mgr.pre_filter(pod) == "podGroup ns/pg1 failed recently"
    handle.clock = 20.0
    assert mgr.pre_filter(pod) == "podGroup ns/pg1 failed recently"
    handle.clock = 20.5
    assert mgr.pre_filter(pod) is None


def test_pre_filter_skips_resource_check_while_group_is_permitted() -> None:
    pod = gang_pod("p", "pg1")
    group = pod_group("pg1", min_member=1, min_resources={"cpu": "6"})
    handle = GangHandle(TWO_NODES, [pod], [group])
    mgr = _manager(handle, timeout=10)
    assert mgr.pre_filter(pod) is None
    group.min_resources_text = {"cpu": "100"}
    handle.clock = 10.0
    assert mgr.pre_filter(pod) is None  # cached until t=10
    handle.clock = 10.001
    assert mgr.pre_filter(pod) == "resource gap: map[cpu:{{92000 -3} {<nil>}  DecimalSI}]"
    mgr.delete_permitted_pod_group("ns/pg1")


def test_permitted_cache_defaults_to_three_seconds() -> None:
    pod = gang_pod("p", "pg1")
    group = pod_group("pg1", min_member=1, min_resources={"cpu": "1"})
    handle = GangHandle(TWO_NODES, [pod], [group])
    mgr = _manager(handle, timeout=0)
    assert mgr.pre_filter(pod) is None
    assert mgr.permitted.contains("ns/pg1")
    handle.clock = 3.0
    assert mgr.permitted.contains("ns/pg1")
    handle.clock = 3.5
    assert not mgr.permitted.contains("ns/pg1")


def test_empty_min_resources_still_checks_pods() -> None:
    pod = gang_pod("p", "pg1")
    others = [gang_pod(f"q{i}", "pg1") for i in range(3)]
    group = pod_group("pg1", min_member=4, min_resources={})
    handle = GangHandle([make_node("n", pods="3")], [pod, *others], [group])
    assert _manager(handle).pre_filter(pod) == (
        "resource gap: map[pods:{{1 0} {<nil>}  DecimalSI}]"
    )
    group.min_resources_text = None
    assert _manager(handle).pre_filter(pod) is None


# core_test.go TestPermit; ksched's snapshot already holds the pod being permitted.
@pytest.mark.parametrize(
    ("pod", "existing", "groups", "want"),
    [
        pytest.param(
            gang_pod("p"), [], [pod_group("pg1", min_member=2)],
            PermitDecision.POD_GROUP_NOT_SPECIFIED, id="pod does not belong to any pg",
        ),
        pytest.param(
            gang_pod("p", "pg-non-existent"), [], [pod_group("pg1", min_member=2)],
            PermitDecision.POD_GROUP_NOT_FOUND, id="pod specifies a non-existent pg",
        ),
        pytest.param(
            gang_pod("p", "pg1", node="node"), [], [pod_group("pg1", min_member=2)],
            PermitDecision.WAIT, id="pod belongs to a pg that doesn't have quorum",
        ),
        pytest.param(
            gang_pod("p1a", "pg1", node="node"), [gang_pod("p1b", "pg1", node="node")],
            [pod_group("pg1", min_member=2)],
            PermitDecision.SUCCESS, id="pod belongs to a pg that have quorum satisfied",
        ),
        pytest.param(
            gang_pod("p1a", "pg1"), [gang_pod("p1b", "pg1", node="node")],
            [pod_group("pg1", min_member=2)],
            PermitDecision.SUCCESS, id="quorum satisfied, pod not in the snapshot",
        ),
        pytest.param(
            gang_pod("p1a", "pg1", node="node"),
            [gang_pod("p1b", "pg1", node="node"), gang_pod("x", "pg1", namespace="o", node="node")],
            [pod_group("pg1", min_member=3)],
            PermitDecision.WAIT, id="members of another namespace are not assigned members",
        ),
    ],
)
def test_permit(
    pod: Pod, existing: list[Pod], groups: list[PodGroup], want: PermitDecision
) -> None:
    handle = GangHandle(pods=[*existing, pod], groups=groups)
    assert _manager(handle).permit(CycleState(), pod) is want


def test_permit_requests_activation_only_for_first_member() -> None:
    first = gang_pod("a", "pg1", node="node")
    handle = GangHandle(pods=[first], groups=[pod_group("pg1", min_member=3)])
    state = CycleState()
    assert _manager(handle).permit(state, first) is PermitDecision.WAIT
    assert state.read(PERMIT_STATE_KEY) == PermitState(activate=True)

    second = gang_pod("b", "pg1", node="node")
    handle = GangHandle(pods=[first, second], groups=[pod_group("pg1", min_member=3)])
    state = CycleState()
    assert _manager(handle).permit(state, second) is PermitDecision.WAIT
    assert state.get(PERMIT_STATE_KEY) is None


def test_activate_siblings() -> None:
    me = gang_pod("pod1", "pg1", node="node")
    siblings = [gang_pod("pod2", "pg1"), gang_pod("pod3", "pg1")]
    strangers = [gang_pod("pod4", "pg2"), gang_pod("pod1", "pg1", namespace="other")]
    handle = GangHandle(pods=[me, *siblings, *strangers], groups=[pod_group("pg1", min_member=3)])
    mgr = _manager(handle)
    state = CycleState()
    activate = PodsToActivate()
    state.write(PODS_TO_ACTIVATE_KEY, activate)
    mgr.activate_siblings(me, state)
    assert activate.pods == {}  # no Permit asked for it
    state.write(PERMIT_STATE_KEY, PermitState(activate=True))
    mgr.activate_siblings(me, state)
    assert sorted(activate.pods) == ["ns/pod2", "ns/pod3"]


def test_permit_state_clone() -> None:
    state = PermitState(activate=True)
    copy = state.clone()
    assert copy == state and copy is not state


# core_test.go TestCheckClusterResource: two nodes with 3 cpus each.
@pytest.mark.parametrize(
    ("existing", "want"),
    [
        pytest.param(
            [gang_pod("p1", node="node-a", cpu="2")], None, id="Cluster resource enough"
        ),
        pytest.param(
            [gang_pod("p1", node="node-a", cpu="2"), gang_pod("p2", node="node-b", cpu="1")],
            "resource gap: map[cpu:{{1000 -3} {<nil>}  DecimalSI}]",
            id="Cluster resource not enough",
        ),
        pytest.param(
            [gang_pod("p1", "pg1", node="node-a", cpu="2"), gang_pod("p2", node="node-b", cpu="1")],
            None,
            id="Cluster resource enough as p1's resource needs to be excluded from minResources",
        ),
    ],
)
def test_check_cluster_resource(existing: list[Pod], want: str | None) -> None:
    nodes = [make_node("node-a", cpu="3", pods="32"), make_node("node-b", cpu="3", pods="32")]
    handle = GangHandle(nodes, existing)
    request = {"cpu": new_quantity(4, DECIMAL_SI)}
    assert check_cluster_resource(handle.snapshot.list(), request, "ns/pg1") == want


def test_check_cluster_resource_reports_every_missing_resource() -> None:
    handle = GangHandle([make_node("n", cpu="2", memory="1Gi", pods="2")])
    pg = pod_group(
        "pg", min_member=3,
        min_resources={"cpu": "3", "memory": "2Gi", "example.com/gpu": "1", "hugepages-2Mi": "1Mi"},
    )
    request = min_resources_request(pg)
    assert request is not None
    assert check_cluster_resource(handle.snapshot.list(), request, "ns/pg") == (
        "resource gap: map["
        "cpu:{{1000 -3} {<nil>}  DecimalSI} "
        "example.com/gpu:{{1 0} {<nil>}  DecimalSI} "
        "hugepages-2Mi:{{1048576 0} {<nil>}  BinarySI} "
        "memory:{{1073741824 0} {<nil>}  BinarySI} "
        "pods:{{1 0} {<nil>}  DecimalSI}]"
    )


def test_check_cluster_resource_without_nodes_keeps_parsed_text() -> None:
    pg = pod_group("pg", min_member=2, min_resources={"cpu": "500m"})
    request = min_resources_request(pg)
    assert request is not None
    assert check_cluster_resource([], request, "ns/pg") == (
        "resource gap: map[cpu:{{500 -3} {<nil>} 500m DecimalSI} pods:{{2 0} {<nil>}  DecimalSI}]"
    )


def test_min_resources_request_from_scheduler_units() -> None:
    pg = pod_group("pg", min_member=2)
    assert min_resources_request(pg) is None
    pg.min_resources = {"cpu": 1500, "memory": 1024}
    request = min_resources_request(pg)
    assert request is not None
    assert {k: (q.value, q.scale) for k, q in request.items()} == {
        "cpu": (1500, -3), "memory": (1024, 0), "pods": (2, 0),
    }


def test_calculate_assigned_pods_counts_snapshot_members() -> None:
    pods = [
        gang_pod("a", "pg1", node="node"),
        gang_pod("b", "pg1", node="node"),
        gang_pod("c", "pg1"),
        gang_pod("d", "pg2", node="node"),
        gang_pod("e", "pg1", namespace="other", node="node"),
    ]
    mgr = _manager(GangHandle(pods=pods))
    assert mgr.calculate_assigned_pods("pg1", "ns") == 2
    assert mgr.calculate_assigned_pods("pg1", "ns", exclude_uid=pods[0].uid) == 1


def test_creation_timestamp() -> None:
    handle = GangHandle(groups=[pod_group("pg1", created=1000.0)])
    mgr = _manager(handle)
    assert mgr.creation_timestamp(gang_pod("a", "pg1"), 5.0) == 1000.0
    assert mgr.creation_timestamp(gang_pod("b", "missing"), 5.0) == 5.0
    assert mgr.creation_timestamp(gang_pod("c"), 5.0) == 5.0


def test_ttl_cache_add_keeps_live_entry() -> None:
    now = [0.0]
    cache = TTLCache(lambda: now[0], default_ttl=3.0)
    assert cache.add("k", 5)
    now[0] = 4.0
    assert not cache.add("k", 5)  # still live: the expiry stays at t=5
    now[0] = 5.5
    assert not cache.contains("k")
    assert cache.add("k", 0)  # default TTL
    now[0] = 8.5
    assert cache.contains("k")
    now[0] = 8.6
    assert not cache.contains("k")
    assert cache.add("k", -1)  # negative: never expires
    now[0] = 1e9
    assert cache.contains("k")
    cache.delete("k")
    assert not cache.contains("k")
