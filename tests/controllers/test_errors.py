"""Workloads the API server would reject: one positioned line, nothing planned."""

from __future__ import annotations

from pathlib import Path

import pytest

from ksched_cli.errors import KschedError
from ksched_cli.whatif.inputs import load_cluster

from .helpers import template, workload

WEB = template("app: web")
SELECT_WEB = "  selector: {matchLabels: {app: web}}\n"

CASES: list[tuple[str, str, str]] = [
    (
        "negative-replicas",
        workload("Deployment", "web", "  replicas: -1\n" + SELECT_WEB + WEB),
        "w.yaml:7:3: error: Deployment default/web (document 1): spec.replicas: Invalid "
        "value: -1: must be greater than or equal to 0",
    ),
    (
        "selector-does-not-match",
        workload("ReplicaSet", "web", "  selector: {matchLabels: {app: api}}\n" + WEB),
        "w.yaml:10:7: error: ReplicaSet default/web (document 1): spec.template.metadata.labels: "
        'Invalid value: map[string]string{"app":"web"}: `selector` does not match template '
        "`labels`",
    ),
    (
        "selector-missing",
        workload("StatefulSet", "db", WEB),
        "w.yaml:6:1: error: StatefulSet default/db (document 1): spec.selector: Required value",
    ),
    (
        "empty-selector",
        workload("DaemonSet", "agent", "  selector: {}\n" + WEB),
        "w.yaml:7:3: error: DaemonSet default/agent (document 1): spec.selector: Invalid "
        "value: {}: empty selector is invalid for daemonset",
    ),
    (
        "template-not-a-pod",
        workload("Deployment", "web", SELECT_WEB + WEB.replace("cpu: 100m", "cpu: lots")),
        "w.yaml:16:22: error: Deployment default/web (document 1): "
        "spec.template.spec.containers[0].resources.requests.cpu: quantities must match the "
        "regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': 'lots'",
    ),
    (
        "template-without-containers",
        workload("Deployment", "web", SELECT_WEB
                 + "  template:\n    metadata: {labels: {app: web}}\n    spec: {}\n"),
        "w.yaml:10:5: error: Deployment default/web (document 1): spec.template.spec.containers: "
        "Required value: a pod needs at least one container",
    ),
    (
        "job-restart-policy",
        workload("Job", "x", template("")),
        'w.yaml:10:5: error: Job default/x (document 1): spec.template.spec.restartPolicy: '
        'Unsupported value: "Always": supported values: "OnFailure", "Never"',
    ),
    (
        "negative-parallelism",
        workload("Job", "x", "  parallelism: -2\n" + template("", restart="Never")),
        "w.yaml:7:3: error: Job default/x (document 1): spec.parallelism: Invalid value: -2: "
        "must be greater than or equal to 0",
    ),
    (
        "cron-job-template",
        workload("CronJob", "c", "  schedule: '@daily'\n  jobTemplate:\n    spec:\n"
                 "      template:\n        spec:\n          restartPolicy: Never\n"
                 "          containers: [{name: c, ports: [{containerPort: x}]}]\n"),
        "w.yaml:13:43: error: CronJob default/c (document 1): "
        "spec.jobTemplate.spec.template.spec.containers[0].ports[0].containerPort: expected an "
        "integer, got string",
    ),
    (
        "claim-template",
        workload("StatefulSet", "db", "  selector: {matchLabels: {app: web}}\n" + WEB
                 + "  volumeClaimTemplates:\n  - metadata: {name: data}\n"
                 "    spec: {accessModes: [ReadWriteOnce]}\n"),
        "w.yaml:19:5: error: StatefulSet default/db (document 1): "
        "spec.volumeClaimTemplates[0].spec.resources.requests.storage: Required value",
    ),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_workload_error_is_one_positioned_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, expected: str
) -> None:
    (tmp_path / "w.yaml").write_text(text)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(KschedError) as info:
        load_cluster(["w.yaml"])
    assert info.value.render() == expected
