"""MostAllocated strategy, ported from v1.30's most_allocated_test.go."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod
from ksched_cli.config.args import (
    MOST_ALLOCATED,
    NodeResourcesFitArgs,
    ResourceSpec,
    ScoringStrategy,
)
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code
from ksched_cli.plugins.noderesources.fit import Fit
from ksched_cli.plugins.noderesources.most_allocated import most_requested_score
from tests.fakes import FakeHandle
from tests.plugins.noderesources_helpers import node, pod

XYZ = "abc.com/xyz"
DEFAULT = [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]
WITH_XYZ = [*DEFAULT, ResourceSpec(XYZ, 1)]


def n(name: str, cpu: str, mem: str, xyz: str | None = None) -> Node:
    return node(name, {"cpu": cpu, "memory": mem, **({XYZ: xyz} if xyz else {})})


def c(cpu: str, mem: str, xyz: str | None = None) -> dict[str, str]:
    return {"cpu": cpu, "memory": mem, **({XYZ: xyz} if xyz else {})}


TWO_CONTAINERS = (c("1000", "2000"), c("2000", "3000"))

CASES = [
    ("nothing scheduled, nothing requested", pod(),
     [n("node1", "4000", "10000"), n("node2", "4000", "10000")], [], [0, 0], DEFAULT),
    ("nothing scheduled, resources requested, differently sized nodes", pod(*TWO_CONTAINERS),
     [n("node1", "4000", "10000"), n("node2", "6000", "10000")], [], [62, 50], DEFAULT),
    ("no resources requested, pods scheduled with resources", pod(),
     [n("node1", "10000", "20000"), n("node2", "10000", "20000")],
     [pod(c("3000", "0"), node_name="node1"), pod(c("3000", "0"), node_name="node1"),
      pod(c("3000", "0"), node_name="node2"), pod(c("3000", "5000"), node_name="node2")],
     [30, 42], DEFAULT),
    ("resources requested, pods scheduled with resources", pod(*TWO_CONTAINERS),
     [n("node1", "10000", "20000"), n("node2", "10000", "20000")],
     [pod(c("3000", "0"), node_name="node1"), pod(c("3000", "5000"), node_name="node2")],
     [42, 55], DEFAULT),
    ("resources requested equal node capacity", pod(c("2000", "4000"), c("3000", "5000")),
     [n("node1", "5000", "10000"), n("node2", "10000", "9000")], [], [95, 75], DEFAULT),
    ("resources requested with different weight on CPU and memory", pod(*TWO_CONTAINERS),
     [n("node1", "4000", "10000"), n("node2", "6000", "10000")], [], [58, 50],
     [ResourceSpec("memory", 2), ResourceSpec("cpu", 1)]),
    ("no resources requested, pods scheduled, nonzero request for resource", pod(None),
     [n("node1", "250m", "1000Mi"), n("node2", "250m", "1000Mi")],
     [pod(None, node_name="node1"), pod(None, node_name="node1")], [80, 30], DEFAULT),
    ("bypass extended resource if the pod does not request", pod(*TWO_CONTAINERS),
     [n("node1", "6000", "10000"), n("node2", "6000", "10000", "4")], [], [50, 50], WITH_XYZ),
    ("honor extended resource if the pod request", pod(c("3000", "5000", "2")),
     [n("node1", "6000", "10000", "4"), n("node2", "6000", "10000", "10")], [], [50, 40],
     WITH_XYZ),
    ("if the node doesn't have a resource", pod(c("3000", "4000")),
     [n("node1", "6000", "10000"), n("node2", "6000", "10000", "4")], [], [45, 45],
     [ResourceSpec(XYZ, 2), ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]),
]


@pytest.mark.parametrize(
    ("requested", "nodes", "existing", "want", "resources"),
    [case[1:] for case in CASES], ids=[case[0] for case in CASES],
)
def test_most_allocated_scoring_strategy(
    requested: Pod, nodes: Sequence[Node], existing: Sequence[Pod], want: list[int],
    resources: list[ResourceSpec],
) -> None:
    handle = FakeHandle(nodes, existing)
    args = NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(MOST_ALLOCATED, resources))
    plugin = Fit(args, handle)
    state = CycleState()
    assert plugin.pre_score(state, requested, handle.snapshot.list()) is None
    assert [plugin.score(state, requested, handle.node(x.name)) for x in nodes] == [
        (w, None) for w in want
    ]


def test_resources_not_set_is_an_error() -> None:
    handle = FakeHandle([n("node1", "4000", "10000")])
    plugin = Fit(NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(MOST_ALLOCATED, [])), handle)
    score, status = plugin.score(CycleState(), pod(*TWO_CONTAINERS), handle.node("node1"))
    assert score == 0
    assert status is not None and status.code == Code.ERROR


@pytest.mark.parametrize(
    ("requested", "capacity", "want"),
    [(0, 0, 0), (5, 4, 100), (0, 4000, 0), (3000, 4000, 75), (2, 3, 66)],
)
def test_most_requested_score(requested: int, capacity: int, want: int) -> None:
    assert most_requested_score(requested, capacity) == want
