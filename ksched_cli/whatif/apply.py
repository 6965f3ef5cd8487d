"""Apply what-if operations to a loaded cluster and build the before/after report."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cluster import Cluster
from ..engine.pdb_status import fill_missing_statuses
from ..engine.records import SCHEDULED, Plan
from .model import CREATED, MOVED, PENDING, PLACED, RECREATED, PodChange, WhatIfReport
from .ops.base import OpContext, Operation
from .reconcile import Reconciler, default_reconciler
from .static_target import StaticTarget
from .usage import node_usage


def apply_operations(
    cluster: Cluster, operations: Sequence[Operation], reconciler: Reconciler | None = None
) -> tuple[WhatIfReport, list[str]]:
    """Apply in order to the cluster as loaded; returns the report and the notes on how
    PodDisruptionBudget statuses were computed (the plan's --explain notes)."""
    report = WhatIfReport(before=node_usage(cluster.nodes, cluster.pods))
    # Budgets without a status are computed on the cluster before any operation, as the
    # disruption controller would have; evictions then decrement them.
    notes = fill_missing_statuses(cluster.pdbs, cluster.pods, cluster)
    ctx = OpContext(StaticTarget(cluster), reconciler or default_reconciler())
    for op in operations:
        op.check(cluster)  # checked in turn: an earlier operation may add what it names
        report.operations.append(op.apply(ctx))
    return report, notes


def finish_report(report: WhatIfReport, cluster: Cluster, plan: Plan) -> None:
    """The cluster after the plan, and where the pods the operations created went."""
    report.after = node_usage(cluster.nodes, cluster.pods)
    decisions = {d.pod: d for d in plan.decisions}
    for change in report.changes():
        if change.change not in (RECREATED, CREATED):
            continue
        decision = decisions.get(change.pod)
        if decision is None:
            continue
        report.outcomes.append(_outcome(change, decision.outcome, decision.node,
                                        decision.message or decision.note))


def _outcome(change: PodChange, outcome: str, node: str, message: str) -> PodChange:
    if outcome == SCHEDULED:
        kind = MOVED if change.change == RECREATED else PLACED
        reason = f"scheduled on {node}" + (f" (was on {change.from_node})"
                                           if change.from_node else "")
        return PodChange(change.pod, kind, node, reason, change.workload, change.replaces,
                         change.from_node)
    return PodChange(change.pod, PENDING, "", f"{outcome}: {message}", change.workload,
                     change.replaces, change.from_node)
