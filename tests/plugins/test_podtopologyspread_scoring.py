"""PodTopologySpread PreScore, Score and NormalizeScore (ported from scoring_test.go)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pytest

from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod, TopologySpreadConstraint
from ksched_cli.api.workloads import Workload
from ksched_cli.config.args import LIST_DEFAULTING, SYSTEM_DEFAULTING, PodTopologySpreadArgs
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.nodeinfo import NodeInfo
from ksched_cli.framework.status import Code, Status
from ksched_cli.framework.types import NodeScore
from ksched_cli.plugins.podtopologyspread.plugin import PodTopologySpread
from ksched_cli.plugins.podtopologyspread.scoring import PRE_SCORE_STATE_KEY, PreScoreState

from .test_podtopologyspread_common import (
    BAR,
    FOO,
    HOSTNAME,
    UNSCHEDULABLE_TAINTS,
    ZONE,
    default_tsc,
    node,
    pod,
    service,
    setup,
    soft,
    tsc,
    workload,
)

F = {"foo": ""}
LIST = PodTopologySpreadArgs(defaulting_type=LIST_DEFAULTING)
SYSTEM = PodTopologySpreadArgs(defaulting_type=SYSTEM_DEFAULTING)


def hn(name: str, **labels: str) -> Node:
    """A node labelled with its hostname plus ``labels``."""
    return node(name, {HOSTNAME: name, **labels})


def on(
    node_name: str, count: int, labels: dict[str, str] | None = None, tag: str = ""
) -> list[Pod]:
    return [
        pod(f"p{tag}-{node_name}-{i}", F if labels is None else labels, on=node_name)
        for i in range(count)
    ]


def w(size: int) -> float:
    return math.log(size + 2)


# -- PreScore Skip -------------------------------------------------------------------------


def test_pre_score_skips_without_soft_constraints() -> None:
    plugin, handle = setup([hn("node-a"), hn("node-b")], args=LIST)
    status = plugin.pre_score(CycleState(), pod("p"), handle.snapshot.list())
    assert status == Status(Code.SKIP)


def test_pre_score_skips_default_constraints_without_a_matching_replicaset() -> None:
    args = PodTopologySpreadArgs([default_tsc(2, "planet", "ScheduleAnyway")], LIST_DEFAULTING)
    plugin, handle = setup(
        [node("node-a", {"planet": "mars"})],
        args=args,
        workloads=[
            workload(
                "ReplicaSet", "rs1", {"matchExpressions": [{"key": "tar", "operator": "Exists"}]}
            )
        ],
    )
    p = pod("p", {"foo": "bar", "baz": "sup"}, owner=("ReplicaSet", "rs2"))
    assert plugin.pre_score(CycleState(), p, handle.snapshot.list()) == Status(Code.SKIP)


def test_pre_score_skips_an_empty_cluster() -> None:
    plugin, _ = setup([], args=LIST)
    p = pod("p", F, constraints=[soft(1, "zone", FOO)])
    assert plugin.pre_score(CycleState(), p, []) == Status(Code.SKIP)


# -- PreScore state ------------------------------------------------------------------------


@dataclass
class PreScoreCase:
    pod: Pod
    nodes: list[Node]
    keys: list[str]
    ignored: set[str]
    pairs: dict[tuple[str, str], int]
    weights: list[float]
    args: PodTopologySpreadArgs = field(default_factory=lambda: LIST)
    workloads: list[Workload] = field(default_factory=list)


ABX_ZONE = [hn("node-a", zone="zone1"), hn("node-b", zone="zone1"), hn("node-x", zone="zone2")]
ABX_FOO = [
    hn("node-a", zone="zone1", foo=""),
    hn("node-b", zone="zone1", foo=""),
    hn("node-x", zone="zone2"),
]
ZONES_12 = {("zone", "zone1"): 0, ("zone", "zone2"): 0}
RS1_FOO = workload("ReplicaSet", "rs1", FOO)
OWNED = pod("p", {"foo": "tar", "baz": "sup"}, owner=("ReplicaSet", "rs1"))

PRE_SCORE_CASES = {
    "normal case": PreScoreCase(
        pod("p", F, constraints=[soft(1, "zone", FOO), soft(1, HOSTNAME, FOO)]),
        ABX_ZONE,
        ["zone", HOSTNAME],
        set(),
        ZONES_12,
        [w(2), w(3)],
    ),
    "null selector": PreScoreCase(
        pod("p", F, constraints=[soft(1, "zone", None)]),
        ABX_ZONE,
        ["zone"],
        set(),
        ZONES_12,
        [w(2)],
    ),
    "node-x doesn't have label zone": PreScoreCase(
        pod("p", F, constraints=[soft(1, "zone", FOO), soft(1, HOSTNAME, BAR)]),
        [hn("node-a", zone="zone1"), hn("node-b", zone="zone1"), hn("node-x")],
        ["zone", HOSTNAME],
        {"node-x"},
        {("zone", "zone1"): 0},
        [w(1), w(2)],
    ),
    "system default constraints and a replicaset": PreScoreCase(
        OWNED,
        [
            hn("node-a", **{ZONE: "mars"}),
            hn("node-b", **{ZONE: "mars"}),
            hn("node-c"),
            hn("node-d"),
        ],
        [HOSTNAME, ZONE],
        set(),
        {(ZONE, "mars"): 0, (ZONE, ""): 0},
        [w(4), w(2)],
        args=SYSTEM,
        workloads=[RS1_FOO],
    ),
    "default constraints and a replicaset": PreScoreCase(
        OWNED,
        [hn("node-a", rack="rack1", planet="mars")],
        [HOSTNAME, "planet"],
        set(),
        {("planet", "mars"): 0},
        [w(1), w(1)],
        args=PodTopologySpreadArgs(
            [
                default_tsc(1, HOSTNAME, "ScheduleAnyway"),
                default_tsc(2, "rack", "DoNotSchedule"),
                default_tsc(2, "planet", "ScheduleAnyway"),
            ],
            LIST_DEFAULTING,
        ),
        workloads=[RS1_FOO],
    ),
    "default constraints and a replicaset, but pod has constraints": PreScoreCase(
        pod(
            "p",
            {"foo": "bar", "baz": "sup"},
            owner=("ReplicaSet", "rs1"),
            constraints=[
                tsc(1, "zone", selector=BAR),
                soft(2, "planet", {"matchLabels": {"baz": "sup"}}),
            ],
        ),
        [node("node-a", {"planet": "mars", "galaxy": "andromeda"})],
        ["planet"],
        set(),
        {("planet", "mars"): 0},
        [w(1)],
        args=PodTopologySpreadArgs([default_tsc(2, "galaxy", "ScheduleAnyway")], LIST_DEFAULTING),
        workloads=[RS1_FOO],
    ),
    "NodeAffinityPolicy honored with labelSelectors": PreScoreCase(
        pod("p", F, node_selector=F, constraints=[soft(1, "zone", BAR)]),
        ABX_FOO,
        ["zone"],
        set(),
        ZONES_12,
        [w(2)],
    ),
    "NodeAffinityPolicy ignored with labelSelectors": PreScoreCase(
        pod("p", F, node_selector=F, constraints=[soft(1, "zone", BAR, affinity="Ignore")]),
        ABX_FOO,
        ["zone"],
        set(),
        ZONES_12,
        [w(2)],
    ),
    "NodeAffinityPolicy honored with nodeAffinity": PreScoreCase(
        pod("p", F, affinity=("foo", "In", [""]), constraints=[soft(1, "zone", BAR)]),
        ABX_FOO,
        ["zone"],
        set(),
        ZONES_12,
        [w(2)],
    ),
    "NodeTaintsPolicy honored": PreScoreCase(
        pod("p", F, constraints=[soft(1, "zone", BAR, taints="Honor")]),
        [
            hn("node-a", zone="zone1", foo=""),
            hn("node-b", zone="zone1", foo=""),
            node("node-x", {"zone": "zone2", HOSTNAME: "node-x"}, taints=UNSCHEDULABLE_TAINTS),
        ],
        ["zone"],
        set(),
        ZONES_12,
        [w(2)],
    ),
}


@pytest.mark.parametrize("case", PRE_SCORE_CASES.values(), ids=PRE_SCORE_CASES.keys())
def test_pre_score_state(case: PreScoreCase) -> None:
    plugin, handle = setup(case.nodes, args=case.args, workloads=case.workloads)
    state = CycleState()
    assert plugin.pre_score(state, case.pod, handle.snapshot.list()) is None
    s: PreScoreState = state.read(PRE_SCORE_STATE_KEY)
    assert [c.topology_key for c in s.constraints] == case.keys
    assert s.ignored_nodes == case.ignored
    assert s.pair_counts == case.pairs
    assert s.weights == case.weights
    assert state.clone().read(PRE_SCORE_STATE_KEY) is s


def test_default_constraints_take_the_default_selector() -> None:
    case = PRE_SCORE_CASES["system default constraints and a replicaset"]
    plugin, handle = setup(case.nodes, args=case.args, workloads=case.workloads)
    state = CycleState()
    assert plugin.pre_score(state, case.pod, handle.snapshot.list()) is None
    s: PreScoreState = state.read(PRE_SCORE_STATE_KEY)
    assert [(c.max_skew, c.selector) for c in s.constraints] == [
        (3, RS1_FOO.selector),
        (5, RS1_FOO.selector),
    ]


# -- Score and NormalizeScore -----------------------------------------------------------------


@dataclass
class ScoreCase:
    pod: Pod
    nodes: list[Node]
    existing: list[Pod]
    want: list[int]
    failed: list[Node] = field(default_factory=list)
    workloads: list[Workload] = field(default_factory=list)


def hosts(*names: str) -> list[Node]:
    return [hn(n) for n in names]


def keyed(*names: str) -> list[Node]:
    return [node(n, {"node": n, **({"foo": ""} if n != "node-c" else {})}) for n in names]


ON_HOST = pod("p", F, constraints=[soft(1, HOSTNAME, FOO)])
A2B1D3 = on("node-a", 2) + on("node-b", 1) + on("node-d", 3)
A4B3C2D1 = on("node-a", 4) + on("node-b", 3) + on("node-c", 2) + on("node-d", 1)
A4B2X1Y3 = on("node-a", 4) + on("node-b", 2) + on("node-x", 1) + on("node-y", 3)
ZONED = {
    n: hn(n, zone=z)
    for n, z in [("node-a", "zone1"), ("node-b", "zone1"), ("node-x", "zone2"), ("node-y", "zone2")]
}
ZONE_HOST = pod("p", F, constraints=[soft(1, "zone", FOO), soft(1, HOSTNAME, FOO)])
DIFF = pod("p", {"foo": "", "bar": ""}, constraints=[soft(1, "zone", FOO), soft(1, HOSTNAME, BAR)])
DIFF_PODS = [
    *on("node-a", 1),
    *on("node-b", 1, {"foo": "", "bar": ""}),
    *on("node-y", 1),
    *on("node-y", 1, {"bar": ""}, "b"),
]
POLICY_PODS = on("node-a", 2) + on("node-b", 1) + on("node-c", 1)
ABC_KEYED = [node(n, {"node": n, "foo": ""}) for n in ("node-a", "node-b")] + [
    node("node-c", {"node": "node-c"})
]
ABC_TAINTED = [
    node("node-a", {"node": "node-a"}),
    node("node-b", {"node": "node-b"}),
    node("node-c", {"node": "node-c"}, taints=UNSCHEDULABLE_TAINTS),
]
ABCD = [ZONED["node-a"], ZONED["node-b"], hn("node-c", zone="zone2"), hn("node-d", zone="zone2")]

SCORE_CASES = {
    "one constraint on node, no existing pods": ScoreCase(
        ON_HOST, hosts("node-a", "node-b"), [], [100, 100]
    ),
    "one constraint on node, only one node is candidate": ScoreCase(
        ON_HOST, hosts("node-a"), on("node-a", 2) + on("node-b", 1), [100], failed=hosts("node-b")
    ),
    "one constraint on node, all nodes have the same number of matching pods": ScoreCase(
        ON_HOST, hosts("node-a", "node-b"), on("node-a", 1) + on("node-b", 1), [100, 100]
    ),
    "one constraint on node, all 4 nodes are candidates": ScoreCase(
        ON_HOST, hosts("node-a", "node-b", "node-c", "node-d"), A2B1D3, [20, 60, 100, 0]
    ),
    "one constraint on node, null selector": ScoreCase(
        pod("p", F, constraints=[soft(1, HOSTNAME, None)]),
        hosts("node-a", "node-b", "node-c", "node-d"),
        A2B1D3,
        [100, 100, 100, 100],
    ),
    "one constraint on node, all 4 nodes are candidates, maxSkew=2": ScoreCase(
        pod("p", F, constraints=[soft(2, HOSTNAME, FOO)]),
        hosts("node-a", "node-b", "node-c", "node-d"),
        A2B1D3,
        [33, 66, 100, 16],
    ),
    "one constraint on node, all 4 nodes are candidates, maxSkew=3": ScoreCase(
        pod("p", F, constraints=[soft(3, HOSTNAME, FOO)]),
        hosts("node-a", "node-b", "node-c", "node-d"),
        A4B3C2D1,
        [44, 66, 77, 100],
    ),
    "system defaulting, nodes don't have zone, pods match service": ScoreCase(
        pod("p", F),
        hosts("node-a", "node-b", "node-c", "node-d"),
        A4B3C2D1,
        [44, 66, 77, 100],
        workloads=[service({"foo": ""})],
    ),
    "one constraint on node, 3 out of 4 nodes are candidates": ScoreCase(
        ON_HOST,
        hosts("node-a", "node-b", "node-x"),
        A4B2X1Y3,
        [33, 83, 100],
        failed=hosts("node-y"),
    ),
    "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key": ScoreCase(  # noqa: E501
        ON_HOST,
        [hn("node-a"), node("node-b", {"n": "node-b"}), hn("node-x")],
        A4B2X1Y3,
        [16, 0, 100],
        failed=hosts("node-y"),
    ),
    "one constraint on zone, 3 out of 4 nodes are candidates": ScoreCase(
        pod("p", F, constraints=[soft(1, "zone", FOO)]),
        [ZONED["node-a"], ZONED["node-b"], ZONED["node-x"]],
        A4B2X1Y3,
        [75, 75, 100],
        failed=[ZONED["node-y"]],
    ),
    "two Constraints on zone and node, 2 out of 4 nodes are candidates": ScoreCase(
        ZONE_HOST,
        [ZONED["node-a"], ZONED["node-x"]],
        on("node-a", 2) + on("node-b", 1) + on("node-x", 2) + on("node-y", 4),
        [100, 63],
        failed=[ZONED["node-b"], ZONED["node-y"]],
    ),
    "two Constraints on zone and node, with different labelSelectors": ScoreCase(
        DIFF, list(ZONED.values()), DIFF_PODS, [60, 20, 100, 60]
    ),
    "two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods": ScoreCase(  # noqa: E501
        DIFF,
        list(ZONED.values()),
        [*on("node-b", 1, {"bar": ""}), *on("node-x", 1), *on("node-y", 1, {"foo": "", "bar": ""})],
        [100, 60, 40, 0],
    ),
    "two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates": ScoreCase(  # noqa: E501
        DIFF,
        [ZONED["node-a"], ZONED["node-b"], ZONED["node-x"]],
        DIFF_PODS,
        [50, 25, 100],
        failed=[ZONED["node-y"]],
    ),
    "existing pods in a different namespace do not count": ScoreCase(
        ON_HOST,
        hosts("node-a", "node-b"),
        [pod("p-a1", F, on="node-a", namespace="ns1"), *on("node-a", 1), *on("node-b", 2)],
        [100, 33],
    ),
    "terminating Pods should be excluded": ScoreCase(
        ON_HOST,
        hosts("node-a", "node-b"),
        [pod("p-a", F, on="node-a", terminating=True), pod("p-b", F, on="node-b")],
        [100, 0],
    ),
    "minDomains has no effect when ScheduleAnyway": ScoreCase(
        pod("p", F, constraints=[soft(2, "node", FOO, min_domains=10)]),
        [node(n, {"node": n}) for n in ("node-a", "node-b", "node-c")],
        on("node-a", 2) + on("node-b", 2) + on("node-c", 1),
        [75, 75, 100],
    ),
    "NodeAffinityPolicy honoed with labelSelectors": ScoreCase(
        pod("p", F, node_selector=F, constraints=[soft(1, "node", FOO)]),
        ABC_KEYED,
        POLICY_PODS,
        [0, 33, 100],
    ),
    "NodeAffinityPolicy ignored with labelSelectors": ScoreCase(
        pod("p", F, node_selector=F, constraints=[soft(1, "node", FOO, affinity="Ignore")]),
        ABC_KEYED,
        POLICY_PODS,
        [66, 100, 100],
    ),
    "NodeAffinityPolicy honoed with nodeAffinity": ScoreCase(
        pod("p", F, affinity=("foo", "In", [""]), constraints=[soft(1, "node", FOO)]),
        ABC_KEYED,
        POLICY_PODS,
        [0, 33, 100],
    ),
    "NodeAffinityPolicy ignored with nodeAffinity": ScoreCase(
        pod(
            "p",
            F,
            affinity=("foo", "In", [""]),
            constraints=[soft(1, "node", FOO, affinity="Ignore")],
        ),
        ABC_KEYED,
        POLICY_PODS,
        [66, 100, 100],
    ),
    "NodeTaintsPolicy honored": ScoreCase(
        pod("p", F, constraints=[soft(1, "node", FOO, taints="Honor")]),
        ABC_TAINTED,
        POLICY_PODS,
        [0, 33, 100],
    ),
    "NodeTaintsPolicy ignored": ScoreCase(
        pod("p", F, constraints=[soft(1, "node", FOO)]), ABC_TAINTED, POLICY_PODS, [66, 100, 100]
    ),
    "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty": ScoreCase(
        pod(
            "p",
            {"foo": "", "bar": ""},
            constraints=[
                soft(1, "zone", {}, match_label_keys=["foo"]),
                soft(1, HOSTNAME, {}, match_label_keys=["bar"]),
            ],
        ),
        ABCD,
        [
            *on("node-a", 1),
            *on("node-b", 1, {"foo": "", "bar": ""}),
            *on("node-c", 1),
            *on("node-c", 1, {"bar": ""}, "b"),
        ],
        [60, 20, 60, 100],
    ),
    "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty": ScoreCase(
        pod(
            "p",
            {"foo": "", "bar": "", "baz": ""},
            constraints=[soft(1, "zone", FOO), soft(1, HOSTNAME, BAR, match_label_keys=["baz"])],
        ),
        ABCD,
        [
            *on("node-a", 1),
            *on("node-b", 1, {"foo": "", "bar": "", "baz": ""}),
            *on("node-c", 1),
            *on("node-c", 1, {"bar": ""}, "b"),
            *on("node-c", 1, {"bar": "", "baz": ""}, "bz"),
        ],
        [60, 20, 60, 100],
    ),
}


def run_scores(
    case: ScoreCase, args: PodTopologySpreadArgs = SYSTEM, arrays: bool = False
) -> list[int]:
    plugin, handle = setup(
        [*case.nodes, *case.failed], case.existing, args=args, workloads=case.workloads
    )
    handle.vectorize = arrays
    state = CycleState()
    candidates = [handle.node(n.name) for n in case.nodes]
    assert plugin.pre_score(state, case.pod, candidates) is None
    if arrays:
        return scores_on_arrays(plugin, state, case.pod, candidates)
    scores = []
    for info in candidates:
        score, status = plugin.score(state, case.pod, info)
        assert status is None
        scores.append(NodeScore(info.name, score))
    ext = plugin.score_extensions()
    assert ext is not None
    assert ext.normalize_score(state, case.pod, scores) is None
    return [s.score for s in scores]


def scores_on_arrays(
    plugin: PodTopologySpread, state: CycleState, p: Pod, candidates: list[NodeInfo]
) -> list[int]:
    """score_array and normalize_array over the live columns, as the engine calls them."""
    s = state.get(PRE_SCORE_STATE_KEY)
    assert isinstance(s, PreScoreState)
    keys = [c.topology_key for c in s.constraints]
    # PreScore took the array path unless two constraints share a key.
    assert (s.positions is not None) == (len(set(keys)) == len(keys))
    columns = candidates[0].columns
    assert columns is not None
    index = np.array([ni.column_index for ni in candidates], dtype=np.int64)
    raw = plugin.score_array(state, p, columns, index)
    if s.positions is None:
        assert raw is None
        raw = np.array([plugin.score(state, p, ni)[0] for ni in candidates], dtype=np.int64)
    out = plugin.normalize_array(state, p, raw)
    if out is None:
        scores = [NodeScore(ni.name, int(v)) for ni, v in zip(candidates, raw, strict=True)]
        assert plugin.normalize_score(state, p, scores) is None
        return [ns.score for ns in scores]
    result: list[int] = out.tolist()
    return result


@pytest.mark.parametrize("arrays", [False, True], ids=["per-node", "arrays"])
@pytest.mark.parametrize("case", SCORE_CASES.values(), ids=SCORE_CASES.keys())
def test_pod_topology_spread_score(case: ScoreCase, arrays: bool) -> None:
    assert run_scores(case, arrays=arrays) == case.want


def test_raw_scores_before_normalizing() -> None:
    """Score is the rounded sum of count * log(size + 2) + maxSkew - 1 over the constraints."""
    case = SCORE_CASES["one constraint on node, all 4 nodes are candidates, maxSkew=2"]
    plugin, handle = setup(case.nodes, case.existing, args=SYSTEM)
    state = CycleState()
    assert plugin.pre_score(state, case.pod, handle.snapshot.list()) is None
    raw = [plugin.score(state, case.pod, handle.node(n.name))[0] for n in case.nodes]
    assert raw == [round(c * math.log(6) + 1) for c in (2, 1, 0, 3)] == [5, 3, 1, 6]


def test_ignored_nodes_normalize_to_zero() -> None:
    state = PreScoreState([], [], {"b"}, {}, [])
    scores = [NodeScore("a", 7), NodeScore("b", 0), NodeScore("c", 3)]
    plugin, _ = setup([])
    cycle = CycleState()
    cycle.write(PRE_SCORE_STATE_KEY, state)
    assert plugin.normalize_score(cycle, pod("p"), scores) is None
    # 100 * (7 + 3 - s) / 7, truncated
    assert [s.score for s in scores] == [42, 0, 100]


def test_score_without_pre_score_state() -> None:
    plugin, handle = setup([hn("node-a")])
    score, status = plugin.score(CycleState(), pod("p"), handle.node("node-a"))
    assert score == 0
    assert status == Status(
        Code.ERROR, error='error reading "PreScorePodTopologySpread" from cycleState: not found'
    )


def test_list_defaulting_requires_every_key() -> None:
    """Outside System defaulting a node without the zone label is ignored, not spread by host."""
    args = PodTopologySpreadArgs(
        [
            TopologySpreadConstraint(1, HOSTNAME, "ScheduleAnyway", None),
            TopologySpreadConstraint(1, ZONE, "ScheduleAnyway", None),
        ],
        LIST_DEFAULTING,
    )
    case = ScoreCase(
        pod("p", F),
        [hn("node-a", **{ZONE: "z1"}), hn("node-b")],
        on("node-a", 1),
        [],
        workloads=[service({"foo": ""})],
    )
    for arrays in (False, True):
        assert run_scores(case, args, arrays) == [100, 0]
        assert run_scores(case, SYSTEM, arrays) == [22, 100]
