"""Inputs that used to end in a traceback: each is now one error line, exit code 1
(issue 25 items 3 and 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import NODE, POD, REPO, ksched, one_error, write

V130 = ("--kubernetes-version", "1.30")
LONG = "9" * 5000
LIMIT = (
    "an integer of 5000 digits: ksched reads at most 4300 (no Kubernetes field holds more than 20)"
)
AS_STRING = "spec.priority: expected an integer, got string"
NO_CLASS = 'pods "d" is forbidden: no PriorityClass with name gone was found'
GONE = "priorityClassName: gone\n      "
DEPLOYMENT = (
    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: d}}\nspec:\n  replicas: 1\n"
    "  selector: {{matchLabels: {{a: b}}}}\n  template:\n    metadata: {meta}\n"
    "    spec:\n      {extra}containers: [{{name: c, image: x}}]\n"
)
SCENARIO = "apiVersion: ksched.io/v1alpha1\nkind: Scenario\nsteps:\n  - at: {at}\n    drain: n1\n"
CONFIG = (
    "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
    "percentageOfNodesToScore: {value}\n"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            POD.replace("spec:\n", 'spec:\n  "x[r": 1\n'), ':5:3: error: Pod default/p '
            '(document 1): spec.x[r: unknown field "spec.x[r"', id="bracket-key-unknown-field"),
        pytest.param(
            POD.replace("spec:\n", 'spec:\n  nodeSelector: {"a[0": "1"}\n'),
            ":5:3: error: Pod default/p (document 1): spec.nodeSelector: Invalid value: \"a[0\": "
            "name part must consist of", id="bracket-key-in-a-map"),
        # YAML: go-yaml v2 keeps an integer no int64, uint64 or float64 holds as a string.
        pytest.param(POD.replace("spec:\n", f"spec:\n  priority: {LONG}\n"),
                     f":5:3: error: Pod default/p (document 1): {AS_STRING}",
                     id="long-integer-yaml"),
        pytest.param(POD.replace("metadata: {name: p}", "metadata: &m {name: p}").replace(
            "spec:\n", f"spec:\n  priority: {LONG}\n"),
                     f":5:3: error: Pod default/p (document 1): {AS_STRING}",
                     id="long-integer-anchors"),
        pytest.param('{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, '
                     f'"spec": {{"priority": {LONG}}}}}\n',
                     f":1:85: error: document 1: {LIMIT}", id="long-integer-json"),
        pytest.param(DEPLOYMENT.format(meta="{labels: {a: b}}", extra=GONE),
                     ":10:7: error: Deployment default/d (document 1): "
                     f"spec.template.spec.priorityClassName: {NO_CLASS}",
                     id="template-missing-priority-class"),
    ],
)
def test_plan_inputs(tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, "in.yaml", text + "---\n" + NODE)
    line = one_error(ksched("plan", path, *V130))
    assert line.startswith(path + expected), line


def test_a_bare_pod_and_a_template_name_the_missing_class_alike(tmp_path: Path) -> None:
    bare = write(tmp_path, "pod.yaml", POD.replace("spec:\n", "spec:\n  priorityClassName: gone\n"))
    line = one_error(ksched("plan", bare, *V130))
    assert line.endswith('spec.priorityClassName: pods "p" is forbidden: '
                         "no PriorityClass with name gone was found")


def test_a_scenario_with_a_bracket_key_or_a_long_integer(tmp_path: Path) -> None:
    cluster = write(tmp_path, "cluster.yaml", NODE)
    bracket = write(tmp_path, "s1.yaml", SCENARIO.format(at="10s") + '    "x[r": 1\n')
    line = one_error(ksched("simulate", bracket, cluster))
    assert line.startswith(f"{bracket}:4:5: error: Scenario: steps[0]") or \
        line.startswith(f"{bracket}:6:5: error: Scenario: steps[0].x[r"), line
    long = write(tmp_path, "s2.yaml", SCENARIO.format(at=LONG))
    line = one_error(ksched("simulate", long, cluster))
    # go-yaml v2 reads an integer no number type holds as a string: not a time.
    assert line == (f"{long}:4:5: error: Scenario: steps[0].at: invalid time '{'9' * 40}'... "
                    "(5000 characters): expected seconds (a number >= 0) or a duration such as "
                    "90s or 1m30s")


def test_a_configuration_with_a_long_integer(tmp_path: Path) -> None:
    config = write(tmp_path, "config.yaml", CONFIG.format(value=LONG))
    result = ksched("validate", config)
    assert result.exit_code == 1
    # kube-scheduler reads its configuration with go-yaml v2 too: a string, not a number.
    assert result.output.strip() == (
        f'{config}:3:1: error: percentageOfNodesToScore: Invalid value: "\\"{"9" * 56}...": '
        "expected an integer")


CLUSTER = str(REPO / "examples/capacity/cluster.yaml")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(POD.replace("kind: Pod", "kind: {a: b}"),
                     ":2:1: error: object (document 1): kind: expected one of Pod, Deployment, "
                     "ReplicaSet, ReplicationController, StatefulSet, DaemonSet, Job, CronJob",
                     id="kind-mapping"),
        pytest.param(DEPLOYMENT.format(meta='"x"', extra=""),
                     ":8:5: error: Deployment (document 1): spec.template.metadata: "
                     "expected an object, got string", id="template-metadata-string"),
        pytest.param(POD.replace("image: x}", "image: x, resources: {requests: {cpu: '-4'}}}"),
                     ":5:59: error: Pod (document 1): spec.containers[0].resources.requests.cpu: "
                     'Invalid value: "-4": must be greater than or equal to 0', id="negative-cpu"),
        pytest.param(POD.replace("spec:\n", 'spec:\n  "x[r": 1\n'),
                     ':5:3: error: Pod (document 1): spec.x[r: unknown field "spec.x[r"',
                     id="unknown-field"),
        pytest.param(DEPLOYMENT.format(meta="{labels: {a: b}}", extra=GONE),
                     ":10:7: error: Deployment (document 1): spec.template.spec.priorityClassName: "
                     f"{NO_CLASS}", id="missing-priority-class"),
    ],
)
def test_capacity_checks_its_pod_file_as_plan_does(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = write(tmp_path, "pod.yaml", text)
    assert one_error(ksched("capacity", path, CLUSTER, *V130)) == path + expected


def test_capacity_lists_every_problem_of_its_pod_file(tmp_path: Path) -> None:
    text = DEPLOYMENT.format(meta="{labels: {a: b}}", extra="").replace("name: d}", "name: D_x}")
    text = text.replace("image: x}", "image: x, resources: {requests: {cpu: '-1'}}}")
    path = write(tmp_path, "d.yaml", text)
    result = ksched("capacity", path, CLUSTER, *V130)
    assert result.exit_code == 1
    fields = [line.split(": ")[3] for line in result.stderr.splitlines()]
    assert fields == ["metadata.name", "spec.template.spec.containers[0].resources.requests.cpu"]
