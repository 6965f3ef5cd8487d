"""A drain that waits, as kubectl drain's evictPods does (k8s.io/kubectl/pkg/drain):
an eviction refused with 429 TooManyRequests (a PodDisruptionBudget allowing no
disruption now) is asked again every 5 s until it is accepted or the drain's global
timeout passes; any other refusal is final. On the simulated clock the retries
interleave with the scheduler, so the pods that replace evicted ones bind, become
healthy, and let the budget allow the next eviction."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import field, replace
from typing import TYPE_CHECKING

from ..api.pod import Pod
from ..engine.cluster import Cluster
from ..engine.engine import Engine
from ..engine.pdb_status import healthy, refresh, selected_pods
from ..record import record
from .eviction import TOO_MANY_REQUESTS, evict
from .model import EVICTED, OperationResult, PodChange

if TYPE_CHECKING:
    from .ops.base import OpContext

RETRY_SECONDS = 5.0  # kubectl drain's EvictErrorRetryDelay


@record
class Waiting:
    """One eviction kubectl keeps asking for."""

    pod: Pod
    change: PodChange  # its BlockedDrain change in the drain's result
    result: OperationResult  # the drain that asked
    since: float  # when the drain began (its global timeout counts from there)
    healthy_then: frozenset[str] = frozenset()


@record
class DrainRetries:
    timeout: float | None = None  # seconds; None: kubectl's default, no limit
    waiting: list[Waiting] = field(default_factory=list)
    next_time: float | None = None

    def add(self, pod: Pod, change: PodChange, result: OperationResult, now: float,
            pods: list[Pod]) -> None:
        """Keep asking for a refused eviction when kubectl would (a 429 refusal)."""
        if not change.reason.startswith(TOO_MANY_REQUESTS):
            return
        healthy_now = frozenset(p.key for p in pods if healthy(p))
        self.waiting.append(Waiting(pod, change, result, now, healthy_now))
        if self.next_time is None:
            self.next_time = now + RETRY_SECONDS

    def retry(self, ctx: OpContext, now: float, result: OperationResult) -> list[Waiting]:
        """Ask again for every waiting eviction, in the order they were first refused;
        the accepted ones are evicted into ``result`` and their controllers recreate them."""
        accepted: list[Waiting] = []
        still: list[Waiting] = []
        cluster = ctx.cluster
        for wait in self.waiting:
            if wait.pod not in cluster.pods:
                continue  # deleted meanwhile (a later step): kubectl's NotFound ends it
            if self.timeout is not None and now - wait.since >= self.timeout:
                result.changes.append(_final(wait, (
                    f"at {now:g}s kubectl drain gives up: error when evicting pods/"
                    f'"{wait.pod.name}" -n "{wait.pod.namespace}": global timeout reached: '
                    f"{go_seconds(self.timeout)}")))
                continue
            refresh(cluster.pdbs, cluster)
            if not evict(wait.pod, cluster.pdbs).allowed:
                still.append(wait)
                continue
            result.changes.append(_evicted(cluster, wait, now))
            ctx.target.delete_pod(wait.pod)
            accepted.append(wait)
        self.waiting = still
        self.next_time = now + RETRY_SECONDS if still else None
        ctx.recreate([w.pod for w in accepted], result)
        return accepted

    def skip_to_after(self, limit: float) -> None:
        """Nothing changes before ``limit``: the next retry that can see it."""
        if self.next_time is not None and self.next_time <= limit:
            steps = math.floor((limit - self.next_time) / RETRY_SECONDS) + 1
            self.next_time += steps * RETRY_SECONDS

    def give_up(self, cluster: Cluster, now: float, result: OperationResult) -> None:
        """Nothing more can change: each waiting pod says what the drain still waits for."""
        for wait in self.waiting:
            result.changes.append(_final(wait, (
                f"kubectl drain would still be waiting at {now:g}s: "
                f"{why_stuck(cluster, wait.change.pdb)}")))
        self.waiting, self.next_time = [], None


def _final(wait: Waiting, why: str) -> PodChange:
    """The refused eviction as the drain leaves it."""
    return replace(wait.change, reason=f"{wait.change.reason}; {why}")


def _evicted(cluster: Cluster, wait: Waiting, now: float) -> PodChange:
    pdb = next(p for p in cluster.pdbs if f"{p.meta.namespace}/{p.meta.name}" == wait.change.pdb)
    joined = sorted(p.key for p in selected_pods(pdb, cluster.pods)
                    if healthy(p) and p.key not in wait.healthy_then)
    by = f" until {', '.join(joined)} became healthy" if joined else ""
    return PodChange(
        wait.pod.key, EVICTED, wait.change.node,
        f"evicted at {now:g}s: waited {now - wait.since:g}s for PodDisruptionBudget "
        f"{wait.change.pdb}{by}", wait.change.workload, pdb=wait.change.pdb,
        operation=wait.change.operation)


def why_stuck(cluster: Cluster, pdb_key: str) -> str:
    """Why a budget will not allow the eviction, read from its status now."""
    pdb = next((p for p in cluster.pdbs if f"{p.meta.namespace}/{p.meta.name}" == pdb_key), None)
    if pdb is None:
        return f"PodDisruptionBudget {pdb_key} is gone"
    refresh([pdb], cluster)
    desired, current, expected = pdb.desired_healthy, pdb.current_healthy, pdb.expected_pods
    head = f"PodDisruptionBudget {pdb_key} needs {desired} healthy pods and has {current}"
    if expected > 0 and desired >= expected:
        spec = (f"minAvailable {pdb.min_available}" if pdb.min_available is not None
                else f"maxUnavailable {pdb.max_unavailable}")
        return (f"{head}; its {spec} asks for all {expected} pod(s) it expects, so it never "
                "allows an eviction")
    unhealthy = sorted(p.key for p in selected_pods(pdb, cluster.pods) if not healthy(p))
    if unhealthy:
        return f"{head}; waiting for {', '.join(unhealthy)} (not bound) to become healthy"
    return head


def idle(engine: Engine) -> bool:
    """The scheduler has nothing left to do until something changes."""
    return engine.queue.next_backoff_expiry() is None and engine.cycle.next_deadline() is None


def drive(engine: Engine, ctx: OpContext, retries: DrainRetries, until: float | None,
          on_retry: Callable[[float, OperationResult], None]) -> None:
    """Run the engine to ``until`` (None: to the end), retrying the waiting evictions
    at their times; a retry that changes nothing while the scheduler is idle stops them
    until ``until`` (at the end: for good, saying what they still wait for)."""
    while retries.next_time is not None and (until is None or retries.next_time <= until):
        now = retries.next_time
        engine.run_until(now)
        ctx.time = now
        result = OperationResult(_retry_text(retries), now)
        retries.retry(ctx, now, result)
        if result.changes:
            on_retry(now, result)
        elif idle(engine):
            if until is not None:
                retries.skip_to_after(until)
                break
            engine.run_until(None)
            result = OperationResult("drain still waiting: nothing more can change", now)
            retries.give_up(ctx.cluster, now, result)
            on_retry(now, result)
            return
    engine.run_until(until)


def _retry_text(retries: DrainRetries) -> str:
    ops = sorted({w.change.operation for w in retries.waiting})
    return f"retry evictions ({', '.join(ops)})"


def go_seconds(seconds: float) -> str:
    """time.Duration's text for whole seconds (30s, 2m0s, 1h0m0s)."""
    whole = int(seconds)
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    if h:
        return f"{h}h{m}m{s}s"
    if m:
        return f"{m}m{s}s"
    return f"{seconds:g}s"
