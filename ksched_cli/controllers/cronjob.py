"""The CronJob controller (pkg/controller/cronjob: getJobFromTemplate2), planned as one run.

A plan has no wall clock to fire schedules on: the CronJob creates one Job from its
jobTemplate, ``<cronjob>-<minutes>``, as if the schedule fired at the plan's start
instant (docs/semantics.md), unless a Job of that name already exists. Its Jobs in the
input are synced as the Job controller syncs them; their pods roll up to the CronJob.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from ..api.meta import ObjectMeta, OwnerReference
from ..api.selectors import LabelSelector, Requirement
from ..api.workloads import (
    JOB_SELECTOR_LABEL,
    CronJobSpec,
    Workload,
    cron_job_name,
    object_uid,
    with_generated_labels,
)
from .context import Context
from .interface import Outcome
from .job import sync_job

KIND = "CronJob"
ANN_SCHEDULED = "batch.kubernetes.io/cronjob-scheduled-timestamp"


class CronJobController:
    kind = KIND
    cluster_list = "cron_jobs"

    def managed_elsewhere(self, workload: Workload, ctx: Context) -> bool:
        return False

    def sync(self, workload: Workload, ctx: Context) -> Outcome:
        spec = workload.controller
        assert isinstance(spec, CronJobSpec)
        outcome = Outcome()
        jobs = [j for j in ctx.cluster.jobs if j.namespace == workload.namespace
                and (ref := j.meta.controller_ref()) is not None
                and ref.kind == KIND and ref.name == workload.name]
        name = cron_job_name(workload.name, ctx.start)
        if spec.suspend:
            outcome.notes.append(f"{workload.ref}: suspended, no Job planned")
        elif all(j.name != name for j in jobs):
            job = new_job(workload, spec, name, ctx)
            outcome.workloads.append(job)
            outcome.notes.append(f"{workload.ref}: planned as one run, Job {name} from its "
                                 "jobTemplate")
            jobs.append(job)
        for job in jobs:
            outcome.extend(sync_job(job, ctx, workload.ref))
        return outcome


def new_job(cron: Workload, spec: CronJobSpec, name: str, ctx: Context) -> Workload:
    """getJobFromTemplate2: the jobTemplate's metadata and spec, owned by the CronJob."""
    annotations = {**spec.job_annotations, ANN_SCHEDULED: _rfc3339(ctx.start)}
    meta = ObjectMeta(name=name, namespace=cron.namespace, labels=dict(spec.job_labels),
                      annotations=annotations, creation_timestamp=ctx.now,
                      owner_references=(OwnerReference(KIND, cron.name, True),))
    uid = object_uid(meta, "Job")
    job = spec.job
    template = with_generated_labels(job.template, name, uid)
    selector = LabelSelector((Requirement(JOB_SELECTOR_LABEL, "In", (uid,)),))
    return Workload("Job", meta, selector, None, replace(job, template=template, uid=uid))


def _rfc3339(instant: float) -> str:
    return datetime.fromtimestamp(instant, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
