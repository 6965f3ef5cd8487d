"""Every command stops with one line, naming the limit and the option that raises it,
before it creates more pods or nodes than ``--max-pods`` / ``--max-nodes`` allow
(issue 25 item 5). The literal hostile values are refused before anything is made."""

from __future__ import annotations

from pathlib import Path

import pytest

from ksched_cli import limits

from .helpers import ksched, one_error, write

HUGE_PODS = "9223372036854775807"
CLUSTER = (
    "apiVersion: apps/v1\nkind: {kind}\nmetadata: {{name: d}}\nspec:\n{extra}"
    "  replicas: {replicas}\n  selector: {{matchLabels: {{a: b}}}}\n  template:\n"
    "    metadata: {{labels: {{a: b}}}}\n    spec:\n      containers: [{{name: c, image: x}}]\n"
    "---\napiVersion: v1\nkind: Node\nmetadata: {{name: n1}}\n"
    f"status: {{{{allocatable: {{{{cpu: '4', memory: 8Gi, pods: '{HUGE_PODS}'}}}}}}}}\n"
)
NODE = "apiVersion: v1\nkind: Node\nmetadata: {name: t}\nstatus: {allocatable: {pods: '110'}}\n"
POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n"
V130 = ("--kubernetes-version", "1.30")


def _pods(limit: int, what: str) -> str:
    return (f"error: {what}: would create more than {limit:,} pods, ksched's limit for one "
            "run (raise it with --max-pods N or KSCHED_MAX_PODS)")


def _at(limit: int, kind: str = "Deployment", field: str = "spec.replicas") -> str:
    return (f"error: {kind} default/d (document 1): {field}: would create more than {limit:,} "
            "pods, ksched's limit for one run (raise it with --max-pods N or KSCHED_MAX_PODS)")


def _nodes(limit: int, what: str) -> str:
    return (f"{what}: would create more than {limit:,} nodes, ksched's limit for one run "
            "(raise it with --max-nodes N or KSCHED_MAX_NODES)")


def _files(tmp_path: Path, kind: str = "Deployment", replicas: str = "1") -> tuple[str, str]:
    extra = "  serviceName: s\n" if kind == "StatefulSet" else ""
    cluster = write(tmp_path, "cluster.yaml",
                    CLUSTER.format(kind=kind, replicas=replicas, extra=extra))
    return cluster, write(tmp_path, "node.yaml", NODE)


RS = "ReplicaSet default/d-6f6fbf458b"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # Hit while expanding an input's workload: at the field that asks for the pods.
        pytest.param(["plan", "{huge}"], "{huge}:5:3: " + _at(limits.DEFAULT_MAX_PODS),
                     id="plan-replicas"),
        pytest.param(["plan", "{huge_set}"],
                     "{huge_set}:6:3: " + _at(limits.DEFAULT_MAX_PODS, "StatefulSet"),
                     id="plan-statefulset-replicas"),
        pytest.param(["plan", "{cluster}", "--scale", "deployment/d=1000000000"],
                     _pods(limits.DEFAULT_MAX_PODS, RS), id="plan-scale"),
        pytest.param(["plan", "{cluster}", "--add-nodes", "{node}=1000000"],
                     "error: " + _nodes(limits.DEFAULT_MAX_NODES, "--add-nodes {node}=1000000"),
                     id="plan-add-nodes"),
        pytest.param(["diff", "--base", "default", "--head", "default", "{huge}"],
                     "{huge}:5:3: " + _at(limits.DEFAULT_MAX_PODS), id="diff-replicas"),
        pytest.param(["diff", "--base", "default", "--head", "default", "{cluster}",
                      "--scale", "deployment/d=1000000000"],
                     _pods(limits.DEFAULT_MAX_PODS, RS), id="diff-scale"),
        pytest.param(["diff", "--base", "default", "--head", "default", "{cluster}",
                      "--add-nodes", "{node}=1000000"],
                     "error: " + _nodes(limits.DEFAULT_MAX_NODES, "--add-nodes {node}=1000000"),
                     id="diff-add-nodes"),
        pytest.param(["capacity", "{pod}", "{cluster}", "--max-pods", "5"],
                     _pods(5, "capacity default/p"), id="capacity-copies"),
        pytest.param(["capacity", "{pod}", "{cluster}", "--scale", "deployment/d=1000000000"],
                     _pods(limits.CAPACITY_MAX_PODS, RS), id="capacity-scale"),
        pytest.param(["plan", "{cluster}", "--scale", "deployment/d=7", "--max-pods", "6"],
                     _pods(6, RS), id="plan-lower-limit"),
        pytest.param(["plan", "{cluster}", "--add-nodes", "{node}=3", "--max-nodes", "2"],
                     "error: " + _nodes(2, "--add-nodes {node}=3"), id="plan-lower-node-limit"),
    ],
)
def test_every_command_has_a_limit(tmp_path: Path, command: list[str], expected: str) -> None:
    cluster, node = _files(tmp_path)
    for name in ("huge", "set"):
        (tmp_path / name).mkdir()
    huge, _ = _files(tmp_path / "huge", replicas="2147483647")
    huge_set, _ = _files(tmp_path / "set", "StatefulSet", "2147483647")
    pod = write(tmp_path, "pod.yaml", POD)
    names = {"cluster": cluster, "node": node, "huge": huge, "huge_set": huge_set, "pod": pod}
    args = [part.format(**names) for part in command]
    assert one_error(ksched(*args, *V130)) == expected.format(**names)


