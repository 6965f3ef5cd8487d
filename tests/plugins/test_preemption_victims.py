"""The order SelectVictimsOnNode's removal loop meets lower-priority pods."""

from __future__ import annotations

import random

import pytest

from ksched_cli.framework.nodeinfo import NodeInfo
from ksched_cli.plugins.preemption_victims import lower_priority_in_visit_order
from tests.fakes import make_node, make_pod


def _go_range_with_swap_remove(priorities: list[int], preemptor: int) -> list[int]:
    """Go's ``for _, pi := range nodeInfo.Pods`` while RemovePod swap-removes from the
    same backing array, written out on a plain list of indices."""
    backing = list(range(len(priorities)))
    live = len(backing)
    visited = []
    for i in range(len(backing)):
        pod = backing[i]
        if priorities[pod] >= preemptor:
            continue
        visited.append(pod)
        slot = backing[:live].index(pod)
        backing[slot] = backing[live - 1]
        live -= 1
    return visited


def _node_with(priorities: list[int]) -> NodeInfo:
    info = NodeInfo(make_node("n1", cpu="64", pods="200"))
    for i, priority in enumerate(priorities):
        info.add_pod(make_pod(f"p{i}", cpu="10m", node="n1", priority=priority))
    return info


@pytest.mark.parametrize(
    ("priorities", "expected"),
    [
        ([0, 0, 0, 0], [0, 1, 2, 3]),
        ([0, 9, 0, 9], [0, 2]),
        ([9, 0, 0, 0, 9], [1, 2, 3]),
        ([0, 0, 9, 0], [0, 1, 3]),
        ([], []),
        ([9, 9], []),
    ],
)
def test_visit_order_table(priorities: list[int], expected: list[int]) -> None:
    assert _go_range_with_swap_remove(priorities, 5) == expected
    got = lower_priority_in_visit_order(make_pod("hi", priority=5), _node_with(priorities))
    assert [pi.pod.name for pi in got] == [f"p{i}" for i in expected]


def test_visit_order_matches_go_loop_on_random_nodes() -> None:
    rng = random.Random(7)
    for _ in range(200):
        priorities = [rng.choice([0, 1, 5, 9]) for _ in range(rng.randrange(0, 12))]
        got = lower_priority_in_visit_order(make_pod("hi", priority=5), _node_with(priorities))
        expected = _go_range_with_swap_remove(priorities, 5)
        assert [pi.pod.name for pi in got] == [f"p{i}" for i in expected]
