"""NodeResourcesBalancedAllocation per release: TestNodeResourcesBalancedAllocation rows.

The table is upstream's (balanced_allocation_test.go of the v1.33-v1.35 line, the rows
without DRA objects); its first row, the best-effort pod, is skipped at PreScore only from
v1.33 and scores as any pod before.

v1.36 scores the change in balance (PR #135573). The v1.36 column is upstream's own
post-merge table (TestNodeResourcesBalancedAllocation as rewritten by the PR, a stored copy
found by its row names; its DRA rows need DRA objects ksched does not read): every
expected score there equals the formula's, worked out in each row's comment here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ksched_cli.api.pod import Pod
from ksched_cli.config.args import NodeResourcesBalancedAllocationArgs, ResourceSpec
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.nodeinfo import NodeInfo
from ksched_cli.framework.status import Code
from ksched_cli.plugins.noderesources.balanced_allocation import BalancedAllocation
from ksched_cli.versions.releases import release
from tests.fakes import FakeHandle, make_node, make_pod


def _spec(node: str, *containers: dict[str, str]) -> dict[str, Any]:
    return {
        "nodeName": node,
        "containers": [
            {"name": f"c{i}", "image": "i", "resources": {"requests": dict(c)}}
            for i, c in enumerate(containers)
        ],
    }


def cpu_only(node: str) -> dict[str, Any]:
    return _spec(node, {"cpu": "1000m", "memory": "0"}, {"cpu": "2000m", "memory": "0"})


def cpu_and_memory(node: str) -> dict[str, Any]:
    return _spec(node, {"cpu": "1000m", "memory": "2000"}, {"cpu": "2000m", "memory": "3000"})


def cpu_memory_gpu(node: str) -> dict[str, Any]:
    return _spec(
        node, {"cpu": "1000m", "memory": "2000"},
        {"cpu": "2000m", "memory": "3000", "nvidia.com/gpu": "3"},
    )


CPU_MEM = [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]
WITH_GPU = [*CPU_MEM, ResourceSpec("nvidia.com/gpu", 1)]
GPU8 = {"nvidia.com/gpu": "8"}

# s(x) = int((1 - std of the capped fractions) * 100); v1.36: 50 + (50 + s(with) - s(without)) // 2
ROWS: list[tuple[str, dict[str, Any], list[tuple[str, str, str, dict[str, str] | None]],
                 list[dict[str, Any]], list[ResourceSpec], list[int], list[int]]] = [
    # node1 s(.75,.5)=87, s(0,0)=100: 50+37//2=68; node2 s(.5,.5)=100 against 100: 75
    ("nothing scheduled, resources requested, differently sized nodes",
     cpu_and_memory(""), [("node1", "4000m", "10000", None), ("node2", "6000m", "10000", None)],
     [], CPU_MEM, [87, 100], [68, 75]),
    # node1 s(.6,.25)=82, s(.3,0)=85: 73; node2 s(.6,.5)=95, s(.3,.25)=97: 74
    ("resources requested, pods scheduled with resources",
     cpu_and_memory(""), [("node1", "10000m", "20000", None), ("node2", "10000m", "20000", None)],
     [cpu_only("node1"), cpu_and_memory("node2")], CPU_MEM, [82, 95], [73, 74]),
    # node2 s(.6,.2)=80, s(.3,.1)=90: 70
    ("resources requested, pods scheduled with resources, differently sized nodes",
     cpu_and_memory(""), [("node1", "10000m", "20000", None), ("node2", "10000m", "50000", None)],
     [cpu_only("node1"), cpu_and_memory("node2")], CPU_MEM, [82, 80], [73, 70]),
    # node1 s(1,0)=50, s(.5,0)=75: 62; node2 s(1,.5)=75, s(.5,.5)=100: 62
    ("requested resources at node capacity",
     cpu_only(""), [("node1", "6000m", "10000", None), ("node2", "6000m", "10000", None)],
     [cpu_only("node1"), cpu_and_memory("node2")], CPU_MEM, [50, 75], [62, 62]),
    # node1 s(.857,.125,.5)=70, s(.857,.125,.375)=70: 75; node2 s(.857,.125,.125)=65, without
    # the pod's gpu s(.857,.125,0)=62: 76
    ("include scalar resource on a node for balanced resource allocation",
     _spec("", {"memory": "0", "nvidia.com/gpu": "1"}),
     [("node1", "3500m", "40000", GPU8), ("node2", "3500m", "40000", GPU8)],
     [cpu_and_memory("node2"), cpu_memory_gpu("node1")], WITH_GPU, [70, 65], [75, 76]),
    # s(.857,.125)=63 against an empty node's 100: 50+13//2=56
    ("node without the scalar resource should skip the scalar resource",
     cpu_and_memory(""), [("node1", "3500m", "40000", GPU8), ("node2", "3500m", "40000", None)],
     [], WITH_GPU, [63, 63], [56, 56]),
    # A v1.36-only row: node1 goes from s(1,0)=50 to s(1,1)=100, the best change (100);
    # node2 from s(0,0)=100 to s(0,1)=50, the worst (50).
    ("resources requested, pods scheduled with resources, nodes to reach min/max score",
     _spec("", {"memory": "5000"}),
     [("node1", "3000m", "5000", None), ("node2", "3000m", "5000", None)],
     [cpu_only("node1")], CPU_MEM, [100, 50], [100, 50]),
]


def _setup(
    version: str, pod_spec: dict[str, Any],
    nodes: list[tuple[str, str, str, dict[str, str] | None]], pods: list[dict[str, Any]],
    resources: list[ResourceSpec],
) -> tuple[FakeHandle, BalancedAllocation, Pod]:
    built = [make_node(n, cpu=c, memory=m, extra=x) for n, c, m, x in nodes]
    running = [make_pod(f"running-{i}", spec=s, node=s["nodeName"]) for i, s in enumerate(pods)]
    handle = FakeHandle(built, running, features=release(version).features)
    plugin = BalancedAllocation(NodeResourcesBalancedAllocationArgs(resources), handle)
    pod = make_pod("pod", spec={k: v for k, v in pod_spec.items() if k != "nodeName"})
    return handle, plugin, pod


@pytest.mark.parametrize("version", ["1.30", "1.32", "1.36"])
@pytest.mark.parametrize("pre_score", [True, False])
@pytest.mark.parametrize(
    ("name", "pod_spec", "nodes", "pods", "resources", "scores", "scores_136"), ROWS,
    ids=[r[0] for r in ROWS],
)
def test_scores(
    version: str, pre_score: bool, name: str, pod_spec: dict[str, Any],
    nodes: list[tuple[str, str, str, dict[str, str] | None]], pods: list[dict[str, Any]],
    resources: list[ResourceSpec], scores: list[int], scores_136: list[int],
) -> None:
    handle, plugin, pod = _setup(version, pod_spec, nodes, pods, resources)
    state = CycleState()
    if pre_score:
        assert plugin.pre_score(state, pod, handle.snapshot.list()) is None
    got = [plugin.score(state, pod, ni)[0] for ni in handle.snapshot.list()]
    assert got == (scores_136 if version == "1.36" else scores), name


@pytest.mark.parametrize("version", ["1.30", "1.36"])
@pytest.mark.parametrize(
    ("name", "pod_spec", "nodes", "pods", "resources", "scores", "scores_136"),
    [r for r in ROWS if len(r[4]) == 2], ids=[r[0] for r in ROWS if len(r[4]) == 2],
)
def test_array_path_equals_per_node(
    version: str, name: str, pod_spec: dict[str, Any],
    nodes: list[tuple[str, str, str, dict[str, str] | None]], pods: list[dict[str, Any]],
    resources: list[ResourceSpec], scores: list[int], scores_136: list[int],
) -> None:
    handle, plugin, pod = _setup(version, pod_spec, nodes, pods, resources)
    state = CycleState()
    infos = handle.snapshot.list()
    plugin.pre_score(state, pod, infos)
    columns = infos[0].columns
    assert columns is not None
    index = np.array([ni.column_index for ni in infos], dtype=np.int64)
    arrays = plugin.score_array(state, pod, columns, index)
    assert arrays is not None
    assert arrays.tolist() == (scores_136 if version == "1.36" else scores), name


def _both_paths(
    plugin: BalancedAllocation, state: CycleState, pod: Pod, infos: Sequence[NodeInfo]
) -> tuple[list[int], list[int]]:
    """The per-node scores and the array path's, over every node."""
    per_node = [plugin.score(state, pod, ni)[0] for ni in infos]
    columns = infos[0].columns
    assert columns is not None
    index = np.array([ni.column_index for ni in infos], dtype=np.int64)
    arrays = plugin.score_array(state, pod, columns, index)
    assert arrays is not None
    return per_node, arrays.tolist()


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 16000), st.integers(0, 64000), st.integers(0, 16000),
                  st.integers(0, 64000)),
        min_size=1, max_size=6,
    ),
    st.integers(0, 8000), st.integers(0, 32000), st.sampled_from([CPU_MEM, CPU_MEM[:1]]),
)
def test_change_in_balance_arrays_equal_per_node(
    shapes: list[tuple[int, int, int, int]], pod_cpu: int, pod_mem: int,
    resources: list[ResourceSpec],
) -> None:
    """Random nodes (allocatable, then one running pod's requests), two resources or one:
    both paths agree."""
    assume(pod_cpu or pod_mem)  # a best-effort pod is skipped at PreScore, never scored
    nodes = [
        make_node(f"n{i}", cpu=f"{c}m", memory=str(m)) for i, (c, m, _, _) in enumerate(shapes)
    ]
    running = [
        make_pod(f"r{i}", requests={"cpu": f"{rc}m", "memory": str(rm)}, node=f"n{i}")
        for i, (_, _, rc, rm) in enumerate(shapes) if rc or rm
    ]
    handle = FakeHandle(nodes, running, features=release("1.36").features)
    plugin = BalancedAllocation(NodeResourcesBalancedAllocationArgs(resources), handle)
    pod = make_pod("pod", requests={"cpu": f"{pod_cpu}m", "memory": str(pod_mem)})
    state = CycleState()
    infos = handle.snapshot.list()
    skipped = plugin.pre_score(state, pod, infos)
    if skipped is not None:  # nothing of the scored resources requested: never scored
        assert skipped.code == Code.SKIP
        return
    per_node, arrays = _both_paths(plugin, state, pod, infos)
    assert all(50 <= s <= 100 for s in per_node)
    assert arrays == per_node
    # A pod bound since: the array path's balances without the pod follow it.
    infos[-1].add_pod(make_pod("later", requests={"cpu": "500m", "memory": "1000"}, node="n0"))
    per_node, arrays = _both_paths(plugin, state, pod, infos)
    assert arrays == per_node


