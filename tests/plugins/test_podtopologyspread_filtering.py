"""PodTopologySpread PreFilter, AddPod/RemovePod and Filter (ported from filtering_test.go)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod
from ksched_cli.api.workloads import Workload
from ksched_cli.config.args import LIST_DEFAULTING, PodTopologySpreadArgs
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.podinfo import pod_info
from ksched_cli.framework.status import Code, Status
from ksched_cli.plugins.podtopologyspread.filtering import (
    ERR_REASON_CONSTRAINTS_NOT_MATCH,
    ERR_REASON_NODE_LABEL_NOT_MATCH,
    MAX_INT32,
    PRE_FILTER_STATE_KEY,
    CriticalPaths,
    PreFilterState,
)
from ksched_cli.plugins.podtopologyspread.plugin import Plugin

from .test_podtopologyspread_common import (
    BAR,
    FOO,
    UNSCHEDULABLE_TAINTS,
    default_tsc,
    node,
    pod,
    service,
    setup,
    tsc,
    zn,
)

F = {"foo": ""}
NEW = (("", MAX_INT32), ("", MAX_INT32))
Paths = tuple[tuple[str, int], tuple[str, int]]


def on(node_name: str, count: int, labels: Mapping[str, str] = F, tag: str = "") -> list[Pod]:
    """``count`` running pods on ``node_name`` with ``labels``."""
    return [pod(f"p{tag}-{node_name}-{i}", labels, on=node_name) for i in range(count)]


def abxy() -> list[Node]:
    return [
        zn("node-a", "zone1"),
        zn("node-b", "zone1"),
        zn("node-x", "zone2"),
        zn("node-y", "zone2"),
    ]


def sorted_paths(paths: CriticalPaths) -> Paths:
    """Equal counts are listed alphabetically, as the Go tests compare them."""
    (v0, n0), (v1, n1) = paths.pairs()
    if n0 == n1 and v0 > v1:
        v0, v1 = v1, v0
    return (v0, n0), (v1, n1)


def norm(paths: Paths) -> Paths:
    (v0, n0), (v1, n1) = paths
    return ((v1, n0), (v0, n1)) if n0 == n1 and v0 > v1 else paths


@dataclass
class Want:
    match: dict[tuple[str, str], int]
    domains: dict[str, int]
    paths: dict[str, Paths]

    def check(self, state: PreFilterState) -> None:
        assert state.match_num == self.match
        assert state.domains_num == self.domains
        got = {k: sorted_paths(p) for k, p in state.critical_paths.items()}
        assert got == {k: norm(p) for k, p in self.paths.items()}


def zone(z1: int, z2: int) -> dict[tuple[str, str], int]:
    return {("zone", "zone1"): z1, ("zone", "zone2"): z2}


def nodes_of(**counts: int) -> dict[tuple[str, str], int]:
    return {("node", f"node-{k}"): v for k, v in counts.items()}


def pre_filter(plugin: Plugin, p: Pod) -> tuple[CycleState, Status | None]:
    state = CycleState()
    result, status = plugin.pre_filter(state, p)
    assert result is None
    return state, status


# -- PreFilter state ---------------------------------------------------------------------


@dataclass
class StateCase:
    pod: Pod
    nodes: list[Node] = field(default_factory=list)
    existing: list[Pod] = field(default_factory=list)
    want: Want | None = None  # None: PreFilter returns Skip
    defaults: list[Any] = field(default_factory=list)
    workloads: list[Workload] = field(default_factory=list)


ZONE_FOO = tsc(1, "zone", selector=FOO)
NODE_FOO = tsc(1, "node", selector=FOO)
NODE_BAR = tsc(1, "node", selector=BAR)
A2B1Y2 = on("node-a", 2) + on("node-b", 1) + on("node-y", 2)
A2B1Y4 = on("node-a", 2) + on("node-b", 1) + on("node-y", 4)
ABC_FOO = [
    node("node-a", {"node": "node-a", "foo": ""}),
    node("node-b", {"node": "node-b", "foo": ""}),
    node("node-c", {"node": "node-c", "bar": ""}),
]
ABC_TAINTED = [
    node("node-a", {"node": "node-a"}),
    node("node-b", {"node": "node-b"}),
    node("node-c", {"node": "node-c", "bar": ""}, taints=UNSCHEDULABLE_TAINTS),
]
BAR_A1B2 = [*on("node-a", 1, {"bar": ""}), *on("node-b", 2, {"bar": ""}), *on("node-c", 1, {})]
A1B2 = Want(nodes_of(a=1, b=2), {"node": 2}, {"node": (("node-a", 1), ("node-b", 2))})
A1B2C0 = Want(nodes_of(a=1, b=2, c=0), {"node": 3}, {"node": (("node-c", 0), ("node-a", 1))})

STATE_CASES = {
    "clean cluster with one spreadConstraint": StateCase(
        pod("p", F, constraints=[tsc(5, "zone", selector={"matchLabels": {"foo": "bar"}})]),
        abxy(),
        [],
        Want(zone(0, 0), {"zone": 2}, {"zone": (("zone1", 0), ("zone2", 0))}),
    ),
    "normal case with one spreadConstraint": StateCase(
        pod("p", F, constraints=[ZONE_FOO]),
        abxy(),
        A2B1Y2,
        Want(zone(3, 2), {"zone": 2}, {"zone": (("zone2", 2), ("zone1", 3))}),
    ),
    "normal case with null label selector": StateCase(
        pod("p", F, constraints=[tsc(1, "zone")]),
        abxy(),
        A2B1Y2,
        Want(zone(0, 0), {"zone": 2}, {"zone": (("zone2", 0), ("zone1", 0))}),
    ),
    "normal case with one spreadConstraint, on a 3-zone cluster": StateCase(
        pod("p", F, constraints=[ZONE_FOO]),
        [*abxy(), zn("node-o", "zone3"), zn("node-p", "zone3")],
        A2B1Y2,
        Want(
            {**zone(3, 2), ("zone", "zone3"): 0},
            {"zone": 3},
            {"zone": (("zone3", 0), ("zone2", 2))},
        ),
    ),
    "namespace mismatch doesn't count": StateCase(
        pod("p", F, constraints=[ZONE_FOO]),
        abxy(),
        [
            pod("p-a1", F, on="node-a"),
            pod("p-a2", F, on="node-a", namespace="ns1"),
            pod("p-b1", F, on="node-b"),
            pod("p-y1", F, on="node-y", namespace="ns2"),
            pod("p-y2", F, on="node-y"),
        ],
        Want(zone(2, 1), {"zone": 2}, {"zone": (("zone2", 1), ("zone1", 2))}),
    ),
    "normal case with two spreadConstraints": StateCase(
        pod("p", F, constraints=[ZONE_FOO, NODE_FOO]),
        abxy(),
        A2B1Y4,
        Want(
            {**zone(3, 4), **nodes_of(a=2, b=1, x=0, y=4)},
            {"zone": 2, "node": 4},
            {"zone": (("zone1", 3), ("zone2", 4)), "node": (("node-x", 0), ("node-b", 1))},
        ),
    ),
    "soft spreadConstraints should be bypassed": StateCase(
        pod(
            "p",
            F,
            constraints=[
                tsc(1, "zone", "ScheduleAnyway", FOO),
                ZONE_FOO,
                tsc(1, "node", "ScheduleAnyway", FOO),
                NODE_FOO,
            ],
        ),
        [zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-y", "zone2")],
        A2B1Y4,
        Want(
            {**zone(3, 4), **nodes_of(a=2, b=1, y=4)},
            {"zone": 2, "node": 3},
            {"zone": (("zone1", 3), ("zone2", 4)), "node": (("node-b", 1), ("node-a", 2))},
        ),
    ),
    "different labelSelectors - simple version": StateCase(
        pod("p", {"foo": "", "bar": ""}, constraints=[ZONE_FOO, NODE_BAR]),
        [zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-y", "zone2")],
        [pod("p-a", F, on="node-a"), pod("p-b", {"bar": ""}, on="node-b")],
        Want(
            {**zone(1, 0), **nodes_of(a=0, b=1, y=0)},
            {"zone": 2, "node": 3},
            {"zone": (("zone2", 0), ("zone1", 1)), "node": (("node-a", 0), ("node-y", 0))},
        ),
    ),
    "different labelSelectors - complex pods": StateCase(
        pod("p", {"foo": "", "bar": ""}, constraints=[ZONE_FOO, NODE_BAR]),
        [zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-y", "zone2")],
        [
            *on("node-a", 1),
            *on("node-a", 1, {"foo": "", "bar": ""}, "fb"),
            *on("node-b", 1),
            *on("node-y", 2),
            *on("node-y", 2, {"foo": "", "bar": ""}, "fb"),
        ],
        Want(
            {**zone(3, 4), **nodes_of(a=1, b=0, y=2)},
            {"zone": 2, "node": 3},
            {"zone": (("zone1", 3), ("zone2", 4)), "node": (("node-b", 0), ("node-a", 1))},
        ),
    ),
    "two spreadConstraints, and with podAffinity": StateCase(
        pod("p", F, constraints=[ZONE_FOO, NODE_FOO], affinity=("node", "NotIn", ["node-x"])),
        abxy(),
        A2B1Y4,
        Want(
            {**zone(3, 4), **nodes_of(a=2, b=1, y=4)},
            {"zone": 2, "node": 3},
            {"zone": (("zone1", 3), ("zone2", 4)), "node": (("node-b", 1), ("node-a", 2))},
        ),
    ),
    "default constraints and a service": StateCase(
        pod("p", {"foo": "bar", "baz": "kar"}),
        defaults=[
            default_tsc(3, "node", "DoNotSchedule"),
            default_tsc(2, "node", "ScheduleAnyway"),
            default_tsc(5, "rack", "DoNotSchedule"),
        ],
        workloads=[service({"foo": "bar"})],
        want=Want({}, {}, {"node": NEW, "rack": NEW}),
    ),
    "default constraints and a service that doesn't match": StateCase(
        pod("p", {"foo": "bar"}),
        defaults=[default_tsc(3, "node", "DoNotSchedule")],
        workloads=[service({"baz": "kep"})],
    ),
    "default constraints and a service, but pod has constraints": StateCase(
        pod(
            "p",
            {"foo": "bar", "baz": "tar"},
            constraints=[
                tsc(1, "zone", selector={"matchLabels": {"baz": "tar"}}),
                tsc(2, "planet", "ScheduleAnyway", {"matchLabels": {"fot": "rok"}}),
            ],
        ),
        defaults=[default_tsc(2, "node", "DoNotSchedule")],
        workloads=[service({"foo": "bar"})],
        want=Want({}, {}, {"zone": NEW}),
    ),
    "default soft constraints and a service": StateCase(
        pod("p", {"foo": "bar"}),
        defaults=[default_tsc(2, "node", "ScheduleAnyway")],
        workloads=[service({"foo": "bar"})],
    ),
    "NodeAffinityPolicy honored with labelSelectors": StateCase(
        pod("p", F, node_selector=F, constraints=[NODE_BAR]), ABC_FOO, BAR_A1B2, A1B2
    ),
    "NodeAffinityPolicy ignored with labelSelectors": StateCase(
        pod("p", F, node_selector=F, constraints=[tsc(1, "node", selector=BAR, affinity="Ignore")]),
        ABC_FOO,
        BAR_A1B2,
        A1B2C0,
    ),
    "NodeAffinityPolicy honored with nodeAffinity": StateCase(
        pod("p", F, affinity=("foo", "In", [""]), constraints=[NODE_BAR]), ABC_FOO, BAR_A1B2, A1B2
    ),
    "NodeAffinityPolicy ignored with nodeAffinity": StateCase(
        pod(
            "p",
            F,
            affinity=("foo", "In", [""]),
            constraints=[tsc(1, "node", selector=BAR, affinity="Ignore")],
        ),
        ABC_FOO,
        BAR_A1B2,
        A1B2C0,
    ),
    "NodeTaintsPolicy ignored": StateCase(
        pod("p", F, constraints=[NODE_BAR]), ABC_TAINTED, BAR_A1B2, A1B2C0
    ),
    "NodeTaintsPolicy honored": StateCase(
        pod("p", F, constraints=[tsc(1, "node", selector=BAR, taints="Honor")]),
        ABC_TAINTED,
        BAR_A1B2,
        A1B2,
    ),
    "NodeTaintsPolicy honored with tolerated taints": StateCase(
        pod(
            "p",
            F,
            tolerate=["node.kubernetes.io/unschedulable"],
            constraints=[tsc(1, "node", selector=BAR, taints="Honor")],
        ),
        ABC_TAINTED,
        BAR_A1B2,
        A1B2C0,
    ),
    "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore": StateCase(
        pod(
            "p",
            F,
            node_selector=F,
            constraints=[ZONE_FOO, tsc(1, "node", selector=FOO, affinity="Ignore")],
        ),
        [zn("node-a", "zone1", foo=""), zn("node-b", "zone1"), zn("node-x", "zone2", foo="")],
        on("node-b", 2) + on("node-x", 1),
        Want(
            {**zone(0, 1), **nodes_of(a=0, b=2, x=1)},
            {"zone": 2, "node": 3},
            {"zone": (("zone1", 0), ("zone2", 1)), "node": (("node-a", 0), ("node-x", 1))},
        ),
    ),
    "two node inclusion Constraints, zone: honor/honor, node: honor/ignore": StateCase(
        pod("p", F, constraints=[tsc(1, "zone", selector=FOO, taints="Honor"), NODE_FOO]),
        [
            zn("node-a", "zone1", foo=""),
            node("node-b", {"zone": "zone1", "node": "node-b"}, taints=UNSCHEDULABLE_TAINTS),
            zn("node-x", "zone2", foo=""),
        ],
        on("node-b", 2) + on("node-x", 1),
        Want(
            {**zone(0, 1), **nodes_of(a=0, b=2, x=1)},
            {"zone": 2, "node": 3},
            {"zone": (("zone1", 0), ("zone2", 1)), "node": (("node-a", 0), ("node-x", 1))},
        ),
    ),
    "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore": StateCase(
        pod("p", F, node_selector=F, constraints=[ZONE_FOO, NODE_FOO]),
        [
            zn("node-a", "zone1"),
            node(
                "node-b",
                {"zone": "zone1", "node": "node-b", "foo": ""},
                taints=UNSCHEDULABLE_TAINTS,
            ),
            zn("node-x", "zone2", foo=""),
            zn("node-y", "zone2"),
        ],
        on("node-a", 2) + on("node-x", 1) + on("node-y", 1),
        Want(
            {**zone(0, 1), **nodes_of(b=0, x=1)},
            {"zone": 2, "node": 2},
            {"zone": (("zone1", 0), ("zone2", 1)), "node": (("node-b", 0), ("node-x", 1))},
        ),
    ),
    "two node inclusion Constraints, zone: ignore/ignore, node: honor/honor": StateCase(
        pod(
            "p",
            F,
            node_selector=F,
            constraints=[
                tsc(1, "zone", selector=FOO, affinity="Ignore"),
                tsc(1, "node", selector=FOO, taints="Honor"),
            ],
        ),
        [
            zn("node-a", "zone1"),
            node(
                "node-b",
                {"zone": "zone1", "node": "node-b", "foo": ""},
                taints=UNSCHEDULABLE_TAINTS,
            ),
            zn("node-x", "zone2", foo=""),
            zn("node-y", "zone2", foo=""),
        ],
        on("node-a", 2) + on("node-x", 2) + on("node-y", 1),
        Want(
            {**zone(2, 3), **nodes_of(x=2, y=1)},
            {"zone": 2, "node": 2},
            {"zone": (("zone1", 2), ("zone2", 3)), "node": (("node-y", 1), ("node-x", 2))},
        ),
    ),
    "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty": StateCase(
        pod(
            "p",
            {"foo": "", "bar": "a"},
            constraints=[tsc(1, "zone", selector=FOO, match_label_keys=["bar"])],
        ),
        abxy(),
        [
            *on("node-a", 1),
            *on("node-a", 1, {"foo": "", "bar": "a"}, "fb"),
            *on("node-b", 1),
            *on("node-y", 1, {"foo": "", "bar": "a"}, "fb"),
            *on("node-y", 1, {"bar": ""}, "b"),
        ],
        Want(zone(1, 1), {"zone": 2}, {"zone": (("zone2", 1), ("zone1", 1))}),
    ),
    "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty": StateCase(
        pod("p", {"foo": "a"}, constraints=[tsc(1, "zone", selector={}, match_label_keys=["foo"])]),
        abxy(),
        on("node-a", 2, {"foo": "a"})
        + on("node-b", 1, {"foo": "a"})
        + on("node-y", 2, {"foo": "a"}),
        Want(zone(3, 2), {"zone": 2}, {"zone": (("zone2", 2), ("zone1", 3))}),
    ),
    "key in matchLabelKeys is ignored when LabelSelector is nil when feature gate enabled": StateCase(  # noqa: E501
        pod("p", F, constraints=[tsc(1, "zone", match_label_keys=["bar"])]),
        abxy(),
        on("node-a", 2, {"foo": "a"})
        + on("node-b", 1, {"foo": "a"})
        + on("node-y", 2, {"foo": "a"}),
        Want(zone(0, 0), {"zone": 2}, {"zone": (("zone2", 0), ("zone1", 0))}),
    ),
    "key in matchLabelKeys is ignored when it isn't exist in pod.labels": StateCase(
        pod("p", F, constraints=[tsc(1, "zone", selector=FOO, match_label_keys=["bar"])]),
        abxy(),
        on("node-a", 2, {"foo": "a"})
        + on("node-b", 1, {"foo": "a"})
        + on("node-y", 2, {"foo": "a"}),
        Want(zone(3, 2), {"zone": 2}, {"zone": (("zone2", 2), ("zone1", 3))}),
    ),
    "skip if not specified": StateCase(pod("p", F), [zn("node-a", "zone1")]),
}


@pytest.mark.parametrize("case", STATE_CASES.values(), ids=STATE_CASES.keys())
def test_pre_filter_state(case: StateCase) -> None:
    args = PodTopologySpreadArgs(case.defaults, LIST_DEFAULTING)
    plugin, _ = setup(case.nodes, case.existing, args=args, workloads=case.workloads)
    state, status = pre_filter(plugin, case.pod)
    if case.want is None:
        assert status == Status(Code.SKIP)
        assert state.get(PRE_FILTER_STATE_KEY) is None
        return
    assert status is None
    case.want.check(state.read(PRE_FILTER_STATE_KEY))


# -- AddPod / RemovePod ------------------------------------------------------------------


@dataclass
class UpdateCase:
    preemptor: Pod
    changed: Pod
    node: str
    nodes: list[Node]
    existing: list[Pod]
    want: Want


NODE_PODS = [zn("node-a", "zone1"), zn("node-b", "zone1")]
AX = [zn("node-a", "zone1"), zn("node-x", "zone2")]
ABX = [zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-x", "zone2")]
AFF_NODES = [zn("node-a", "zone1", foo="bar"), zn("node-b", "zone2", foo="")]
TAINT_NODES = [
    node("node-a", {"zone": "zone1", "node": "node-a"}, taints=UNSCHEDULABLE_TAINTS),
    zn("node-b", "zone2"),
]
P_NODE = pod("p", F, constraints=[NODE_FOO])
P_ZONE = pod("p", F, constraints=[ZONE_FOO])
P_BOTH = pod("p", F, constraints=[ZONE_FOO, NODE_FOO])
P_DIFF = pod("p", {"foo": "", "bar": ""}, constraints=[ZONE_FOO, NODE_BAR])
P_NOT_BAR = pod("p", F, affinity=("foo", "NotIn", ["bar"]), constraints=[ZONE_FOO])
FZ1, FZ2 = {"foo": "", "zone": "zone1"}, {"foo": "", "zone": "zone2"}
ZONE2_ONLY = Want({("zone", "zone2"): 1}, {"zone": 1}, {"zone": (("zone2", 1), ("", MAX_INT32))})

ADD_CASES = {
    "node a and b both impact current min match": UpdateCase(
        P_NODE,
        pod("p-a1", F, on="node-a"),
        "node-a",
        NODE_PODS,
        [],
        Want(nodes_of(a=1, b=0), {"node": 2}, {"node": (("node-b", 0), ("node-a", 1))}),
    ),
    "only node a impacts current min match": UpdateCase(
        P_NODE,
        pod("p-a1", F, on="node-a"),
        "node-a",
        NODE_PODS,
        on("node-b", 1),
        Want(nodes_of(a=1, b=1), {"node": 2}, {"node": (("node-a", 1), ("node-b", 1))}),
    ),
    "add a pod in a different namespace doesn't change topologyKeyToMinPodsMap": UpdateCase(
        P_NODE,
        pod("p-a1", F, on="node-a", namespace="ns1"),
        "node-a",
        NODE_PODS,
        on("node-b", 1),
        Want(nodes_of(a=0, b=1), {"node": 2}, {"node": (("node-a", 0), ("node-b", 1))}),
    ),
    "add pod on non-critical node won't trigger re-calculation": UpdateCase(
        P_NODE,
        pod("p-b2", F, on="node-b"),
        "node-b",
        NODE_PODS,
        on("node-b", 1),
        Want(nodes_of(a=0, b=2), {"node": 2}, {"node": (("node-a", 0), ("node-b", 2))}),
    ),
    "node a and x both impact topologyKeyToMinPodsMap on zone and node": UpdateCase(
        P_BOTH,
        pod("p-a1", F, on="node-a"),
        "node-a",
        AX,
        [],
        Want(
            {**zone(1, 0), **nodes_of(a=1, x=0)},
            {"zone": 2, "node": 2},
            {"zone": (("zone2", 0), ("zone1", 1)), "node": (("node-x", 0), ("node-a", 1))},
        ),
    ),
    "only node a impacts topologyKeyToMinPodsMap on zone and node": UpdateCase(
        P_BOTH,
        pod("p-a1", F, on="node-a"),
        "node-a",
        AX,
        on("node-x", 1),
        Want(
            {**zone(1, 1), **nodes_of(a=1, x=1)},
            {"zone": 2, "node": 2},
            {"zone": (("zone1", 1), ("zone2", 1)), "node": (("node-a", 1), ("node-x", 1))},
        ),
    ),
    "node a impacts topologyKeyToMinPodsMap on node, node x impacts topologyKeyToMinPodsMap on zone": UpdateCase(  # noqa: E501
        P_BOTH,
        pod("p-a1", F, on="node-a"),
        "node-a",
        ABX,
        on("node-b", 2) + on("node-x", 1),
        Want(
            {**zone(3, 1), **nodes_of(a=1, b=2, x=1)},
            {"zone": 2, "node": 3},
            {"zone": (("zone2", 1), ("zone1", 3)), "node": (("node-a", 1), ("node-x", 1))},
        ),
    ),
    "Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on zone": UpdateCase(  # noqa: E501
        P_DIFF,
        pod("p-a1", F, on="node-a"),
        "node-a",
        ABX,
        [
            *on("node-b", 1, {"foo": "", "bar": ""}),
            *on("node-x", 1, {"foo": "", "bar": ""}),
            *on("node-x", 1, {"bar": ""}, "b"),
        ],
        Want(
            {**zone(2, 1), **nodes_of(a=0, b=1, x=2)},
            {"zone": 2, "node": 3},
            {"zone": (("zone2", 1), ("zone1", 2)), "node": (("node-a", 0), ("node-b", 1))},
        ),
    ),
    "Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on both": UpdateCase(  # noqa: E501
        P_DIFF,
        pod("p-a1", {"foo": "", "bar": ""}, on="node-a"),
        "node-a",
        ABX,
        [
            *on("node-b", 1, {"bar": ""}),
            *on("node-x", 1, {"foo": "", "bar": ""}),
            *on("node-x", 1, {"bar": ""}, "b"),
        ],
        Want(
            {**zone(1, 1), **nodes_of(a=1, b=1, x=2)},
            {"zone": 2, "node": 3},
            {"zone": (("zone1", 1), ("zone2", 1)), "node": (("node-a", 1), ("node-b", 1))},
        ),
    ),
    "add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled": UpdateCase(  # noqa: E501
        P_NOT_BAR,
        pod("p-a1", FZ1, on="node-a"),
        "node-a",
        AFF_NODES,
        [pod("p-a2", FZ1, on="node-a"), pod("p-b1", FZ2, on="node-b")],
        ZONE2_ONLY,
    ),
    "add a pod when scheduling node affinity matched pod with NodeInclusionPolicy enabled": UpdateCase(  # noqa: E501
        P_ZONE,
        pod("p-b1", FZ2, on="node-b"),
        "node-b",
        AFF_NODES,
        [pod("p-a1", FZ1, on="node-a"), pod("p-b2", FZ2, on="node-b")],
        Want(zone(1, 2), {"zone": 2}, {"zone": (("zone1", 1), ("zone2", 2))}),
    ),
    "add a label selector not matched pod when with NodeInclusionPolicy enabled": UpdateCase(
        P_ZONE,
        pod("p-b1", {"zone": "zone2"}, on="node-b"),
        "node-b",
        AFF_NODES,
        [pod("p-a1", FZ1, on="node-a"), pod("p-b2", FZ2, on="node-b")],
        Want(zone(1, 1), {"zone": 2}, {"zone": (("zone1", 1), ("zone2", 1))}),
    ),
    "add a pod when scheduling taint untolerated pod": UpdateCase(
        P_ZONE,
        pod("p-b1", FZ2, on="node-b"),
        "node-b",
        TAINT_NODES,
        [pod("p-a1", FZ1, on="node-a"), pod("p-b2", FZ2, on="node-b")],
        Want(zone(1, 2), {"zone": 2}, {"zone": (("zone1", 1), ("zone2", 2))}),
    ),
    "add a pod when scheduling taint tolerated pod with NodeInclusionPolicy enabled": UpdateCase(
        pod("p", F, tolerate=["node.kubernetes.io/unschedulable"], constraints=[ZONE_FOO]),
        pod("p-b1", FZ2, on="node-b"),
        "node-b",
        TAINT_NODES,
        [pod("p-a1", FZ1, on="node-a"), pod("p-b2", FZ2, on="node-b")],
        Want(zone(1, 2), {"zone": 2}, {"zone": (("zone1", 1), ("zone2", 2))}),
    ),
}

ABXY_4 = [
    pod("p-a1", F, on="node-a"),
    pod("p-b1", F, on="node-b"),
    pod("p-x1", F, on="node-x"),
    pod("p-y1", F, on="node-y"),
]
A2B1X2 = [
    pod("p-a1", F, on="node-a"),
    pod("p-a2", F, on="node-a"),
    pod("p-b1", F, on="node-b"),
    pod("p-x1", F, on="node-x"),
    pod("p-x2", F, on="node-x"),
]
P_A0 = pod("p-a0", {"bar": ""}, on="node-a")

REMOVE_CASES = {
    "one spreadConstraint on zone, topologyKeyToMinPodsMap unchanged": UpdateCase(
        P_ZONE,
        ABXY_4[0],
        "node-a",
        ABX,
        [ABXY_4[0], ABXY_4[1], ABXY_4[2]],
        Want(zone(1, 1), {"zone": 2}, {"zone": (("zone1", 1), ("zone2", 1))}),
    ),
    "one spreadConstraint on node, topologyKeyToMinPodsMap changed": UpdateCase(
        P_ZONE,
        ABXY_4[0],
        "node-a",
        abxy(),
        ABXY_4,
        Want(zone(1, 2), {"zone": 2}, {"zone": (("zone1", 1), ("zone2", 2))}),
    ),
    "delete an irrelevant pod won't help": UpdateCase(
        P_ZONE,
        P_A0,
        "node-a",
        abxy(),
        [P_A0, *ABXY_4],
        Want(zone(2, 2), {"zone": 2}, {"zone": (("zone1", 2), ("zone2", 2))}),
    ),
    "delete a non-existing pod won't help": UpdateCase(
        P_ZONE,
        P_A0,
        "node-a",
        abxy(),
        ABXY_4,
        Want(zone(2, 2), {"zone": 2}, {"zone": (("zone1", 2), ("zone2", 2))}),
    ),
    "two spreadConstraints": UpdateCase(
        P_BOTH,
        A2B1X2[3],
        "node-x",
        ABX,
        A2B1X2,
        Want(
            {**zone(3, 1), **nodes_of(a=2, b=1, x=1)},
            {"zone": 2, "node": 3},
            {"zone": (("zone2", 1), ("zone1", 3)), "node": (("node-b", 1), ("node-x", 1))},
        ),
    ),
    "remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled": UpdateCase(  # noqa: E501
        P_NOT_BAR,
        pod("p-a1", FZ1, on="node-a"),
        "node-a",
        AFF_NODES,
        [pod("p-a2", FZ1, on="node-a"), pod("p-b1", FZ2, on="node-b")],
        ZONE2_ONLY,
    ),
    "remove a pod when scheduling node affinity matched pod with NodeInclusionPolicy enabled": UpdateCase(  # noqa: E501
        P_ZONE,
        pod("p-b1", FZ2, on="node-b"),
        "node-b",
        AFF_NODES,
        [pod("p-a1", FZ1, on="node-a"), pod("p-b2", FZ2, on="node-b")],
        Want(zone(1, 0), {"zone": 2}, {"zone": (("zone2", 0), ("zone1", 1))}),
    ),
}


def run_update(case: UpdateCase, add: bool) -> PreFilterState:
    plugin, handle = setup(case.nodes, case.existing)
    state, status = pre_filter(plugin, case.preemptor)
    assert status is None
    ext = plugin.pre_filter_extensions()
    update = ext.add_pod if add else ext.remove_pod
    assert update(state, case.preemptor, pod_info(case.changed), handle.node(case.node)) is None
    result: PreFilterState = state.read(PRE_FILTER_STATE_KEY)
    return result


@pytest.mark.parametrize("case", ADD_CASES.values(), ids=ADD_CASES.keys())
def test_pre_filter_state_add_pod(case: UpdateCase) -> None:
    case.want.check(run_update(case, add=True))


@pytest.mark.parametrize("case", REMOVE_CASES.values(), ids=REMOVE_CASES.keys())
def test_pre_filter_state_remove_pod(case: UpdateCase) -> None:
    case.want.check(run_update(case, add=False))


def test_clone_keeps_updates_apart() -> None:
    case = ADD_CASES["node a and b both impact current min match"]
    plugin, handle = setup(case.nodes, case.existing)
    state, _ = pre_filter(plugin, case.preemptor)
    copy = state.clone()
    assert (
        plugin.add_pod(copy, case.preemptor, pod_info(case.changed), handle.node("node-a")) is None
    )
    original: PreFilterState = state.read(PRE_FILTER_STATE_KEY)
    assert original.match_num == nodes_of(a=0, b=0)
    assert sorted_paths(original.critical_paths["node"]) == (("node-a", 0), ("node-b", 0))
    case.want.check(copy.read(PRE_FILTER_STATE_KEY))


# -- Filter ------------------------------------------------------------------------------

OK, NO, LABEL = "ok", "no", "label"
EXPECTED = {
    OK: None,
    NO: Status(Code.UNSCHEDULABLE, ERR_REASON_CONSTRAINTS_NOT_MATCH),
    LABEL: Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_NODE_LABEL_NOT_MATCH),
}


@dataclass
class FilterCase:
    pod: Pod
    nodes: list[Node]
    existing: list[Pod]
    want: str  # one of OK/NO/LABEL per node, in node order


def node_only(*names: str) -> list[Node]:
    return [node(n, {"node": n}) for n in names]


FOO_NODES = [
    node("node-a", {"node": "node-a", "foo": ""}),
    node("node-b", {"node": "node-b", "foo": ""}),
    node("node-x", {"node": "node-x", "foo": ""}),
    node("node-y", {"node": "node-y"}),
]
FOO_TAINT_NODES = [*FOO_NODES[:3], node("node-y", {"node": "node-y"}, taints=UNSCHEDULABLE_TAINTS)]
A1B1Y1 = on("node-a", 1) + on("node-b", 1) + on("node-y", 1)
A2B1Y3 = on("node-a", 2) + on("node-b", 1) + on("node-y", 3)
A2B2C1 = on("node-a", 2) + on("node-b", 2) + on("node-c", 1)
ZONE_MIN = [
    node("node-a", {"zone": "zone1"}),
    node("node-b", {"zone": "zone1"}),
    node("node-x", {"zone": "zone2"}),
    node("node-y", {"zone": "zone2"}),
]
MULTI_NODES = [
    zn("node-a", "zone1", foo=""),
    zn("node-b", "zone1"),
    zn("node-x", "zone2", foo=""),
    node("node-y", {"zone": "zone2", "node": "node-y", "foo": ""}, taints=UNSCHEDULABLE_TAINTS),
]

SINGLE_CASES = {
    "no existing pods": FilterCase(pod("p", F, constraints=[ZONE_FOO]), abxy(), [], "ok ok ok ok"),
    "no existing pods, incoming pod doesn't match itself": FilterCase(
        pod("p", F, constraints=[tsc(1, "zone", selector=BAR)]), abxy(), [], "ok ok ok ok"
    ),
    "existing pods in a different namespace do not count": FilterCase(
        pod("p", F, constraints=[ZONE_FOO]),
        abxy(),
        [
            pod("p-a1", F, on="node-a", namespace="ns1"),
            pod("p-b1", F, on="node-a", namespace="ns2"),
            pod("p-x1", F, on="node-x"),
            pod("p-y1", F, on="node-y"),
        ],
        "ok ok no no",
    ),
    "existing pods do not match null selector": FilterCase(
        pod("p", F, constraints=[tsc(1, "zone")]),
        abxy(),
        on("node-x", 1) + on("node-y", 1),
        "ok ok ok ok",
    ),
    "pods spread across zones as 3/3, all nodes fit": FilterCase(
        pod("p", F, constraints=[ZONE_FOO]), abxy(), A2B1Y3, "ok ok ok ok"
    ),
    "pods spread across zones as 1/2 due to absence of label 'zone' on node-b": FilterCase(
        pod("p", F, constraints=[ZONE_FOO]),
        [
            zn("node-a", "zone1"),
            node("node-b", {"zon": "zone1", "node": "node-b"}),
            zn("node-x", "zone2"),
            zn("node-y", "zone2"),
        ],
        on("node-a", 1) + on("node-b", 1) + on("node-x", 1) + on("node-y", 1),
        "ok label no no",
    ),
    "pod cannot be scheduled as all nodes don't have label 'rack'": FilterCase(
        pod("p", F, constraints=[tsc(1, "rack", selector=FOO)]),
        [zn("node-a", "zone1"), zn("node-x", "zone2")],
        [],
        "label label",
    ),
    "pods spread across nodes as 2/1/0/3, only node-x fits": FilterCase(
        pod("p", F, constraints=[NODE_FOO]), abxy(), A2B1Y3, "no no ok no"
    ),
    "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit": FilterCase(
        pod("p", F, constraints=[tsc(2, "node", selector=FOO)]), abxy(), A2B1Y3, "no ok ok no"
    ),
    "pods spread across nodes as 2/1/0/3, but pod doesn't match itself": FilterCase(
        pod("p", {"bar": ""}, constraints=[NODE_FOO]), abxy(), A2B1Y3, "no ok ok no"
    ),
    "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits": FilterCase(
        pod("p", F, affinity=("node", "In", ["node-a", "node-y"]), constraints=[NODE_FOO]),
        abxy(),
        A2B1Y3,
        "ok ok ok no",
    ),
    "terminating Pods should be excluded": FilterCase(
        pod("p", F, constraints=[NODE_FOO]),
        node_only("node-a", "node-b"),
        [pod("p-a", F, on="node-a", terminating=True), pod("p-b", F, on="node-b")],
        "ok no",
    ),
    "incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits": FilterCase(
        pod("p", F, affinity=("node", "NotIn", ["node-b"]), constraints=[ZONE_FOO]),
        abxy(),
        on("node-b", 2) + on("node-y", 1),
        "ok ok no no",
    ),
    "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains": FilterCase(  # noqa: E501
        pod("p", F, constraints=[tsc(2, "node", selector=FOO, min_domains=4)]),
        node_only("node-a", "node-b", "node-c"),
        A2B2C1,
        "no no ok",
    ),
    "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains": FilterCase(  # noqa: E501
        pod("p", F, constraints=[tsc(2, "node", selector=FOO, min_domains=2)]),
        node_only("node-a", "node-b", "node-c"),
        A2B2C1,
        "ok ok ok",
    ),
    "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains == minDomains": FilterCase(  # noqa: E501
        pod("p", F, constraints=[tsc(2, "node", selector=FOO, min_domains=3)]),
        node_only("node-a", "node-b", "node-c"),
        A2B2C1,
        "ok ok ok",
    ),
    "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains": FilterCase(  # noqa: E501
        pod("p", F, constraints=[tsc(2, "zone", selector=FOO, min_domains=3)]),
        abxy(),
        A1B1Y1,
        "no no ok ok",
    ),
    "pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains": FilterCase(  # noqa: E501
        pod("p", F, constraints=[tsc(2, "zone", selector=FOO, min_domains=1)]),
        abxy(),
        A1B1Y1,
        "ok ok ok ok",
    ),
    "NodeAffinityPolicy honored with labelSelectors": FilterCase(
        pod("p", F, node_selector=F, constraints=[NODE_FOO]), FOO_NODES, A1B1Y1, "no no ok ok"
    ),
    "NodeAffinityPolicy ignored with labelSelectors": FilterCase(
        pod("p", F, node_selector=F, constraints=[tsc(1, "node", selector=FOO, affinity="Ignore")]),
        FOO_NODES,
        A1B1Y1,
        "no no ok no",
    ),
    "NodeAffinityPolicy honored with nodeAffinity": FilterCase(
        pod("p", F, affinity=("foo", "In", [""]), constraints=[NODE_FOO]),
        FOO_NODES,
        A1B1Y1,
        "no no ok ok",
    ),
    "NodeAffinityPolicy ignored with nodeAffinity": FilterCase(
        pod(
            "p",
            F,
            affinity=("foo", "In", [""]),
            constraints=[tsc(1, "node", selector=FOO, affinity="Ignore")],
        ),
        FOO_NODES,
        A1B1Y1,
        "no no ok no",
    ),
    "NodeTaintsPolicy honored": FilterCase(
        pod("p", F, constraints=[tsc(1, "node", selector=FOO, taints="Honor")]),
        FOO_TAINT_NODES,
        A1B1Y1,
        "no no ok ok",
    ),
    "NodeTaintsPolicy ignored": FilterCase(
        pod("p", F, constraints=[NODE_FOO]), FOO_TAINT_NODES, A1B1Y1, "no no ok no"
    ),
    "a constraint no node is eligible for is skipped": FilterCase(
        pod("p", F, node_selector={"foo": "x"}, constraints=[ZONE_FOO]), abxy(), [], "ok ok ok ok"
    ),
}

MULTI_CASES = {
    "two Constraints on zone and node, spreads = [3/3, 2/1/0/3]": FilterCase(
        pod("p", F, constraints=[ZONE_FOO, NODE_FOO]), abxy(), A2B1Y3, "no no ok no"
    ),
    "two Constraints on zone and node, spreads = [3/4, 2/1/0/4]": FilterCase(
        pod("p", F, constraints=[ZONE_FOO, NODE_FOO]), abxy(), A2B1Y4, "no no no no"
    ),
    "Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]": FilterCase(
        pod("p", {"foo": "", "bar": ""}, constraints=[ZONE_FOO, NODE_BAR]),
        abxy(),
        on("node-a", 1) + on("node-y", 1, {"bar": ""}),
        "no no ok no",
    ),
    "Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]": FilterCase(
        pod("p", {"foo": "", "bar": ""}, constraints=[ZONE_FOO, NODE_BAR]),
        abxy(),
        on("node-a", 1) + on("node-x", 1, {"bar": ""}) + on("node-y", 1, {"bar": ""}),
        "no no no no",
    ),
    "Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]": FilterCase(
        pod("p", {"foo": "", "bar": ""}, constraints=[ZONE_FOO, NODE_BAR]),
        abxy(),
        [
            *on("node-a", 1),
            *on("node-a", 1, {"foo": "", "bar": ""}, "fb"),
            *on("node-y", 2),
            *on("node-y", 1, {"foo": "", "bar": ""}, "fb"),
        ],
        "no ok no no",
    ),
    "Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint": FilterCase(  # noqa: E501
        pod("p", {"bar": ""}, constraints=[ZONE_FOO, NODE_BAR]),
        abxy(),
        on("node-a", 1) + on("node-x", 1, {"bar": ""}) + on("node-y", 1, {"bar": ""}),
        "ok ok no no",
    ),
    "two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]": FilterCase(  # noqa: E501
        pod("p", F, constraints=[ZONE_FOO, NODE_FOO]),
        [
            zn("node-a", "zone1"),
            zn("node-b", "zone1"),
            node("node-x", {"zone": "zone2"}),
            zn("node-y", "zone2"),
        ],
        on("node-a", 1) + on("node-y", 1),
        "no ok label no",
    ),
    "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore": FilterCase(
        pod(
            "p",
            F,
            node_selector=F,
            constraints=[ZONE_FOO, tsc(1, "node", selector=FOO, affinity="Ignore")],
        ),
        [
            zn("node-a", "zone1", foo=""),
            zn("node-b", "zone1", foo=""),
            zn("node-x", "zone2", foo=""),
            zn("node-y", "zone2"),
        ],
        A1B1Y1,
        "no no ok no",
    ),
    "two node inclusion Constraints, zone: honor/honor, node: honor/ignore": FilterCase(
        pod("p", F, constraints=[tsc(1, "zone", selector=FOO, taints="Honor"), NODE_FOO]),
        [
            zn("node-a", "zone1", foo=""),
            zn("node-b", "zone1", foo=""),
            zn("node-x", "zone2", foo=""),
            node("node-y", {"zone": "zone2", "node": "node-y"}, taints=UNSCHEDULABLE_TAINTS),
        ],
        A1B1Y1,
        "no no ok no",
    ),
    "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore": FilterCase(
        pod("p", F, node_selector=F, constraints=[ZONE_FOO, NODE_FOO]),
        MULTI_NODES,
        A1B1Y1,
        "no ok ok no",
    ),
    "two node inclusion Constraints, zone: honor/honor, node: ignore/ignore": FilterCase(
        pod(
            "p",
            F,
            node_selector=F,
            constraints=[
                tsc(1, "zone", selector=FOO, taints="Honor"),
                tsc(1, "node", selector=FOO, affinity="Ignore"),
            ],
        ),
        MULTI_NODES,
        A1B1Y1,
        "no no ok no",
    ),
}


def run_filter(case: FilterCase) -> None:
    plugin, handle = setup(case.nodes, case.existing)
    state, status = pre_filter(plugin, case.pod)
    assert status is None
    got = [plugin.filter(state, case.pod, handle.node(n.name)) for n in case.nodes]
    assert got == [EXPECTED[w] for w in case.want.split()]


@pytest.mark.parametrize("case", SINGLE_CASES.values(), ids=SINGLE_CASES.keys())
def test_single_constraint(case: FilterCase) -> None:
    run_filter(case)


@pytest.mark.parametrize("case", MULTI_CASES.values(), ids=MULTI_CASES.keys())
def test_multiple_constraints(case: FilterCase) -> None:
    run_filter(case)


def test_filter_without_pre_filter_state() -> None:
    plugin, handle = setup([zn("node-a", "zone1")])
    status = plugin.filter(CycleState(), pod("p"), handle.node("node-a"))
    assert status == Status(
        Code.ERROR, error='reading "PreFilterPodTopologySpread" from cycleState: not found'
    )
    assert status is not None
    assert status.message() == 'reading "PreFilterPodTopologySpread" from cycleState: not found'


def test_empty_selector_counts_nothing_but_matches_itself() -> None:
    """An empty labelSelector counts no existing pod, yet the incoming pod matches it."""
    constraint = tsc(1, "node", selector={})
    plugin, handle = setup(node_only("node-a", "node-b"), on("node-a", 3))
    p = pod("p", F, constraints=[constraint])
    state, _ = pre_filter(plugin, p)
    s: PreFilterState = state.read(PRE_FILTER_STATE_KEY)
    assert s.match_num == nodes_of(a=0, b=0)
    assert [plugin.filter(state, p, handle.node(n)) for n in ("node-a", "node-b")] == [None, None]
    # AddPod counts by Matches, which an empty selector passes.
    assert (
        plugin.add_pod(state, p, pod_info(pod("q", {}, on="node-a")), handle.node("node-a")) is None
    )
    assert s.match_num == nodes_of(a=1, b=0)
    assert plugin.filter(state, p, handle.node("node-a")) == EXPECTED[NO]


def test_nominated_pods_on_one_node_keep_the_minimum() -> None:
    """Repeated AddPod on one node, as RunFilterPluginsWithNominatedPods does."""
    plugin, handle = setup(
        node_only("node-a", "node-b", "node-c"), on("node-b", 1) + on("node-c", 1)
    )
    p = pod("p", F, constraints=[NODE_FOO])
    state, _ = pre_filter(plugin, p)
    copy = state.clone()
    for i in range(2):
        nominated = pod(f"n{i}", F, on="node-a")
        assert plugin.add_pod(copy, p, pod_info(nominated), handle.node("node-a")) is None
    s: PreFilterState = copy.read(PRE_FILTER_STATE_KEY)
    assert s.match_num == nodes_of(a=2, b=1, c=1)
    assert s.min_match_num("node", 1) == 1
    assert [plugin.filter(copy, p, handle.node(n)) for n in ("node-a", "node-b", "node-c")] == [
        EXPECTED[NO],
        None,
        None,
    ]