def test_simulate_steps_count_too(tmp_path: Path) -> None:
    cluster, node = _files(tmp_path)
    for step, expected in (
        (f"addNodes: {node}=1000000",
         ":5:5: error: Scenario: steps[0].addNodes: at 1s: "
         + _nodes(limits.DEFAULT_MAX_NODES, f"addNodes {node}=1000000")),
        ("scale: deployment/d=1000000000", ": error: " + _pods(
            limits.DEFAULT_MAX_PODS, RS).removeprefix("error: ")),
    ):
        scenario = write(tmp_path, "s.yaml", "apiVersion: ksched.io/v1alpha1\nkind: Scenario\n"
                         f"steps:\n  - at: 1s\n    {step}\n")
        line = one_error(ksched("simulate", scenario, cluster, *V130))
        assert line.startswith(scenario) and line.endswith(expected.split(": error: ", 1)[1]), line


def test_the_environment_sets_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cluster, _ = _files(tmp_path)
    monkeypatch.setenv("KSCHED_MAX_PODS", "3")
    line = one_error(ksched("plan", cluster, "--scale", "deployment/d=4", *V130))
    assert line == _pods(3, RS)
    monkeypatch.setenv("KSCHED_MAX_PODS", "4")
    assert ksched("plan", cluster, "--scale", "deployment/d=4", *V130).exit_code == 0


WORKLOADS = {
    "ReplicaSet": "apps/v1", "ReplicationController": "v1", "Deployment": "apps/v1",
    "StatefulSet": "apps/v1", "Job": "batch/v1", "CronJob": "batch/v1",
}
TEMPLATE = ("    metadata: {labels: {a: b}}\n"
            "    spec: {restartPolicy: Never, containers: [{name: c, image: x}]}\n")


def _workload(kind: str) -> str:
    head = f"apiVersion: {WORKLOADS[kind]}\nkind: {kind}\nmetadata: {{name: d}}\nspec:\n"
    if kind == "Job":
        return head + "  parallelism: 9\n  completions: 9\n  template:\n" + TEMPLATE
    if kind == "CronJob":
        return head + ("  schedule: '* * * * *'\n  jobTemplate:\n    spec:\n      parallelism: 9\n"
                       "      template:\n" + TEMPLATE.replace("    ", "        "))
    selector = "{a: b}" if kind == "ReplicationController" else "{matchLabels: {a: b}}"
    extra = "  serviceName: s\n" if kind == "StatefulSet" else ""
    return (head + extra + f"  replicas: 9\n  selector: {selector}\n  template:\n"
            + TEMPLATE.replace("restartPolicy: Never, ", ""))


@pytest.mark.parametrize(
    ("kind", "position", "field"),
    [("ReplicaSet", "5:3", "spec.replicas"), ("ReplicationController", "5:3", "spec.replicas"),
     ("Deployment", "5:3", "spec.replicas"), ("StatefulSet", "6:3", "spec.replicas"),
     ("Job", "5:3", "spec.parallelism"),
     ("CronJob", "8:7", "spec.jobTemplate.spec.parallelism")],
)
def test_a_workload_past_the_pod_limit_is_named_at_its_field(
    tmp_path: Path, kind: str, position: str, field: str
) -> None:
    path = write(tmp_path, "w.yaml", _workload(kind) + "---\n" + NODE)
    assert one_error(ksched("plan", path, "--max-pods", "5")) == (
        f"{path}:{position}: " + _at(5, kind, field))


def test_add_nodes_refuses_a_directory(tmp_path: Path) -> None:
    # FILE=N names one template: a directory is not read whole for it.
    cluster, _ = _files(tmp_path)
    (tmp_path / "pool").mkdir()
    write(tmp_path / "pool", "node.yaml", NODE)
    pool = str(tmp_path / "pool")
    assert one_error(ksched("plan", cluster, "--add-nodes", f"{pool}=2")) == (
        f"error: --add-nodes: {pool}: is a directory: expected a file holding one Node manifest")


def test_add_nodes_does_not_expand_the_template_file_workloads(tmp_path: Path) -> None:
    # The template file's Deployment asks for 2147483647 pods; only its Node is used.
    cluster, _ = _files(tmp_path)
    (tmp_path / "t").mkdir()
    template, _ = _files(tmp_path / "t", replicas="2147483647")
    result = ksched("plan", cluster, "--add-nodes", f"{template}=2", "-o", "json")
    assert result.exit_code == 0, result.output
    assert '"n1-1"' in result.stdout and '"n1-2"' in result.stdout
