"""LeastAllocated strategy, ported from v1.30's least_allocated_test.go."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod
from ksched_cli.config.args import (
    LEAST_ALLOCATED,
    NodeResourcesFitArgs,
    ResourceSpec,
    ScoringStrategy,
)
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code
from ksched_cli.plugins.noderesources.fit import Fit
from ksched_cli.plugins.noderesources.least_allocated import least_requested_score
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
     [n("node1", "4000", "10000"), n("node2", "4000", "10000")], [], [100, 100], DEFAULT),
    ("nothing scheduled, resources requested, differently sized nodes", pod(*TWO_CONTAINERS),
     [n("node1", "4000", "10000"), n("node2", "6000", "10000")], [], [37, 50], DEFAULT),
    ("no resources requested, pods scheduled", pod(),
     [n("node1", "4000", "10000"), n("node2", "4000", "10000")],
     [pod(node_name="node1"), pod(node_name="node1"), pod(node_name="node2"),
      pod(node_name="node2")], [100, 100], DEFAULT),
    ("no resources requested, pods scheduled with resources", pod(),
     [n("node1", "10000", "20000"), n("node2", "10000", "20000")],
     [pod(c("3000", "0"), node_name="node1"), pod(c("3000", "0"), node_name="node1"),
      pod(c("3000", "0"), node_name="node2"), pod(c("3000", "5000"), node_name="node2")],
     [70, 57], DEFAULT),
    ("resources requested, pods scheduled with resources", pod(*TWO_CONTAINERS),
     [n("node1", "10000", "20000"), n("node2", "10000", "20000")],
     [pod(c("3000", "0"), node_name="node1"), pod(c("3000", "5000"), node_name="node2")],
     [57, 45], DEFAULT),
    ("resources requested, pods scheduled with resources, differently sized nodes",
     pod(*TWO_CONTAINERS), [n("node1", "10000", "20000"), n("node2", "10000", "50000")],
     [pod(c("3000", "0"), node_name="node1"), pod(c("3000", "5000"), node_name="node2")],
     [57, 60], DEFAULT),
    ("requested resources exceed node capacity", pod(c("3000", "0")),
     [n("node1", "4000", "10000"), n("node2", "4000", "10000")],
     [pod(c("3000", "0"), node_name="node1"), pod(c("3000", "5000"), node_name="node2")],
     [50, 25], DEFAULT),
    ("zero node resources, pods scheduled with resources", pod(),
     [node("node1", {}), node("node2", {})],
     [pod(c("3000", "0"), node_name="node1"), pod(c("3000", "5000"), node_name="node2")],
     [0, 0], DEFAULT),
    ("resources requested with different weight on CPU and memory, differently sized nodes",
     pod(*TWO_CONTAINERS), [n("node1", "4000", "10000"), n("node2", "6000", "10000")], [],
     [41, 50], [ResourceSpec("memory", 2), ResourceSpec("cpu", 1)]),
    ("bypass extended resource if the pod does not request", pod(*TWO_CONTAINERS),
     [n("node1", "6000", "10000"), n("node2", "6000", "10000", "4")], [], [50, 50], WITH_XYZ),
    ("honor extended resource if the pod requests", pod(c("3000", "5000", "2")),
     [n("node1", "6000", "10000", "4"), n("node2", "6000", "10000", "10")], [],
     [50, 60], WITH_XYZ),
    ("if the node doesn't have a resource", pod(c("3000", "4000")),
     [n("node1", "6000", "10000"), n("node2", "6000", "10000", "4")], [], [55, 55],
     [ResourceSpec(XYZ, 2), ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]),
]


@pytest.mark.parametrize(
    ("requested", "nodes", "existing", "want", "resources"),
    [case[1:] for case in CASES], ids=[case[0] for case in CASES],
)
def test_least_allocated_scoring_strategy(
    requested: Pod, nodes: Sequence[Node], existing: Sequence[Pod], want: list[int],
    resources: list[ResourceSpec],
) -> None:
    handle = FakeHandle(nodes, existing)
    args = NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(LEAST_ALLOCATED, resources))
    plugin = Fit(args, handle)
    state = CycleState()
    assert plugin.pre_score(state, requested, handle.snapshot.list()) is None
    assert [plugin.score(state, requested, handle.node(x.name)) for x in nodes] == [
        (w, None) for w in want
    ]


def test_resources_not_set_is_an_error() -> None:
    nodes = [n("node1", "4000", "10000"), n("node2", "6000", "10000")]
    handle = FakeHandle(nodes)
    args = NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(LEAST_ALLOCATED, []))
    plugin = Fit(args, handle)
    state = CycleState()
    requested = pod(*TWO_CONTAINERS)
    plugin.pre_score(state, requested, handle.snapshot.list())
    for x in nodes:
        score, status = plugin.score(state, requested, handle.node(x.name))
        assert score == 0
        assert status is not None and status.code == Code.ERROR
        assert status.message() == "resources not found"


@pytest.mark.parametrize(
    ("requested", "capacity", "want"),
    [(0, 0, 0), (5, 4, 0), (0, 4000, 100), (3000, 4000, 25), (1, 3, 66), (3, 3, 0)],
)
def test_least_requested_score(requested: int, capacity: int, want: int) -> None:
    assert least_requested_score(requested, capacity) == want