@pytest.mark.parametrize(("version", "skipped"), [("1.30", False), ("1.32", False), ("1.36", True)])
def test_best_effort_pod(version: str, skipped: bool) -> None:
    nodes = [make_node("node1", cpu="4000m", memory="10000"),
             make_node("node2", cpu="4000m", memory="10000")]
    handle = FakeHandle(nodes, features=release(version).features)
    plugin = BalancedAllocation(NodeResourcesBalancedAllocationArgs(CPU_MEM), handle)
    status = plugin.pre_score(CycleState(), make_pod("pod"), handle.snapshot.list())
    assert (status is not None and status.code == Code.SKIP) is skipped


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 16000), st.integers(0, 8), st.integers(0, 16000),
                  st.integers(0, 8)),
        min_size=1, max_size=6,
    ),
    st.integers(1, 8000), st.integers(0, 2),
)
def test_change_in_balance_with_an_extended_resource_arrays_equal_per_node(
    shapes: list[tuple[int, int, int, int]], pod_cpu: int, pod_gpu: int
) -> None:
    """cpu and a GPU: whether the pod requests the GPU decides whether it counts, so pods
    with and without it read different balances-without-the-pod; both paths agree, for
    either pod, before and after a bind."""
    gpu = "nvidia.com/gpu"
    nodes = [
        make_node(f"n{i}", cpu=f"{c}m", extra={gpu: str(g)} if g else None)
        for i, (c, g, _, _) in enumerate(shapes)
    ]
    running = []
    for i, (c, g, rc, rg) in enumerate(shapes):
        requests = {"cpu": f"{min(rc, c)}m"}
        if g and rg:
            requests[gpu] = str(min(rg, g))
        running.append(make_pod(f"r{i}", requests=requests, node=f"n{i}"))
    handle = FakeHandle(nodes, running, features=release("1.36").features)
    plugin = BalancedAllocation(
        NodeResourcesBalancedAllocationArgs([ResourceSpec("cpu", 1), ResourceSpec(gpu, 1)]),
        handle,
    )
    infos = handle.snapshot.list()
    with_gpu = {"cpu": f"{pod_cpu}m", gpu: str(pod_gpu)} if pod_gpu else {"cpu": f"{pod_cpu}m"}
    pods = [make_pod("plain", requests={"cpu": f"{pod_cpu}m"}), make_pod("gpu", requests=with_gpu)]
    for bound in (False, True):
        if bound:
            infos[0].add_pod(make_pod("later", requests={"cpu": "100m", gpu: "1"}, node="n0"))
        for pod in pods:
            state = CycleState()
            assert plugin.pre_score(state, pod, infos) is None
            per_node, arrays = _both_paths(plugin, state, pod, infos)
            assert arrays == per_node, (pod.name, bound)
