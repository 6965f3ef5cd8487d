"""PrioritySort: the default QueueSort plugin (queuesort/priority_sort.go)."""

from __future__ import annotations

from typing import Any

from ..framework.interface import Handle
from ..framework.types import QueuedPodInfo

NAME = "PrioritySort"


class Plugin:
    """Higher priority first, then earlier queue timestamp, then load order."""

    name = NAME

    def __init__(self, args: Any = None, handle: Handle | None = None) -> None:
        pass

    def less(self, a: QueuedPodInfo, b: QueuedPodInfo) -> bool:
        p1, p2 = a.pod.priority, b.pod.priority
        if p1 != p2:
            return p1 > p2
        if a.timestamp != b.timestamp:
            return a.timestamp < b.timestamp
        # kube-scheduler's heap would break this tie arbitrarily; ksched keeps load order.
        return a.pod.load_index < b.pod.load_index
