"""kubectl conventions of ``ksched plan``: what is shown (-n, -A, -l), -o name, --no-headers,
workload rollups and owners, and one exit code per situation for every command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from ksched_cli.cli.main import EXIT_BROKEN_PIPE, _register, cli

from ..generated import node, pod, write
from ..pipes import closed_after_one_line
from .helpers import REPO, run


def _cluster(tmp_path: Path) -> str:
    """Two namespaces; a ReplicaSet's pods in each (one cannot fit) and a bare pod."""
    docs: list[dict[str, Any]] = [node(0), node(1)]
    docs += [pod(f"web-{i}", "1", labels={"app": "web", "tier": "front"},
                 owner=("ReplicaSet", "web")) for i in range(3)]
    docs.append(pod("solo", "500m", labels={"app": "solo"}))
    docs += [pod(f"agent-{i}", "100m" if i < 2 else "16", labels={"app": "agent"},
                 owner=("DaemonSet", "agent"), namespace="ops") for i in range(3)]
    return write(tmp_path / "cluster.yaml", docs)


def _plan(tmp_path: Path, *args: str) -> Any:
    return CliRunner().invoke(cli, ["plan", _cluster(tmp_path), *args])


@pytest.fixture(autouse=True)
def _commands() -> None:
    _register()


def test_table_rolls_pods_up_per_workload(tmp_path: Path) -> None:
    result = _plan(tmp_path)
    assert result.exit_code == 2
    lines = [line.split() for line in result.stdout.splitlines()]
    assert lines[1][:4] == ["replicaset/web", "3/3", "Scheduled", "2"]
    assert lines[2][:3] == ["default/solo", "Scheduled", "node-0001"]
    assert lines[3][:4] == ["ops/daemonset/agent", "2/3", "Scheduled", "node-0001"]
    assert "1 Unschedulable: 0/2 nodes are available: 2 Insufficient cpu." in result.stdout
    assert len(lines) == 5  # header, three rows, footer


def test_wide_lists_each_workloads_pods_under_it(tmp_path: Path) -> None:
    result = _plan(tmp_path, "-o", "wide")
    names = [line.split()[0] for line in result.stdout.splitlines()[1:-1]]
    assert names == [
        "replicaset/web", "default/web-0", "default/web-1", "default/web-2", "default/solo",
        "ops/daemonset/agent", "ops/agent-0", "ops/agent-1", "ops/agent-2",
    ]


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_structured_output_names_each_pods_owner(tmp_path: Path, fmt: str) -> None:
    result = _plan(tmp_path, "-o", fmt)
    doc = json.loads(result.stdout) if fmt == "json" else yaml.safe_load(result.stdout)
    owners = {p["pod"]: p.get("owner") for p in doc["pods"]}
    assert owners["default/web-0"] == "replicaset/web"
    assert owners["ops/agent-2"] == "daemonset/agent"
    assert owners["default/solo"] is None


def test_owner_prefers_the_controllers_workload(monkeypatch: pytest.MonkeyPatch) -> None:
    from ksched_cli.api.owners import owner_of
    from ksched_cli.whatif.inputs import load_cluster

    loaded = load_cluster([str(REPO / "examples" / "basic")])
    web = next(p for p in loaded.cluster.pods if p.name == "web-0")
    assert owner_of(web) == ""
    web.workload = "deployment/web"
    assert owner_of(web) == "deployment/web"


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["-n", "ops"], ["ops/agent-0", "ops/agent-1", "ops/agent-2"]),
        (["-n", "ops", "-A"], None),
        (["-l", "app=solo"], ["default/solo"]),
        (["-l", "app in (solo, agent),app!=agent"], ["default/solo"]),
        (["-l", "tier"], ["default/web-0", "default/web-1", "default/web-2"]),
        (["-l", "!tier", "-n", "default"], ["default/solo"]),
        (["--namespace", "nowhere"], []),
    ],
)
def test_selection_chooses_what_is_shown_not_what_is_planned(
    tmp_path: Path, args: list[str], shown: list[str] | None
) -> None:
    result = _plan(tmp_path, "-o", "json", *args)
    doc = json.loads(result.stdout)
    pods = [p["pod"] for p in doc["pods"]]
    if shown is None:
        assert len(pods) == 7
    else:
        assert pods == shown
    assert result.exit_code == 2  # the exit code is the whole plan's


def test_selection_applies_to_tables_and_explanations(tmp_path: Path) -> None:
    result = _plan(tmp_path, "-n", "default", "--explain", "--top", "1")
    assert "agent" not in result.stdout
    assert "default/solo attempt at t=0s" in result.stdout


