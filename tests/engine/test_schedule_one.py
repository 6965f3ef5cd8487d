"""Sampling arithmetic, node order, FitError text and host selection."""

from __future__ import annotations

import pytest

from ksched_cli.engine.schedule_one import Sampler, _allowed_nodes
from ksched_cli.engine.snapshot import Snapshot, node_tree_order
from ksched_cli.framework.status import Code, Status
from ksched_cli.framework.types import Diagnosis, FitError
from tests.fakes import make_node, make_pod


@pytest.mark.parametrize(
    ("profile_pct", "global_pct", "nodes", "expected"),
    [
        (None, 0, 50, 50),  # fewer than 100 nodes: all
        (None, 0, 100, 100),
        (None, 0, 250, 120),  # adaptive: 50 - 250/125 = 48 %
        (None, 0, 1000, 420),  # 42 %
        (None, 0, 5000, 500),  # 10 %
        (None, 0, 6000, 300),  # floor of 5 %
        (None, 10, 500, 100),  # never below 100
        (30, 10, 1000, 300),  # the profile's setting wins
        (None, 100, 300, 300),
    ],
)
def test_num_feasible_nodes_to_find(
    profile_pct: int | None, global_pct: int, nodes: int, expected: int
) -> None:
    assert Sampler(global_pct).num_feasible_nodes_to_find(profile_pct, nodes) == expected


def test_node_tree_round_robin_over_zones() -> None:
    def zoned(name: str, zone: str) -> object:
        return make_node(name, labels={"topology.kubernetes.io/zone": zone} if zone else {})

    nodes = [zoned("a1", "a"), zoned("a2", "a"), zoned("b1", "b"), zoned("x", ""), zoned("a3", "a")]
    assert [n.name for n in node_tree_order(nodes)] == ["a1", "b1", "x", "a2", "a3"]  # type: ignore[attr-defined]


def test_fit_error_histogram_is_sorted_and_counts_reasons() -> None:
    diag = Diagnosis(
        node_to_status={
            "a": Status(Code.UNSCHEDULABLE, "Insufficient cpu", "Insufficient memory"),
            "b": Status(Code.UNSCHEDULABLE, "Insufficient cpu"),
            "c": Status(
                Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                "node(s) didn't match Pod's node affinity/selector",
            ),
        },
        post_filter_msg=(
            "preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
        ),
    )
    assert str(FitError(make_pod("p"), 3, diag)) == (
        "0/3 nodes are available: 1 Insufficient memory, 1 node(s) didn't match Pod's node "
        "affinity/selector, 2 Insufficient cpu. preemption: 0/3 nodes are available: "
        "3 No preemption victims found for incoming pod."
    )


def test_fit_error_with_pre_filter_message() -> None:
    diag = Diagnosis(pre_filter_msg="pod has unbound immediate PersistentVolumeClaims")
    assert str(FitError(make_pod("p"), 2, diag)) == (
        "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims."
    )


@pytest.mark.parametrize(
    "allowed",
    [{"a2", "b1"}, {"b3", "missing"}, {"a1", "a2", "a3", "b1", "b2", "b3", "c1"}, set()],
    ids=["few", "one-unknown", "many", "none"],
)
def test_prefilter_node_names_keep_node_tree_order(allowed: set[str]) -> None:
    # A few names are looked up (a DaemonSet pod's matchFields); the walk must still
    # see them in node-tree order, as the scan over every node gives them.
    nodes = [
        make_node(f"{zone}{i}", labels={"topology.kubernetes.io/zone": zone})
        for zone in "abc"
        for i in (1, 2, 3)
    ]
    snapshot = Snapshot(nodes)
    scanned = [ni.name for ni in snapshot.list() if ni.name in allowed]
    assert [ni.name for ni in _allowed_nodes(snapshot, frozenset(allowed))] == scanned
