"""Cluster states, node rows before/after (nodes added or removed), owners, diff categories."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod
from ksched_cli.diff.model import PodChange, PodState
from ksched_cli.engine.records import Decision, Plan
from ksched_cli.render.html.diff_data import category, per_node, per_workload
from ksched_cli.render.html.model import capture
from ksched_cli.render.html.plan_data import node_rows, plan_page, zone_summary
from ksched_cli.render.html.report import owners_of
from tests.fakes import make_node, make_pod

ZONE = "topology.kubernetes.io/zone"
GI = 1 << 30


def _cluster() -> tuple[list[Node], list[Pod]]:
    nodes = [
        make_node("a", labels={ZONE: "z1"}),
        make_node("b", cpu="8", labels={"failure-domain.beta.kubernetes.io/zone": "z2"}),
        make_node("c", unschedulable=True),
    ]
    pods = [
        make_pod("p1", cpu="500m", memory="1Gi", node="a"),
        make_pod("p2", cpu="1", node="a"),
        make_pod("p3", cpu="250m", memory="256Mi", node="b"),
        make_pod("pending", cpu="1"),
    ]
    return nodes, pods


def test_capture_sums_requests_of_bound_pods() -> None:
    nodes, pods = _cluster()
    state = capture(nodes, pods)
    assert [(n.name, n.zone, n.requested, n.pods, n.unschedulable) for n in state.nodes] == [
        ("a", "z1", (1500, GI, 2), frozenset({"default/p1", "default/p2"}), False),
        ("b", "z2", (250, 256 << 20, 1), frozenset({"default/p3"}), False),
        ("c", "", (0, 0, 0), frozenset(), True),
    ]
    assert state.by_name["b"].allocatable == (8000, 8 * GI, 110)


def test_node_rows_mark_received_evicted_added_and_removed_nodes() -> None:
    nodes, pods = _cluster()
    before = capture(nodes, pods)
    pods[3].node_name = "b"  # scheduled
    victim = pods.pop(0)  # preempted from a
    assert victim.key == "default/p1"
    after = capture([nodes[0], nodes[1], make_node("d", labels={ZONE: "z1"})], pods)
    rows = {r["name"]: r for r in node_rows(before, after)}
    assert rows["a"] == {"name": "a", "zone": "z1", "alloc": [4000, 8 * GI, 110],
                         "before": [1500, GI, 2], "after": [1000, 0, 1],
                         "received": 0, "evicted": 1, "unusable": ""}
    assert (rows["b"]["received"], rows["b"]["after"]) == (1, [1250, 256 << 20, 2])
    assert (rows["c"]["before"], rows["c"]["after"], rows["c"]["cordoned"]) == (
        [0, 0, 0], None, True)
    assert (rows["d"]["before"], rows["d"]["after"]) == (None, [0, 0, 0])
    zones = zone_summary(before, after)
    # The cordoned node c is left out of its zone's totals, and counted as such.
    assert [(z["zone"], z["nodes"], z["before"], z["after"], z["leftOut"]) for z in zones] == [
        ("z1", 2, [1500, GI, 2], [1000, 0, 1], 0),
        ("z2", 1, [250, 256 << 20, 1], [1250, 256 << 20, 2], 0),
        ("", 0, [0, 0, 0], [0, 0, 0], 1),
    ]


CONTROL_PLANE = {"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}


@pytest.mark.parametrize(
    ("taints", "tolerations", "unschedulable", "expected"),
    [
        ((), (), False, ""),
        ((), (), True, "cordoned"),
        ((CONTROL_PLANE,), (), False,
         "taint node-role.kubernetes.io/control-plane:NoSchedule no pending pod tolerates"),
        ((CONTROL_PLANE,), ({"key": "node-role.kubernetes.io/control-plane",
                             "operator": "Exists"},), False, ""),
        (({"key": "a", "value": "b", "effect": "NoExecute"},), (), False,
         "taint a=b:NoExecute no pending pod tolerates"),
        (({"key": "a", "value": "b", "effect": "PreferNoSchedule"},), (), False, ""),
    ],
)
def test_nodes_pending_pods_cannot_use(
    taints: tuple[dict[str, str], ...], tolerations: tuple[dict[str, str], ...],
    unschedulable: bool, expected: str,
) -> None:
    node = make_node("n", taints=taints, unschedulable=unschedulable)
    pending = make_pod("p", cpu="1", spec={"tolerations": list(tolerations)})
    assert capture([node], [pending]).nodes[0].unusable == expected


def test_owners_reach_the_pod_rows() -> None:
    nodes, pods = _cluster()
    pods[0] = replace(pods[0], workload="deployment/web")
    pods[0].finalize()
    owners = owners_of(pods)
    assert owners == {"default/p1": "deployment/web"}
    state = capture(nodes, pods)
    plan = Plan(decisions=[Decision("default/p1", "Scheduled", node="a"),
                           Decision("default/pending", "Unschedulable", message="no")])
    rows = plan_page(plan, state, state, owners)["pods"]
    assert [r.get("owner") for r in rows] == ["deployment/web", None]


def _state(outcome: str, node: str = "") -> PodState:
    return PodState(outcome, node)


@pytest.mark.parametrize(
    ("base", "head", "expected"),
    [
        (_state("Scheduled", "a"), _state("Scheduled", "b"), "moved"),
        (_state("Running", "a"), _state("Preempted", "a"), "lost"),
        (_state("Unschedulable"), _state("Scheduled", "b"), "new"),
        (None, _state("Scheduled", "b"), "new"),
        (_state("Scheduled", "a"), None, "lost"),
        (_state("Scheduled", "a"), _state("Scheduled", "a"), "changed"),
        (_state("Gated"), _state("Unschedulable"), "changed"),
    ],
)
def test_diff_categories(base: PodState | None, head: PodState | None, expected: str) -> None:
    assert category(PodChange("ns/p", ("outcome",), base, head)) == expected


def test_diff_counts_per_workload_and_node() -> None:
    rows = [
        {"pod": "ns/w1", "owner": "deployment/web", "category": "moved",
         "base": {"outcome": "Scheduled", "node": "a"},
         "head": {"outcome": "Scheduled", "node": "b"}},
        {"pod": "ns/w2", "owner": "deployment/web", "category": "lost",
         "base": {"outcome": "Scheduled", "node": "a"}, "head": {"outcome": "Unschedulable"}},
        {"pod": "ns/bare", "category": "new",
         "base": None, "head": {"outcome": "Scheduled", "node": "b"}},
    ]
    assert per_workload(rows) == [
        {"owner": "deployment/web", "moved": 1, "new": 0, "lost": 1, "changed": 0},
        {"owner": "", "moved": 0, "new": 1, "lost": 0, "changed": 0},
    ]
    assert per_node(rows) == [
        {"node": "a", "gained": [], "lost": ["ns/w1", "ns/w2"]},
        {"node": "b", "gained": ["ns/w1", "ns/bare"], "lost": []},
    ]
