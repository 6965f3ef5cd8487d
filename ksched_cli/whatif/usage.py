"""Per-node "Allocated resources" (kubectl describe node) of a cluster's bound pods."""

from __future__ import annotations

import gc
from collections.abc import Iterable

from ..api.node import Node
from ..api.pod import Pod
from .model import NodeUsage


def node_usage(nodes: Iterable[Node], pods: Iterable[Pod]) -> list[NodeUsage]:
    """Requested vs allocatable cpu, memory and pods per node, nodes sorted by name."""
    # Thousands of new objects on a heap of millions would start a full collection of
    # the cyclic GC (most of this function's time); these rows form no cycles.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _usage(nodes, pods)
    finally:
        if enabled:
            gc.enable()


def _usage(nodes: Iterable[Node], pods: Iterable[Pod]) -> list[NodeUsage]:
    usage = {
        n.name: NodeUsage(
            n.name,
            0,
            n.allocatable.get("cpu", 0),
            0,
            n.allocatable.get("memory", 0),
            0,
            n.allocatable.get("pods", 0),
            n.unschedulable,
        )
        for n in nodes
    }
    for pod in pods:
        row = usage.get(pod.node_name) if pod.node_name else None
        if row is None:
            continue
        row.cpu_requested += pod.requests.get("cpu", 0)
        row.memory_requested += pod.requests.get("memory", 0)
        row.pods += 1
    return [usage[name] for name in sorted(usage)]


def percent(requested: int, allocatable: int) -> int:
    """kubectl's share: float division, times 100, truncated (0 when nothing is allocatable)."""
    if allocatable <= 0:
        return 0
    return int(requested / allocatable * 100)
