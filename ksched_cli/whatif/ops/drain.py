"""``--drain NODE`` / ``--drain -l SELECTOR``: cordon, then evict as kubectl drain does."""

from __future__ import annotations

from ...api.node import Node
from ...api.pod import Pod
from ...engine.cluster import Cluster
from ...engine.pdb_status import refresh
from ...record import record
from ..drain_filters import delete_status, warnings
from ..eviction import evict
from ..model import BLOCKED, EVICTED, LOST, STAYS, OperationResult, PodChange
from .base import NodeOperation, OpContext, owner_text

MIRROR_REASON = "mirror pod: the kubelet owns it"
LOST_REASON = "deleting Pods that declare no controller: nothing recreates it"


@record
class Drain(NodeOperation):
    def apply(self, ctx: OpContext) -> OperationResult:
        result = OperationResult(self.text, ctx.time)
        nodes = self.choice.nodes(ctx.cluster)
        # kubectl drain cordons every selected node before it evicts from the first.
        for node in nodes:
            result.nodes.append(node.name)
            if not node.unschedulable:
                ctx.target.set_unschedulable(node, True)
        for node in nodes:
            removed = _evict_node(ctx, node, result)
            ctx.recreate(removed, result)
        return result


def pods_on(cluster: Cluster, node: str) -> list[Pod]:
    """The node's pods as the API server lists them: by namespace, then name."""
    return sorted(
        (p for p in cluster.pods if p.node_name == node), key=lambda p: (p.namespace, p.name)
    )


def _evict_node(ctx: OpContext, node: Node, result: OperationResult) -> list[Pod]:
    statuses = [(pod, delete_status(pod)) for pod in pods_on(ctx.cluster, node.name)]
    result.warnings.extend(f"{node.name}: {w}" for w in warnings(statuses))
    removed: list[Pod] = []
    for pod, status in statuses:
        change = PodChange(
            pod.key, "", node.name, workload=owner_text(pod), operation=result.operation
        )
        result.changes.append(change)
        if not status.delete:
            change.change = STAYS
            change.reason = status.message or MIRROR_REASON
            continue
        refresh(ctx.cluster.pdbs, ctx.cluster)  # the disruption controller's view right now
        eviction = evict(pod, ctx.cluster.pdbs)
        if not eviction.allowed:
            change.change, change.reason, change.pdb = BLOCKED, eviction.message, eviction.pdb
            if ctx.retries is not None:
                ctx.retries.add(pod, change, result, ctx.time, ctx.cluster.pods)
            continue
        ctx.target.delete_pod(pod)
        removed.append(pod)
        owned = pod.meta.controller_ref() is not None
        change.change = EVICTED if owned else LOST
        change.reason = _evicted_reason(ctx, eviction.pdb) if owned else LOST_REASON
    return removed


def _evicted_reason(ctx: OpContext, pdb_key: str) -> str:
    if not pdb_key:
        return "evicted (no PodDisruptionBudget)"
    pdb = next(p for p in ctx.cluster.pdbs if f"{p.meta.namespace}/{p.meta.name}" == pdb_key)
    return f"evicted; PodDisruptionBudget {pdb_key} allows {pdb.disruptions_allowed} more"
