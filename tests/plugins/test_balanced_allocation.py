"""NodeResourcesBalancedAllocation, ported from balanced_allocation_test.go (v1.30 semantics)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod
from ksched_cli.config.args import NodeResourcesBalancedAllocationArgs, ResourceSpec
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.plugins.noderesources.balanced_allocation import (
    PRE_SCORE_STATE_KEY,
    BalancedAllocation,
    balanced_resource_scorer,
)
from tests.fakes import FakeHandle
from tests.plugins.noderesources_helpers import go_node, pod

GPU = "nvidia.com/gpu"
DEFAULT = [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]
WITH_GPU = [*DEFAULT, ResourceSpec(GPU, 1)]


def cpu_and_memory(node_name: str = "") -> Pod:
    return pod({"cpu": "1000m", "memory": "2000"}, {"cpu": "2000m", "memory": "3000"},
               node_name=node_name)


def cpu_only(node_name: str = "") -> Pod:
    return pod({"cpu": "1000m", "memory": "0"}, {"cpu": "2000m", "memory": "0"},
               node_name=node_name)


def cpu_memory_gpu(node_name: str = "") -> Pod:
    return pod({"cpu": "1000m", "memory": "2000"}, {"cpu": "2000m", "memory": "3000", GPU: "3"},
               node_name=node_name)


def two(c1: int, m1: int, c2: int, m2: int, gpu: Sequence[int | None] = (None, None)) -> list[Node]:
    return [
        go_node(f"node{i + 1}", c, m, {GPU: g} if g else None)
        for i, (c, m, g) in enumerate(((c1, m1, gpu[0]), (c2, m2, gpu[1])))
    ]


CASES = [
    # v1.30 has no PreScore Skip for pods without requests: they are scored.
    ("nothing scheduled, nothing requested", pod(), two(4000, 10000, 4000, 10000), [],
     [100, 100], DEFAULT, True),
    ("nothing scheduled, resources requested, differently sized nodes", cpu_and_memory(),
     two(4000, 10000, 6000, 10000), [], [87, 100], DEFAULT, True),
    ("resources requested, pods scheduled with resources", cpu_and_memory(),
     two(10000, 20000, 10000, 20000), [cpu_only("node1"), cpu_and_memory("node2")],
     [82, 95], DEFAULT, True),
    ("resources requested, pods scheduled with resources, differently sized nodes",
     cpu_and_memory(), two(10000, 20000, 10000, 50000),
     [cpu_only("node1"), cpu_and_memory("node2")], [82, 80], DEFAULT, True),
    ("requested resources at node capacity", cpu_only(), two(6000, 10000, 6000, 10000),
     [cpu_only("node1"), cpu_and_memory("node2")], [50, 75], DEFAULT, True),
    ("include scalar resource on a node for balanced resource allocation",
     pod({"memory": "0", GPU: "1"}), two(3500, 40000, 3500, 40000, (8, 8)),
     [cpu_and_memory("node2"), cpu_memory_gpu("node1")], [70, 65], WITH_GPU, True),
    ("node without the scalar resource should skip the scalar resource", cpu_and_memory(),
     two(3500, 40000, 3500, 40000, (8, None)), [], [63, 63], WITH_GPU, True),
    ("resources requested, pods scheduled with resources if PreScore not called",
     cpu_and_memory(), two(10000, 20000, 10000, 20000),
     [cpu_only("node1"), cpu_and_memory("node2")], [82, 95], DEFAULT, False),
    # Beyond the Go table.
    ("no resources requested, pods scheduled with resources", pod(),
     two(10000, 20000, 10000, 20000),
     [cpu_only("node1"), cpu_only("node1"), cpu_only("node2"), cpu_and_memory("node2")],
     [70, 82], DEFAULT, True),
    ("request-less containers add no non-zero defaults", pod(None),
     two(250, 1000 * 1024 * 1024, 250, 1000 * 1024 * 1024),
     [pod(None, node_name="node1"), pod(None, node_name="node1")], [100, 100], DEFAULT, True),
    ("fractions above one are capped", cpu_and_memory(), two(2000, 10000, 2000, 100000), [],
     [75, 52], DEFAULT, True),
]


@pytest.mark.parametrize(
    ("requested", "nodes", "existing", "want", "resources", "run_pre_score"),
    [c[1:] for c in CASES], ids=[c[0] for c in CASES],
)
def test_node_resources_balanced_allocation(
    requested: Pod, nodes: Sequence[Node], existing: Sequence[Pod], want: list[int],
    resources: list[ResourceSpec], run_pre_score: bool,
) -> None:
    handle = FakeHandle(nodes, existing)
    plugin = BalancedAllocation(NodeResourcesBalancedAllocationArgs(resources), handle)
    state = CycleState()
    if run_pre_score:
        assert plugin.pre_score(state, requested, handle.snapshot.list()) is None
        assert state.clone().read(PRE_SCORE_STATE_KEY) is state.read(PRE_SCORE_STATE_KEY)
    got = [plugin.score(state, requested, handle.node(x.name)) for x in nodes]
    assert got == [(w, None) for w in want]
    assert plugin.score_extensions() is None


@pytest.mark.parametrize(
    ("requested", "allocatable", "want"),
    [
        ([0, 0], [0, 0], 100),  # nothing to compare
        ([1, 0], [2, 0], 100),  # a single fraction has no spread
        ([3, 1], [4, 4], 75),
        ([1, 1, 1], [3, 3, 3], 100),
        # sqrt(((6/7 - m)^2 + (1/8 - m)^2 + (1/2 - m)^2) / 3), m = mean
        ([3000, 5000, 4], [3500, 40000, 8], 70),
        ([1, 2, 3, 4], [10, 10, 10, 10], 88),
    ],
)
def test_balanced_resource_scorer(requested: list[int], allocatable: list[int], want: int) -> None:
    assert balanced_resource_scorer(requested, allocatable) == want
