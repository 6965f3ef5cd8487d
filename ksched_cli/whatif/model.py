"""The what-if answer as data: the cluster before and after, and what happened to pods.

Renderers (text, JSON/YAML and HTML) read only these types; docs/whatif.md
describes each field.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..record import record

# What an operation or the plan did to one pod (PodChange.change).
EVICTED = "Evicted"  # the eviction API accepted it; the pod is gone from its node
BLOCKED = "BlockedDrain"  # the eviction API refused it (a PodDisruptionBudget): it stays
STAYS = "Stays"  # a drain leaves it (DaemonSet-managed or mirror pod)
DELETED = "Deleted"  # its node was removed, or a controller scaled it away
LOST = "Lost"  # deleted and owned by no controller: nothing recreates it
RECREATED = "Recreated"  # a new pending pod its controller creates in place of a deleted one
CREATED = "Created"  # a new pending pod a controller creates (scale up, DaemonSet on a new node)
MOVED = "Moved"  # a recreated pod the plan placed (on another node than the pod it replaces)
PLACED = "Placed"  # a created pod the plan placed
PENDING = "Pending"  # a recreated or created pod the plan could not place


@record
class NodeUsage:
    """One node's "Allocated resources" as ``kubectl describe node`` shows them.

    cpu in millicores, memory in bytes; requests are the non-terminated pods' requests
    (init containers and overhead included, as kubectl's PodRequestsAndLimits sums them).
    """

    name: str
    cpu_requested: int
    cpu_allocatable: int
    memory_requested: int
    memory_allocatable: int
    pods: int
    pods_allocatable: int
    unschedulable: bool = False


@record
class PodChange:
    pod: str  # namespace/name
    change: str  # one of the constants above
    node: str = ""  # the node the pod was on (or, for Moved/Placed, the node it went to)
    reason: str = ""
    workload: str = ""  # "replicaset/web-5d4f", "" for a bare pod
    replaces: str = ""  # Recreated/Moved: the deleted pod this one replaces
    from_node: str = ""  # Moved: the node of the pod it replaces
    pdb: str = ""  # BlockedDrain: namespace/name of the refusing PodDisruptionBudget
    operation: str = ""  # the operation that caused it ("drain node-1"), "" for the plan


@record
class OperationResult:
    """One applied operation: its text as given, and what it did."""

    operation: str
    time: float = 0.0
    changes: list[PodChange] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)  # nodes it cordoned, removed or added

    def count(self, change: str) -> int:
        return sum(1 for c in self.changes if c.change == change)


@record
class WhatIfReport:
    operations: list[OperationResult] = field(default_factory=list)
    before: list[NodeUsage] = field(default_factory=list)
    after: list[NodeUsage] = field(default_factory=list)
    # The plan's effect on the pods the operations created: Moved, Placed or Pending.
    outcomes: list[PodChange] = field(default_factory=list)
    # Drains still asking for evictions when the plan starts (apply.run_plan retries
    # them on the plan's clock); not part of the report's data.
    waiting: Any = field(default=None, repr=False, compare=False)

    def disrupted(self) -> bool:
        """A drain was blocked or a pod was lost, or a created pod stayed pending."""
        return any(c.change in (BLOCKED, LOST, PENDING) for c in self.changes())

    def changes(self) -> list[PodChange]:
        """Every pod change in order: the operations', then the plan's."""
        return [c for op in self.operations for c in op.changes] + self.outcomes
