"""NodeName: a pod with spec.nodeName fits only that node (nodename/node_name.go)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..api.pod import Pod
from ..framework.columns import BoolArray, NodeColumns
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import NodeInfo
from ..framework.status import Code, Status
from .helpers.prepare import live_columns, one_per_shape

NAME = "NodeName"
ERR_REASON = "node(s) didn't match the requested node name"


def fits(pod: Pod, node_info: NodeInfo) -> bool:
    return not pod.node_name or pod.node_name == node_info.node.name


class Plugin:
    name = NAME

    def __init__(self, args: Any = None, handle: Handle | None = None) -> None:
        self.handle = handle

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        if fits(pod, node_info):
            return None
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON)

    def prepare(self, pods: Sequence[Pod], points: frozenset[str]) -> None:
        """The static masks the pods' Filter reads, made before the first attempt."""
        columns = live_columns(self.handle)
        if columns is not None and "filter" in points:
            for pod in one_per_shape(pods, lambda p: p.node_name):
                self.filter_mask(CycleState(), pod, columns)

    def filter_mask(self, state: CycleState, pod: Pod, columns: NodeColumns) -> BoolArray:
        return columns.static_mask((NAME, pod.node_name), lambda ni: fits(pod, ni))
