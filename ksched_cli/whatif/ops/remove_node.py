"""``--remove-node NODE`` / ``-l``: the node is gone, as after a failure.

Its pods are deleted without any budget check (the pod garbage collector deletes pods
bound to a node that no longer exists); controllers replace theirs elsewhere.
"""

from __future__ import annotations

from ...record import record
from ..model import DELETED, LOST, OperationResult, PodChange
from .base import NodeOperation, OpContext, owner_text
from .drain import pods_on


@record
class RemoveNode(NodeOperation):
    def apply(self, ctx: OpContext) -> OperationResult:
        result = OperationResult(self.text, ctx.time)
        for node in self.choice.nodes(ctx.cluster):
            result.nodes.append(node.name)
            pods = pods_on(ctx.cluster, node.name)
            for pod in pods:
                ctx.target.delete_pod(pod)
                result.changes.append(_change(pod.key, node.name, owner_text(pod), result))
            ctx.target.remove_node(node)
            ctx.recreate(pods, result)
        return result


def _change(key: str, node: str, owner: str, result: OperationResult) -> PodChange:
    if not owner:
        return PodChange(key, LOST, node, "its node was removed; no controller recreates it",
                         operation=result.operation)
    if owner.startswith("daemonset/"):
        why = "its node was removed; the DaemonSet runs no pod for a missing node"
    else:
        why = "its node was removed"
    return PodChange(key, DELETED, node, why, workload=owner, operation=result.operation)