def test_no_headers_and_name_output(tmp_path: Path) -> None:
    bare = _plan(tmp_path, "--no-headers", "-n", "default")
    assert bare.stdout.splitlines()[0].startswith("replicaset/web ")
    assert "decision(s)" not in bare.stdout
    names = _plan(tmp_path, "-o", "name", "-l", "app=web")
    assert names.stdout == "pod/web-0\npod/web-1\npod/web-2\n"


@pytest.mark.parametrize(
    "args",
    [
        ["plan", "examples/basic", "-o", "name", "--explain"],
        ["plan", "examples/basic", "-l", "a in (b"],
        ["plan", "examples/basic", "--top", "-1"],
        ["plan", "examples/basic", "--no-such-option"],
        ["diff", "--base", "default", "examples/basic"],
        ["diff", "--head", "bin-packing", "examples/basic"],
        ["validate", "--no-such-option"],
        ["profiles", "extra-argument"],
        ["no-such-command"],
        [],
    ],
)
def test_every_usage_error_exits_1(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1, result.output


@pytest.mark.parametrize("args", [["-o", "name", "--explain"], ["-l", "a in (b"]])
def test_plan_alone_exits_1_on_usage_errors_too(
    monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    assert run(monkeypatch, "examples/basic", *args).exit_code == 1


def test_diff_with_one_side_names_the_missing_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(cli, ["diff", "--base", "default", "examples/basic"])
    assert "--base needs --head" in result.output


def test_invalid_selector_says_how_to_write_one(tmp_path: Path) -> None:
    result = _plan(tmp_path, "-l", "a in (b")
    assert result.exit_code == 1
    assert "invalid label selector" in result.output and "key in (a,b)" in result.output


def test_pretty_explain_has_no_python_reprs(monkeypatch: pytest.MonkeyPatch) -> None:
    text = run(monkeypatch, "examples/preemption", "--explain").stdout
    assert "['" not in text and "victims default/batch-b1" in text


# --- a reader that stops early ----------------------------------------------------------

BROKEN_PIPE_COMMANDS = [
    ["plan", "{cluster}"],
    ["plan", "{cluster}", "-o", "wide"],
    ["plan", "{cluster}", "-o", "json", "--explain"],
    ["plan", "{cluster}", "-o", "yaml"],
    ["plan", "{cluster}", "-o", "name"],
    ["diff", "--config", "default", "--base-manifests", "{cluster}", "--head-manifests",
     "{nodes}", "-o", "wide"],
    ["plugins"],
]


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    # Enough output to overflow a pipe's buffer: the writer meets the closed end. The
    # nodes alone make a diff that removes every pod.
    root = tmp_path_factory.mktemp("big")
    nodes: list[dict[str, Any]] = [node(i) for i in range(40)]
    # Long names: even `-o name` writes more than a pipe holds (64 KiB).
    pods = [pod(f"p-{i:04d}-{'x' * 70}", "10m") for i in range(1500)]
    return write(root / "cluster.yaml", nodes + pods), write(root / "nodes.yaml", nodes)


@pytest.mark.parametrize("args", BROKEN_PIPE_COMMANDS, ids=lambda a: " ".join(a[:4]))
def test_closed_pipe_ends_quietly_with_one_code(big: tuple[str, str], args: list[str]) -> None:
    argv = [a.replace("{cluster}", big[0]).replace("{nodes}", big[1]) for a in args]
    code, stderr = closed_after_one_line(argv)
    if argv[0] == "plugins":  # small enough to be written before the pipe closed
        assert code in (0, EXIT_BROKEN_PIPE)
    else:
        assert code == EXIT_BROKEN_PIPE
    assert stderr == b""


def test_a_real_deployment_rolls_up_and_diffs_per_workload(tmp_path: Path) -> None:
    deployment = {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {
            "replicas": 3,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "c", "image": "web", "resources": {
                    "requests": {"cpu": "1", "memory": "1Gi"}}}]},
            },
        },
    }
    nodes = write(tmp_path / "nodes.yaml", [node(0), node(1)])
    app = write(tmp_path / "app.yaml", [deployment])
    table = CliRunner().invoke(cli, ["plan", nodes, app])
    assert table.exit_code == 0, table.output
    assert table.stdout.splitlines()[1].split()[:3] == ["deployment/web", "3/3", "Scheduled"]
    doc = json.loads(CliRunner().invoke(cli, ["plan", nodes, app, "-o", "json"]).stdout)
    assert {p["owner"] for p in doc["pods"]} == {"deployment/web"}
    diff = CliRunner().invoke(cli, ["diff", "--config", "default", "--base-manifests", nodes,
                                    "--head-manifests", nodes, "--head-manifests", app,
                                    "-o", "json"])
    assert json.loads(diff.stdout)["workloads"] == [
        {"workload": "deployment/web", "added": 3, "removed": 0, "moved": 0,
         "becameUnschedulable": 0, "newlyPreempted": 0, "other": 0}
    ]
