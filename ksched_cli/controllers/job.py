"""The Job controller (pkg/controller/job: manageJob, indexed_job_utils.go).

Active pods are wanted up to ``parallelism``, never more than the completions still to
go (``completions - status.succeeded``); a suspended or finished Job wants none.
Indexed Jobs create the lowest indexes neither succeeded nor active, each pod named
``<job>-<index>-<suffix>`` with the completion-index annotation and label and the
hostname ``<job>-<index>``.
"""

from __future__ import annotations

from ..api.pod import Pod
from ..api.workloads import JobSpec, Workload
from .context import Context
from .interface import Outcome
from .ranking import active_pods_order

KIND = "Job"
INDEX_KEY = "batch.kubernetes.io/job-completion-index"


def completion_index(pod: Pod) -> int:
    """getCompletionIndex: the annotation, else the label; -1 when absent or malformed."""
    text = pod.meta.annotations.get(INDEX_KEY, pod.labels.get(INDEX_KEY))
    if text is None or not text.isdigit():
        return -1
    return int(text)


def want_active(spec: JobSpec, active: int) -> int:
    if spec.suspend or spec.finished:
        return 0
    if spec.completions is None:
        # Without completions, once any pod succeeded the running ones are left to finish.
        return active if spec.succeeded > 0 else spec.parallelism
    return max(0, min(spec.completions - spec.succeeded, spec.parallelism))


def sync_job(job: Workload, ctx: Context, workload: str) -> Outcome:
    spec = job.controller
    assert isinstance(spec, JobSpec)
    outcome = Outcome()
    pods = ctx.claim_pods(job.namespace, KIND, job.name, job.selector)
    for pod in pods:
        pod.workload = workload
    want = want_active(spec, len(pods))
    if len(pods) > want:
        outcome.deleted = _for_removal(spec, pods, len(pods) - want)
        return outcome
    ctx.check_new_pods(want - len(pods), job)  # before any is made: parallelism may be huge
    prototype = ctx.prototype(spec.template)
    if not spec.indexed:
        for _ in range(want - len(pods)):
            name = ctx.generated_name(job.namespace, f"{job.name}-")
            outcome.created.append(ctx.stamp(prototype, job, workload, name,
                                             dict(spec.template.labels)))
        return outcome
    for index in _pending_indexes(spec, pods, want - len(pods)):
        name = ctx.generated_name(job.namespace, f"{job.name}-{index}-")
        labels = {**spec.template.labels, INDEX_KEY: str(index)}
        annotations = {**spec.template.annotations, INDEX_KEY: str(index)}
        hostname = spec.template.hostname or f"{job.name}-{index}"
        outcome.created.append(ctx.stamp(prototype, job, workload, name, labels, annotations,
                                         hostname=hostname))
    return outcome


def _pending_indexes(spec: JobSpec, pods: list[Pod], count: int) -> list[int]:
    """firstPendingIndexes: the lowest indexes neither succeeded nor held by an active pod."""
    assert spec.completions is not None
    taken = spec.completed_indexes | {completion_index(p) for p in pods}
    out: list[int] = []
    for index in range(spec.completions):
        if len(out) == count:
            break
        if index not in taken:
            out.append(index)
    return out


def _for_removal(spec: JobSpec, pods: list[Pod], count: int) -> list[Pod]:
    """activePodsForRemoval: for Indexed Jobs, pods with an index out of range, succeeded or
    held twice go first; then controller.ActivePods order."""
    if not spec.indexed:
        return active_pods_order(pods)[:count]
    assert spec.completions is not None
    seen: set[int] = set()
    bad, rest = [], []
    for pod in active_pods_order(pods)[::-1]:
        index = completion_index(pod)
        if (index < 0 or index >= spec.completions or index in spec.completed_indexes
                or index in seen):
            bad.append(pod)
        else:
            seen.add(index)
            rest.append(pod)
    return (bad + active_pods_order(rest))[:count]


class JobController:
    kind = KIND
    cluster_list = "jobs"

    def managed_elsewhere(self, workload: Workload, ctx: Context) -> bool:
        ref = workload.meta.controller_ref()
        return (
            ref is not None
            and ref.kind == "CronJob"
            and (workload.namespace, ref.name) in ctx.kinds_present("CronJob")
        )

    def sync(self, workload: Workload, ctx: Context) -> Outcome:
        ref = workload.meta.controller_ref()
        rolled_up = f"cronjob/{ref.name}" if ref is not None and ref.kind == "CronJob" else ""
        return sync_job(workload, ctx, rolled_up or workload.ref)
