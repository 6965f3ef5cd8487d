"""Apply what-if operations to a loaded cluster and build the before/after report."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cluster import Cluster
from ..engine.engine import Engine
from ..engine.pdb_status import fill_missing_statuses
from ..engine.records import SCHEDULED, Plan
from .controllers_reconciler import default_reconciler
from .drain_wait import DrainRetries, drive
from .live_target import LiveTarget
from .model import (
    BLOCKED,
    CREATED,
    EVICTED,
    MOVED,
    PENDING,
    PLACED,
    RECREATED,
    OperationResult,
    PodChange,
    WhatIfReport,
)
from .ops.base import OpContext, Operation
from .reconcile import Reconciler
from .static_target import StaticTarget
from .usage import node_usage


def apply_operations(
    cluster: Cluster,
    operations: Sequence[Operation],
    reconciler: Reconciler | None = None,
    drain_timeout: float | None = None,
) -> tuple[WhatIfReport, list[str]]:
    """Apply in order to the cluster as loaded; returns the report and the notes on how
    PodDisruptionBudget statuses were computed (the plan's --explain notes). Evictions
    a budget refused are asked for again while the plan runs (``run_plan``)."""
    report = WhatIfReport(before=node_usage(cluster.nodes, cluster.pods))
    # Budgets without a status are computed on the cluster before any operation, as the
    # disruption controller would have; evictions then decrement them.
    notes = fill_missing_statuses(cluster.pdbs, cluster.pods, cluster)
    retries = DrainRetries(drain_timeout)
    ctx = OpContext(StaticTarget(cluster), reconciler or default_reconciler(), retries=retries)
    for op in operations:
        op.check(cluster)  # checked in turn: an earlier operation may add what it names
        report.operations.append(op.apply(ctx))
    if retries.waiting:
        report.waiting = ctx
    return report, notes


def run_plan(engine: Engine, report: WhatIfReport | None) -> Plan:
    """The plan; a drain still waiting retries its evictions on the plan's clock, as
    kubectl drain would while the scheduler places the replacements."""
    ctx = report.waiting if report is not None else None
    if not isinstance(ctx, OpContext) or ctx.retries is None or report is None:
        return engine.run()
    engine.start()
    ctx.target = LiveTarget(engine)
    drive(engine, ctx, ctx.retries, None, _Merge(report).on_retry)
    return engine.finish()


class _Merge:
    """A retry's changes folded into the drain that asked: the refused pod's change
    becomes what the retry made of it, its replacements join the drain's changes."""

    def __init__(self, report: WhatIfReport) -> None:
        self.report = report

    def on_retry(self, now: float, result: OperationResult) -> None:
        target: OperationResult | None = None
        for change in result.changes:
            found = self._blocked(change)
            if found is not None:
                op, original = found
                original.change, original.reason = change.change, change.reason
                target = op
            elif target is not None:
                change.operation = target.operation
                target.changes.append(change)

    def _blocked(self, change: PodChange) -> tuple[OperationResult, PodChange] | None:
        if change.change not in (EVICTED, BLOCKED):
            return None
        for op in self.report.operations:
            for original in op.changes:
                if (original.pod, original.change, original.operation) == (
                        change.pod, BLOCKED, change.operation):
                    return op, original
        return None


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
