"""NodeResourcesBalancedAllocation per release: TestNodeResourcesBalancedAllocation rows.

The table is upstream's (balanced_allocation_test.go of the v1.33-v1.35 line, the rows
without DRA objects); its first row, the best-effort pod, is skipped at PreScore only from
v1.33 and scores as any pod before.
"""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.config.args import NodeResourcesBalancedAllocationArgs, ResourceSpec
from ksched_cli.framework.cycle_state import CycleState
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

ROWS: list[tuple[str, dict[str, Any], list[tuple[str, str, str, dict[str, str] | None]],
                 list[dict[str, Any]], list[ResourceSpec], list[int]]] = [
    ("nothing scheduled, resources requested, differently sized nodes",
     cpu_and_memory(""), [("node1", "4000m", "10000", None), ("node2", "6000m", "10000", None)],
     [], CPU_MEM, [87, 100]),
    ("resources requested, pods scheduled with resources",
     cpu_and_memory(""), [("node1", "10000m", "20000", None), ("node2", "10000m", "20000", None)],
     [cpu_only("node1"), cpu_and_memory("node2")], CPU_MEM, [82, 95]),
    ("resources requested, pods scheduled with resources, differently sized nodes",
     cpu_and_memory(""), [("node1", "10000m", "20000", None), ("node2", "10000m", "50000", None)],
     [cpu_only("node1"), cpu_and_memory("node2")], CPU_MEM, [82, 80]),
    ("requested resources at node capacity",
     cpu_only(""), [("node1", "6000m", "10000", None), ("node2", "6000m", "10000", None)],
     [cpu_only("node1"), cpu_and_memory("node2")], CPU_MEM, [50, 75]),
    ("include scalar resource on a node for balanced resource allocation",
     _spec("", {"memory": "0", "nvidia.com/gpu": "1"}),
     [("node1", "3500m", "40000", GPU8), ("node2", "3500m", "40000", GPU8)],
     [cpu_and_memory("node2"), cpu_memory_gpu("node1")], WITH_GPU, [70, 65]),
    ("node without the scalar resource should skip the scalar resource",
     cpu_and_memory(""), [("node1", "3500m", "40000", GPU8), ("node2", "3500m", "40000", None)],
     [], WITH_GPU, [63, 63]),
]


@pytest.mark.parametrize("version", ["1.30", "1.32", "1.36"])
@pytest.mark.parametrize(
    ("name", "pod_spec", "nodes", "pods", "resources", "scores"), ROWS, ids=[r[0] for r in ROWS]
)
def test_scores(
    version: str, name: str, pod_spec: dict[str, Any],
    nodes: list[tuple[str, str, str, dict[str, str] | None]], pods: list[dict[str, Any]],
    resources: list[ResourceSpec], scores: list[int],
) -> None:
    built = [make_node(n, cpu=c, memory=m, extra=x) for n, c, m, x in nodes]
    running = [make_pod(f"running-{i}", spec=s, node=s["nodeName"]) for i, s in enumerate(pods)]
    handle = FakeHandle(built, running, features=release(version).features)
    plugin = BalancedAllocation(NodeResourcesBalancedAllocationArgs(resources), handle)
    pod = make_pod("pod", spec={k: v for k, v in pod_spec.items() if k != "nodeName"})
    state = CycleState()
    assert plugin.pre_score(state, pod, handle.snapshot.list()) is None
    got = [plugin.score(state, pod, ni)[0] for ni in handle.snapshot.list()]
    assert got == scores, name


@pytest.mark.parametrize(("version", "skipped"), [("1.30", False), ("1.32", False), ("1.36", True)])
def test_best_effort_pod(version: str, skipped: bool) -> None:
    nodes = [make_node("node1", cpu="4000m", memory="10000"),
             make_node("node2", cpu="4000m", memory="10000")]
    handle = FakeHandle(nodes, features=release(version).features)
    plugin = BalancedAllocation(NodeResourcesBalancedAllocationArgs(CPU_MEM), handle)
    status = plugin.pre_score(CycleState(), make_pod("pod"), handle.snapshot.list())
    assert (status is not None and status.code == Code.SKIP) is skipped
