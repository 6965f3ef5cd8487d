"""``--cordon NODE`` and ``--uncordon NODE``: spec.unschedulable, as kubectl sets it."""

from __future__ import annotations

from ...record import record
from ..model import OperationResult
from .base import NodeOperation, OpContext


@record
class Cordon(NodeOperation):
    unschedulable: bool = True

    def apply(self, ctx: OpContext) -> OperationResult:
        result = OperationResult(self.text, ctx.time)
        for node in self.choice.nodes(ctx.cluster):
            result.nodes.append(node.name)
            if node.unschedulable != self.unschedulable:
                ctx.target.set_unschedulable(node, self.unschedulable)
            else:
                state = "cordoned" if self.unschedulable else "schedulable"
                result.warnings.append(f"node {node.name} is already {state}")
        return result
