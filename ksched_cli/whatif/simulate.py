"""``ksched simulate``: a scenario's steps applied to a running engine at their times.

The engine schedules until a step's time (pods in backoff come back, Permit timeouts
fire), then the step changes the cluster through ``LiveTarget``, whose event handlers
move unschedulable pods back to the queue; after the last step the engine runs until
nothing is left to do.
"""

from __future__ import annotations

from dataclasses import field

from ..config.types import SchedulerConfig
from ..engine.cluster import Cluster
from ..engine.engine import Engine, EngineOptions
from ..engine.records import Attempt, Plan
from ..errors import KschedError
from ..record import record
from .apply import finish_report
from .controllers_reconciler import default_reconciler
from .drain_wait import DrainRetries, drive
from .live_target import LiveTarget, Requeue
from .model import OperationResult, WhatIfReport
from .ops.base import OpContext, Operation
from .ops.objects import CreateObjects, DeleteObject
from .ops.registry import parse_operation
from .reconcile import Reconciler
from .scenario import ACTIONS, Scenario, Step
from .usage import node_usage


@record
class TimelineEntry:
    time: float
    step: str  # the step as written, or "start"
    operation: OperationResult | None = None
    requeued: list[Requeue] = field(default_factory=list)
    # The scheduling attempts from this step until the next one.
    attempts: list[Attempt] = field(default_factory=list)


@record
class Timeline:
    entries: list[TimelineEntry]
    report: WhatIfReport
    plan: Plan


def step_operation(scenario: Scenario, step: Step) -> Operation:
    """The operation a step stands for; a malformed value is an error at the step."""
    try:
        if step.action == "create":
            return CreateObjects(scenario.resolve(step.value), step.describe())
        if step.action == "delete":
            v = step.value
            namespace = "" if v["kind"] == "Node" else (v.get("namespace") or "default")
            return DeleteObject(v["kind"], v["name"], namespace, step.describe())
        value = step.value
        if step.action == "addNodes":
            file, _, count = value.rpartition("=")
            value = f"{scenario.resolve(file)}={count}"
        op = parse_operation(ACTIONS[step.action], value)
        op.text = step.describe()
        return op
    except KschedError as exc:
        raise scenario.error(step.field, exc.message) from None


def simulate(
    config: SchedulerConfig,
    cluster: Cluster,
    scenario: Scenario,
    options: EngineOptions | None = None,
    reconciler: Reconciler | None = None,
    drain_timeout: float | None = None,
) -> Timeline:
    operations = [step_operation(scenario, s) for s in scenario.steps]
    report = WhatIfReport(before=node_usage(cluster.nodes, cluster.pods))
    engine = Engine(config, cluster, options or EngineOptions(record="summary"))
    target = LiveTarget(engine)
    retries = DrainRetries(drain_timeout)
    ctx = OpContext(target, reconciler or default_reconciler(), retries=retries)
    engine.start()
    entries = [TimelineEntry(0.0, "start")]
    recorder = _Recorder(engine, entries, target, report)
    for step, op in zip(scenario.steps, operations, strict=True):
        drive(engine, ctx, retries, step.time, recorder.on_retry)
        recorder.flush()
        ctx.time = step.time
        try:
            op.check(cluster)
            result = op.apply(ctx)
        except KschedError as exc:
            raise scenario.error(step.field, f"at {step.time:g}s: {exc.message}") from None
        report.operations.append(result)
        entries.append(TimelineEntry(step.time, step.describe(), result, target.take_requeues()))
    drive(engine, ctx, retries, None, recorder.on_retry)
    recorder.flush()
    plan = engine.finish()
    plan.notes.extend(ctx.notes)
    finish_report(report, cluster, plan)
    return Timeline(entries, report, plan)


class _Recorder:
    """Each scheduling attempt goes to the timeline entry current when it was made; a
    drain's retry that evicted something is an entry of its own."""

    def __init__(self, engine: Engine, entries: list[TimelineEntry], target: LiveTarget,
                 report: WhatIfReport) -> None:
        self.engine, self.entries, self.target, self.report = engine, entries, target, report
        self.seen = 0

    def flush(self) -> None:
        attempts = self.engine.plan.attempts
        self.entries[-1].attempts.extend(attempts[self.seen:])
        self.seen = len(attempts)

    def on_retry(self, now: float, result: OperationResult) -> None:
        self.flush()
        self.report.operations.append(result)
        self.entries.append(TimelineEntry(now, result.operation, result,
                                          self.target.take_requeues()))
