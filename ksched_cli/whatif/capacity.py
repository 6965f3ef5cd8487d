"""How many more copies of a pod fit, as cluster-capacity counts them.

One engine runs: the input's own pending pods are planned first, then copies of the
pod enter the queue one at a time, each when the previous one has been decided. The
count stops at the first copy whose first attempt does not schedule it (its message is
the answer to "what stops the next one"; a copy that preempts stops it too, as
cluster-capacity stops at the first Unschedulable condition), or at ``--max``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import field

from .. import limits
from ..api.pod import Pod
from ..config.types import SchedulerConfig
from ..engine import records as rec
from ..engine.cluster import Cluster
from ..engine.engine import Engine, EngineOptions
from ..record import record
from .model import NodeUsage
from .pending_copy import copy_pending
from .usage import node_usage

STOP_UNSCHEDULABLE = "Unschedulable"
STOP_LIMIT = "LimitReached"


@record
class CapacityResult:
    pod: str  # the template's namespace/name
    profile: str
    count: int = 0
    per_node: dict[str, int] = field(default_factory=dict)
    stop_reason: str = ""  # STOP_UNSCHEDULABLE or STOP_LIMIT
    message: str = ""  # the scheduler's message for the copy that did not fit
    limit: int | None = None
    before: list[NodeUsage] = field(default_factory=list)
    after: list[NodeUsage] = field(default_factory=list)


def copy_name(template: Pod, index: int) -> str:
    return f"{template.name}-{index}"


def count_capacity(
    config: SchedulerConfig,
    cluster: Cluster,
    template: Pod,
    limit: int | None = None,
    options: EngineOptions | None = None,
) -> CapacityResult:
    result = CapacityResult(template.key, template.scheduler_name, limit=limit,
                            before=node_usage(cluster.nodes, cluster.pods))
    engine = Engine(config, cluster, options or EngineOptions(record="summary"))
    engine.start()
    engine.run_until()
    per_node: Counter[str] = Counter()
    taken = {p.key for p in cluster.pods}
    index = max((p.load_index for p in cluster.pods), default=-1) + 1
    number = 0
    while limit is None or result.count < limit:
        # Copies are pods this run creates: a pod without requests on a node allowing
        # 2**63 pods would fit forever.
        limits.check_pods(cluster.created_pods + result.count + 1, f"capacity {template.key}")
        number += 1
        name = copy_name(template, number)
        if f"{template.namespace}/{name}" in taken:
            continue
        copy = copy_pending(template, name, index + number, f"capacity/{template.key}#{number}")
        seen = len(engine.plan.attempts)
        engine.add_pending(copy)
        # Time stands still while copies come: only the copy (and pods its binding moved
        # back to activeQ) is attempted, never a retry after a backoff.
        engine.run_until(engine.clock)
        first = next((a for a in engine.plan.attempts[seen:] if a.pod == copy.key), None)
        if first is None or first.result != rec.SCHEDULED:
            result.stop_reason = STOP_UNSCHEDULABLE
            result.message = _message(engine, copy, first)
            break
        per_node[first.node] += 1
        result.count += 1
    else:
        result.stop_reason = STOP_LIMIT
    engine.finish()
    result.per_node = dict(sorted(per_node.items()))
    result.after = node_usage(cluster.nodes, cluster.pods)
    return result


def _message(engine: Engine, copy: Pod, first: rec.Attempt | None) -> str:
    if first is not None:
        return first.message
    decision = engine.plan.decision_for(copy.key)  # skipped or gated: never attempted
    return (decision.message or decision.note) if decision is not None else ""
