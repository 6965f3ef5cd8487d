"""Placement changes counted per workload and per node: the summary a reviewer reads first."""

from __future__ import annotations

from ..api.owners import owner_label
from ..engine import records as rec
from ..record import record
from .model import ADDED, MOVED, NOT_PLACED, REMOVED, PodChange

BARE = "(bare pods)"


@record
class WorkloadCounts:
    workload: str  # "deployment/web" (namespaced like owner_label), or BARE
    added: int = 0
    removed: int = 0
    moved: int = 0
    unschedulable: int = 0  # became unschedulable (or gated, skipped) with head
    preempted: int = 0  # newly preempted with head
    other: int = 0  # other changes: became scheduled, victims changed

    @property
    def total(self) -> int:
        return self.added + self.removed + self.moved + self.unschedulable + self.preempted + (
            self.other
        )


@record
class NodeCounts:
    node: str
    arrived: int = 0  # pods on this node with head and not with base
    left: int = 0  # pods on this node with base and not with head


def workload_label(c: PodChange) -> str:
    return owner_label(c.pod, c.owner) if c.owner else BARE


def _count(counts: WorkloadCounts, c: PodChange) -> None:
    if ADDED in c.kinds:
        counts.added += 1
    elif REMOVED in c.kinds:
        counts.removed += 1
    elif MOVED in c.kinds:
        counts.moved += 1
    elif c.head is not None and c.head.outcome in NOT_PLACED:
        counts.unschedulable += 1
    elif c.head is not None and c.head.outcome == rec.PREEMPTED:
        counts.preempted += 1
    else:
        counts.other += 1


def by_workload(changes: list[PodChange]) -> list[WorkloadCounts]:
    """Most changed first; bare pods count as one group."""
    found: dict[str, WorkloadCounts] = {}
    for c in changes:
        label = workload_label(c)
        _count(found.setdefault(label, WorkloadCounts(label)), c)
    return sorted(found.values(), key=lambda w: (-w.total, w.workload))


def _node(state: object) -> str:
    outcome = getattr(state, "outcome", "")
    node = getattr(state, "node", "")
    return node if node and outcome not in NOT_PLACED and outcome != rec.PREEMPTED else ""


def by_node(changes: list[PodChange]) -> list[NodeCounts]:
    """Nodes that gained or lost pods, most traffic first."""
    found: dict[str, NodeCounts] = {}
    for c in changes:
        before, after = _node(c.base), _node(c.head)
        if before == after:
            continue
        if before:
            found.setdefault(before, NodeCounts(before)).left += 1
        if after:
            found.setdefault(after, NodeCounts(after)).arrived += 1
    return sorted(found.values(), key=lambda n: (-(n.arrived + n.left), n.node))


def newly_unschedulable(changes: list[PodChange]) -> list[PodChange]:
    return [
        c
        for c in changes
        if c.head is not None
        and c.head.outcome in NOT_PLACED
        and (c.base is None or c.base.outcome not in NOT_PLACED)
    ]
