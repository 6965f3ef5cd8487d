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
        pytest.param(["plan", "{huge}"], _pods(limits.DEFAULT_MAX_PODS, RS), id="plan-replicas"),
        pytest.param(["plan", "{huge_set}"],
                     _pods(limits.DEFAULT_MAX_PODS, "StatefulSet default/d"),
                     id="plan-statefulset-replicas"),
        pytest.param(["plan", "{cluster}", "--scale", "deployment/d=1000000000"],
                     _pods(limits.DEFAULT_MAX_PODS, RS), id="plan-scale"),
        pytest.param(["plan", "{cluster}", "--add-nodes", "{node}=1000000"],
                     "error: " + _nodes(limits.DEFAULT_MAX_NODES, "--add-nodes {node}=1000000"),
                     id="plan-add-nodes"),
        pytest.param(["diff", "--base", "default", "--head", "default", "{huge}"],
                     _pods(limits.DEFAULT_MAX_PODS, RS), id="diff-replicas"),
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
