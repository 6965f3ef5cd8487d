"""``ksched capacity``: counts, per-node counts, the stopping message, --max, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from ksched_cli.cli.capacity_cmd import capacity
from ksched_cli.config.load import load_config
from ksched_cli.whatif.capacity import count_capacity
from ksched_cli.whatif.template import read_template

from .helpers import load, node, pod, write
from .test_cli import check_golden

REPO = Path(__file__).resolve().parents[2]
CLUSTER = "examples/capacity/cluster.yaml"
API = "examples/capacity/workloads/api-deployment.yaml"
WORKER = "examples/capacity/workloads/worker-pod.yaml"


def run(monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    monkeypatch.chdir(REPO)
    return CliRunner().invoke(capacity, list(args))


@pytest.mark.parametrize(
    ("nodes", "running", "cpu", "count", "per_node", "message"),
    [
        pytest.param([node("n1", cpu="2")], [], "500m", 4, {"n1": 4},
                     "0/1 nodes are available: 1 Insufficient cpu.", id="one-node"),
        pytest.param([node("n1", cpu="2"), node("n2", cpu="1")], [pod("r", "n1", cpu="1")],
                     "500m", 4, {"n1": 2, "n2": 2},
                     "0/2 nodes are available: 2 Insufficient cpu.", id="running-pods-count"),
        pytest.param([node("n1", pods="3")], [pod("r", "n1")], "100m", 2, {"n1": 2},
                     "0/1 nodes are available: 1 Too many pods.", id="pod-count"),
        pytest.param([node("n1", cpu="1")], [], "2", 0, {},
                     "0/1 nodes are available: 1 Insufficient cpu.", id="none-fit"),
    ],
)
def test_counts(tmp_path: Path, nodes: list[dict[str, object]], running: list[dict[str, object]],
                cpu: str, count: int, per_node: dict[str, int], message: str) -> None:
    cluster = load(tmp_path, [*nodes, *running])
    template_file = write(tmp_path / "t.yaml", [pod("copy", cpu=cpu)])
    template = read_template(str(template_file), cluster)
    result = count_capacity(load_config("default"), cluster, template)
    assert (result.count, result.per_node) == (count, per_node)
    assert result.message.startswith(message)
    assert result.stop_reason == "Unschedulable"
    assert sum(u.pods for u in result.after) == len(running) + count


def test_pending_input_pods_are_planned_first(tmp_path: Path) -> None:
    cluster = load(tmp_path, [node("n1", cpu="2"), pod("waiting", cpu="1")])
    template = read_template(str(write(tmp_path / "t.yaml", [pod("copy", cpu="1")])), cluster)
    result = count_capacity(load_config("default"), cluster, template)
    assert result.count == 1


def test_max_stops_early(tmp_path: Path) -> None:
    cluster = load(tmp_path, [node("n1")])
    template = read_template(str(write(tmp_path / "t.yaml", [pod("copy")])), cluster)
    result = count_capacity(load_config("default"), cluster, template, limit=3)
    assert (result.count, result.stop_reason, result.message) == (3, "LimitReached", "")


def test_workload_template_with_spread(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, API, CLUSTER, "-o", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert (doc["count"], doc["perNode"]) == (18, {"node-1": 4, "node-2": 6, "node-3": 8})
    assert "2 node(s) didn't match pod topology spread constraints" in doc["message"]


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("capacity.table.txt", [API, CLUSTER]),
        ("capacity.max.yaml", [WORKER, CLUSTER, "--max", "3", "-o", "yaml"]),
        ("capacity.drain.txt", [WORKER, CLUSTER, "--drain", "node-3"]),
    ],
)
def test_golden(monkeypatch: pytest.MonkeyPatch, name: str, args: list[str]) -> None:
    result = run(monkeypatch, *args)
    assert result.exit_code == 0, result.output
    check_golden(name, result.stdout)


def test_readme_commands_run(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (REPO / "examples/capacity/README.md").read_text(encoding="utf-8")
    commands = [line.split("ksched capacity ", 1)[1].split() for line in text.splitlines()
                if line.strip().startswith("ksched capacity ")]
    assert len(commands) == 4
    for args in commands:
        result = run(monkeypatch, *args)
        assert (result.exit_code, result.stderr) == (0, ""), args


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["nope.yaml", CLUSTER], "nope.yaml: error: no such file"),
        # A file of several pods (a snapshot, a chart) needs --workload to pick one.
        ([CLUSTER, CLUSTER], f"{CLUSTER}: error: 2 workloads (pod/db-0 -n default, pod/cache "
                             "-n default): choose one with --workload KIND/NAME"),
        ([WORKER, CLUSTER, "--max", "-1"], None),
        ([WORKER, CLUSTER, "--drain", "node-9"], 'error: --drain: no node named "node-9" in the '
                                                 "input (did you mean node-1?)"),
    ],
)
def test_errors(monkeypatch: pytest.MonkeyPatch, args: list[str], line: str | None) -> None:
    result = run(monkeypatch, *args)
    assert result.exit_code == 1
    if line is not None:
        assert result.stderr.splitlines() == [line]


def test_template_errors_are_positioned(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    bad = tmp_path / "deploy.yaml"
    bad.write_text(yaml.safe_dump({
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
        "spec": {"template": {"spec": {"containers": []}}},
    }), encoding="utf-8")
    result = run(monkeypatch, str(bad), CLUSTER)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{bad}:")
    assert "Deployment (document 1): spec.template.spec.containers: Required value" in (
        result.stderr)


def test_template_lists_every_pod_level_problem(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A template's pod-level resources (1.36) are checked as a new pod's: every problem."""
    bad = tmp_path / "pod.yaml"
    bad.write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
        "  resources: {requests: {cpu: '1'}, limits: {cpu: '1'}}\n"
        "  containers:\n  - {name: a, image: x, resources: {requests: {cpu: '2'}}}\n"
        "  - {name: b, image: x, resources: {limits: {cpu: '3'}}}\n",
        encoding="utf-8",
    )
    result = run(monkeypatch, str(bad), CLUSTER, "--kubernetes-version", "1.36")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{bad}:5:26: error: Pod (document 1): spec.resources.requests.cpu: Invalid value: "
        '"1": must be greater than or equal to aggregate container requests of 5',
        f"{bad}:8:46: error: Pod (document 1): spec.containers[1].resources.limits.cpu: "
        'Invalid value: "3": must be less than or equal to pod limits of 1',
    ]
