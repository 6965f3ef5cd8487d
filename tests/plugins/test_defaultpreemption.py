"""DefaultPreemption: eligibility, candidate count, victim selection, node choice, PDBs."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ksched_cli.api.meta import OwnerReference
from ksched_cli.api.policy import parse_pdb
from ksched_cli.config.args import DefaultPreemptionArgs
from ksched_cli.config.load import default_config
from ksched_cli.engine.cluster import Cluster
from ksched_cli.engine.engine import Engine
from ksched_cli.engine.pdb_status import compute_status
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.podinfo import pod_info
from ksched_cli.framework.preemption import Candidate, pick_one_node_for_preemption
from ksched_cli.framework.status import Code, Status
from ksched_cli.plugins.defaultpreemption import Plugin
from ksched_cli.plugins.preemption_victims import filter_pods_with_pdb_violation, reprieve
from ksched_cli.versions.releases import release
from tests.fakes import FakeHandle, make_node, make_pod


def _pdb(name: str, app: str, allowed: int | None, **spec: Any) -> Any:
    raw: dict[str, Any] = {
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"selector": {"matchLabels": {"app": app}}, **spec},
    }
    if allowed is not None:
        raw["status"] = {"disruptionsAllowed": allowed}
    return parse_pdb(raw)


@pytest.mark.parametrize(
    ("nodes", "percentage", "absolute", "expected"),
    [
        (1000, 10, 100, 100),
        (5000, 10, 100, 500),
        (50, 10, 100, 50),
        (300, 50, 10, 150),
        (7, 0, 3, 3),
    ],
)
def test_offset_and_num_candidates(
    nodes: int, percentage: int, absolute: int, expected: int
) -> None:
    plugin = Plugin(DefaultPreemptionArgs(percentage, absolute), FakeHandle([]))
    assert plugin.offset_and_num_candidates(nodes) == (0, expected)


def test_preemption_policy_never_is_not_eligible() -> None:
    pod = make_pod("p", priority=10)
    pod.preemption_policy = "Never"
    ok, msg = Plugin(None, FakeHandle([])).pod_eligible_to_preempt_others(pod, None)
    assert (ok, msg) == (False, "not eligible due to preemptionPolicy=Never.")


def test_terminating_victim_on_nominated_node_blocks_eligibility() -> None:
    victim = make_pod("v", cpu="1", node="n1", priority=1)
    victim.terminating_by_preemption = True
    pod = make_pod("p", priority=10)
    pod.nominated_node_name = "n1"
    plugin = Plugin(None, FakeHandle([make_node("n1")], [victim]))
    assert plugin.pod_eligible_to_preempt_others(pod, Status(Code.UNSCHEDULABLE)) == (
        False,
        "not eligible due to a terminating pod on the nominated node.",
    )
    # An unresolvable nominated node does not hold the pod back.
    unresolvable = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE)
    assert plugin.pod_eligible_to_preempt_others(pod, unresolvable) == (True, "")


def test_pdb_violations_are_counted_in_order() -> None:
    pods = [make_pod(f"b{i}", labels={"app": "batch"}, node="n") for i in range(3)]
    violating, ok = filter_pods_with_pdb_violation(
        [pod_info(p) for p in pods], [_pdb("pdb", "batch", 1)]
    )
    assert [pi.pod.name for pi in ok] == ["b0"]
    assert [pi.pod.name for pi in violating] == ["b1", "b2"]


def _plan(nodes: list[Any], pods: list[Any], pdbs: list[Any] = ()) -> Any:  # type: ignore[assignment]
    for i, p in enumerate(pods):
        p.load_index = i
    cluster = Cluster(nodes=nodes, pods=pods, pdbs=list(pdbs))
    return Engine(default_config(), cluster).run()


def test_victims_are_the_fewest_lower_priority_pods_reprieved_high_first() -> None:
    node = make_node("n1", cpu="4", memory="8Gi")
    low = [make_pod(f"low{i}", cpu="1", node="n1", priority=i) for i in range(4)]
    plan = _plan([node], [*low, make_pod("hp", cpu="2", priority=100)])
    first = plan.attempts[0]
    assert first.result == "Nominated" and first.node == "n1"
    # The two most important pods are reprieved; the two lowest are evicted.
    assert sorted(first.victims) == ["default/low0", "default/low1"]
    assert {d.pod: d.outcome for d in plan.decisions}["default/hp"] == "Scheduled"


def test_no_lower_priority_pods_means_no_victims_message() -> None:
    node = make_node("n1", cpu="1")
    plan = _plan(
        [node],
        [make_pod("same", cpu="1", node="n1", priority=5), make_pod("p", cpu="1", priority=5)],
    )
    decision = {d.pod: d for d in plan.decisions}["default/p"]
    assert decision.outcome == "Unschedulable"
    assert decision.message == (
        "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: "
        "1 No preemption victims found for incoming pod."
    )


def test_pdb_violation_steers_preemption_to_another_node() -> None:
    nodes = [make_node("a", cpu="2"), make_node("b", cpu="2")]
    pods = [
        make_pod("a-batch", cpu="2", node="a", labels={"app": "batch"}, priority=1),
        make_pod("b-web", cpu="2", node="b", labels={"app": "web"}, priority=1),
        make_pod("hp", cpu="2", priority=100),
    ]
    plan = _plan(nodes, pods, [_pdb("batch", "batch", 0)])
    assert plan.attempts[0].victims == ["default/b-web"]


@pytest.mark.parametrize(
    ("candidates", "expected", "criterion"),
    [
        ({"a": ([5], 1), "b": ([9], 0)}, "b", "fewest PDB violations"),
        ({"a": ([5], 0), "b": ([9], 0)}, "a", "lowest highest-victim priority"),
        ({"a": ([5, 5], 0), "b": ([5, 1], 0)}, "b", "smallest sum of victim priorities"),
        ({"a": ([5], 0), "b": ([5], 0)}, "a", "lowest node name (tie)"),
    ],
)
def test_pick_one_node_for_preemption(
    candidates: dict[str, tuple[list[int], int]], expected: str, criterion: str
) -> None:
    built = {
        name: Candidate(
            name, [make_pod(f"{name}{i}", priority=p) for i, p in enumerate(prios)], pdb
        )
        for name, (prios, pdb) in candidates.items()
    }
    assert pick_one_node_for_preemption(built) == (expected, criterion)


def test_latest_start_time_of_highest_priority_victims_wins() -> None:
    early, late = make_pod("e", priority=5), make_pod("l", priority=5)
    early.start_time, late.start_time = 100.0, 200.0
    built = {"a": Candidate("a", [early], 0), "b": Candidate("b", [late], 0)}
    assert pick_one_node_for_preemption(built) == (
        "b",
        "latest start time of the highest-priority victims",
    )


@pytest.mark.parametrize(
    ("spec", "running", "pending", "allowed"),
    [
        ({"minAvailable": 2}, 3, 0, 1),
        ({"minAvailable": 3}, 3, 1, 0),
        ({"maxUnavailable": 1}, 3, 0, 1),
        ({"maxUnavailable": "50%"}, 4, 0, 2),
        ({"minAvailable": "50%"}, 3, 0, 1),  # desired = ceil(1.5) = 2
        ({"minAvailable": 1}, 0, 0, 0),
    ],
)
def test_pdb_status_computed_like_the_disruption_controller(
    spec: dict[str, Any], running: int, pending: int, allowed: int
) -> None:
    pods = [make_pod(f"r{i}", labels={"app": "x"}, node="n") for i in range(running)]
    pods += [make_pod(f"p{i}", labels={"app": "x"}) for i in range(pending)]
    # One ReplicaSet the input lacks controls them: its scale is the pods it controls.
    owner = (OwnerReference("ReplicaSet", "x", True),)
    for pod in pods:
        pod.meta = replace(pod.meta, owner_references=owner)
    pdb = _pdb("x", "x", None, **spec)
    note = compute_status(pdb, pods)
    assert pdb.disruptions_allowed == allowed
    assert f"computed disruptionsAllowed={allowed}" in note


def test_max_unavailable_of_unmanaged_pods_allows_nothing() -> None:
    """getExpectedScale skips pods without a controller: expectedCount 0, nothing allowed."""
    pods = [make_pod(f"r{i}", labels={"app": "x"}, node="n") for i in range(3)]
    pdb = _pdb("x", "x", None, maxUnavailable=1)
    compute_status(pdb, pods)
    assert (pdb.disruptions_allowed, pdb.current_healthy, pdb.expected_pods) == (0, 3, 0)


def test_select_victims_reports_filter_failure_after_removing_all() -> None:
    node = make_node("n1", cpu="1")
    running = make_pod("low", cpu="500m", node="n1", priority=1)
    handle = FakeHandle([node], [running])
    plugin = Plugin(None, handle)
    # A pod that cannot fit even on an empty node: the filter status comes back.
    state = CycleState()
    state.active_filters = []
    pod = make_pod("big", cpu="2", priority=10)

    class _Fit:
        def run_filter_plugins_with_nominated_pods(self, *_: Any) -> Status:
            return Status(Code.UNSCHEDULABLE, "Insufficient cpu")

        def run_pre_filter_extension_remove_pod(self, *_: Any) -> None:
            return None

        snapshot = handle.snapshot

    plugin.handle = _Fit()  # type: ignore[assignment]
    victims, violations, status = plugin.select_victims_on_node(
        state, pod, handle.node("n1").clone(), []
    )
    assert (victims, violations) == ([], 0)
    assert status is not None and status.reasons == ["Insufficient cpu"]


@pytest.mark.parametrize(("version", "expected"), [("1.30", "node1"), ("1.32", "node2"),
                                                  ("1.36", "node2")])
def test_min_highest_priority_node_after_pdb_reprieve(version: str, expected: str) -> None:
    """TestPostFilter "pod can be made schedulable on minHighestPriority node" (#128307,
    in v1.32 and v1.30.7; v1.30.6 predates it). node1's victims are p2 (low, PDB-violating,
    reprieved first) and p1 (high): only once sorted is node1's highest victim p1 (high),
    which loses to node2's p3 (mid)."""
    nodes = [make_node(n, pods="1") for n in ("node1", "node2")]
    pods = [
        make_pod("p1", node="node1", priority=1000, labels={"app": "ok"}),
        make_pod("p2", node="node1", priority=10, labels={"app": "strict"}),
        make_pod("p3", node="node2", priority=100, labels={"app": "strict"}),
        make_pod("p", priority=10000),
    ]
    for i, p in enumerate(pods):
        p.load_index = i
    pdbs = [_pdb("violating-pdb", "strict", 0, minAvailable="100%"),
            _pdb("non-violating-pdb", "ok", 2**31 - 1, minAvailable="0")]
    config = default_config(release(version).features)
    plan = Engine(config, Cluster(nodes=nodes, pods=pods, pdbs=pdbs)).run()
    first = plan.attempts[0]
    assert (first.result, first.node) == ("Nominated", expected)
    # v1.30.6 keeps node1's victims in reprieve order, violating ones first.
    assert first.victims == (["default/p2", "default/p1"] if expected == "node1"
                             else ["default/p3"])


def test_victims_sorted_after_reprieve_only_with_both_groups() -> None:
    """SelectVictimsOnNode sorts only when both violating and non-violating pods exist."""
    infos = [pod_info(make_pod(n, priority=p, labels={"app": a}))
             for n, p, a in (("hi", 100, "ok"), ("lo", 1, "strict"))]
    pdbs = [_pdb("strict", "strict", 0)]
    def never(_pi: object) -> bool:
        return False

    assert reprieve(list(infos), pdbs, never)[0] == [infos[1].pod, infos[0].pod]
    assert reprieve(list(infos), pdbs, never, sort_victims=True) == (
        [infos[0].pod, infos[1].pod], 1)
    assert reprieve(list(infos), [], never, sort_victims=True)[0] == [
        infos[0].pod, infos[1].pod]
