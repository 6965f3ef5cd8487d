"""Job (parallelism, completions, Indexed) and CronJob (one run from jobTemplate)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ksched_cli.api.meta import OwnerReference

from .helpers import load, names, node, template, workload

JOB_TEMPLATE = template("", restart="Never")


def job(spec: str, status: str = "") -> str:
    return workload("Job", "x", spec + JOB_TEMPLATE, status=status)


@pytest.mark.parametrize(
    ("spec", "status", "count"),
    [
        ("", "", 1),  # neither given: one pod for one completion
        ("  parallelism: 4\n", "", 4),  # no completions: parallelism
        ("  parallelism: 4\n  completions: 2\n", "", 2),  # capped by completions
        ("  parallelism: 4\n  completions: 6\n", "status: {succeeded: 3}\n", 3),
        ("  parallelism: 4\n  completions: 6\n", "status: {succeeded: 6}\n", 0),
        ("  parallelism: 4\n", "status: {succeeded: 1}\n", 0),  # one success: no more
        ("  parallelism: 3\n  suspend: true\n", "", 0),
        ("  parallelism: 3\n",
         "status: {conditions: [{type: Complete, status: 'True'}]}\n", 0),
    ],
    ids=["defaults", "parallelism", "capped", "remaining", "done", "no-completions-success",
         "suspended", "finished"],
)
def test_job_pod_counts(tmp_path: Path, spec: str, status: str, count: int) -> None:
    cluster = load(tmp_path, node("n1"), job(spec, status)).cluster
    assert len(cluster.pods) == count
    for pod in cluster.pods:
        assert pod.name.startswith("x-") and pod.workload == "job/x"
        assert pod.meta.owner_references == (OwnerReference("Job", "x", True),)
        uid = pod.labels["batch.kubernetes.io/controller-uid"]
        assert pod.labels == {"job-name": "x", "batch.kubernetes.io/job-name": "x",
                              "controller-uid": uid, "batch.kubernetes.io/controller-uid": uid}


def test_indexed_job_pods_carry_their_index(tmp_path: Path) -> None:
    spec = "  completionMode: Indexed\n  completions: 5\n  parallelism: 3\n"
    status = "status: {completedIndexes: '0,2'}\n"
    cluster = load(tmp_path, node("n1"), job(spec, status)).cluster
    assert [p.name.rsplit("-", 1)[0] for p in cluster.pods] == ["x-1", "x-3", "x-4"]
    for pod in cluster.pods:
        index = pod.name.split("-")[1]
        assert pod.labels["batch.kubernetes.io/job-completion-index"] == index
        assert pod.meta.annotations["batch.kubernetes.io/job-completion-index"] == index
        assert pod.hostname == f"x-{index}"


def test_indexed_job_counts_active_indexes(tmp_path: Path) -> None:
    running = """apiVersion: v1
kind: Pod
metadata:
  name: x-0-abcde
  annotations: {batch.kubernetes.io/job-completion-index: "0"}
  ownerReferences: [{kind: Job, name: x, controller: true}]
spec:
  nodeName: n1
  restartPolicy: Never
  containers: [{name: c, resources: {requests: {cpu: 100m}}}]
"""
    spec = "  completionMode: Indexed\n  completions: 3\n  parallelism: 2\n"
    cluster = load(tmp_path, node("n1"), running, job(spec)).cluster
    assert [p.name.rsplit("-", 1)[0] for p in cluster.pods] == ["x-0", "x-1"]


def test_cron_job_plans_one_job(tmp_path: Path) -> None:
    cron = workload("CronJob", "report", """  schedule: "0 * * * *"
  jobTemplate:
    metadata: {labels: {team: data}}
    spec:
      parallelism: 2
""" + "\n".join("    " + line if line else line for line in JOB_TEMPLATE.splitlines()) + "\n")
    result = load(tmp_path, node("n1"), cron)
    cluster = result.cluster
    [created] = cluster.jobs
    assert created.name == "report-28401120"  # 2024-01-01T00:00Z in minutes
    assert created.meta.owner_references == (OwnerReference("CronJob", "report", True),)
    assert created.meta.labels == {"team": "data"}
    assert [p.workload for p in cluster.pods] == ["cronjob/report", "cronjob/report"]
    assert all(p.labels["job-name"] == "report-28401120" for p in cluster.pods)
    assert "cronjob/report: planned as one run, Job report-28401120 from its jobTemplate" in (
        result.warnings)
    assert names(cluster.pods)[0].startswith("report-28401120-")
