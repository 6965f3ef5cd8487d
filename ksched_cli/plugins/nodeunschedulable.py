"""NodeUnschedulable: cordoned nodes take only pods tolerating the unschedulable taint.

Port of nodeunschedulable/node_unschedulable.go.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..api.node import Taint
from ..api.pod import Pod
from ..framework.columns import BoolArray, NodeColumns
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import NodeInfo
from ..framework.status import Code, Status
from .helpers.prepare import live_columns, one_per_shape
from .helpers.taints import NO_SCHEDULE, tolerations_tolerate_taint

NAME = "NodeUnschedulable"
ERR_REASON_UNKNOWN_CONDITION = "node(s) had unknown conditions"
ERR_REASON_UNSCHEDULABLE = "node(s) were unschedulable"

# spec.unschedulable is checked as if the node carried this taint.
UNSCHEDULABLE_TAINT = Taint("node.kubernetes.io/unschedulable", "", NO_SCHEDULE)


class Plugin:
    name = NAME

    def __init__(self, args: Any = None, handle: Handle | None = None) -> None:
        self.handle = handle

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        if not node_info.node.unschedulable:
            return None
        if tolerations_tolerate_taint(pod.tolerations, UNSCHEDULABLE_TAINT):
            return None
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_UNSCHEDULABLE)

    def prepare(self, pods: Sequence[Pod], points: frozenset[str]) -> None:
        """The static masks the pods' Filter reads, made before the first attempt."""
        columns = live_columns(self.handle)
        if columns is not None and "filter" in points:
            for pod in one_per_shape(pods, lambda p: p.tolerations):
                self.filter_mask(CycleState(), pod, columns)

    def filter_mask(self, state: CycleState, pod: Pod, columns: NodeColumns) -> BoolArray:
        """Cordoned nodes fail unless the pod tolerates the unschedulable taint."""
        if tolerations_tolerate_taint(pod.tolerations, UNSCHEDULABLE_TAINT):
            return columns.static_mask((NAME, True), lambda ni: True)
        return columns.static_mask((NAME, False), lambda ni: not ni.node.unschedulable)
