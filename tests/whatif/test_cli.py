"""``ksched plan`` with what-if operations: output against golden files, exit codes, errors.

Regenerate the golden files with ``KSCHED_UPDATE_GOLDEN=1 pytest tests/whatif``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ksched_cli.cli.plan_cmd import plan

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
CLUSTER = "examples/drain/cluster.yaml"
TEMPLATE = "examples/drain/templates/big-node.yaml"


def run(monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    monkeypatch.chdir(REPO)
    return CliRunner().invoke(plan, list(args))


def check_golden(name: str, text: str) -> None:
    golden = GOLDEN / name
    if os.environ.get("KSCHED_UPDATE_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert golden.is_file(), f"missing {golden}; run with KSCHED_UPDATE_GOLDEN=1"
    assert text == golden.read_text(encoding="utf-8")


GOLDEN_CASES = {
    "drain.table.txt": ["--drain", "node-a"],
    "drain.plan.yaml": ["--drain", "node-a", "-o", "yaml"],
    "remove-node.table.txt": ["--remove-node", "node-a"],
    "add-then-drain.table.txt": ["--add-nodes", f"{TEMPLATE}=1", "--drain", "node-a"],
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    result = run(monkeypatch, CLUSTER, *GOLDEN_CASES[name])
    assert result.exit_code == 2, result.output
    check_golden(name, result.stdout)


def test_json_has_the_report_after_the_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, CLUSTER, "--drain", "-l", "kubernetes.io/hostname=node-a",
                 "-o", "json")
    doc = json.loads(result.stdout)
    assert list(doc)[-1] == "whatif"
    whatif = doc["whatif"]
    assert whatif["operations"][0]["operation"] == "--drain -l kubernetes.io/hostname=node-a"
    # The budget refused web-7d9f6-8qz5m at first; kubectl's retry 5 s later got it.
    waited = next(c for c in whatif["operations"][0]["changes"]
                  if c["pod"] == "default/web-7d9f6-8qz5m")
    assert (waited["change"], waited["podDisruptionBudget"]) == ("Evicted", "default/web")
    assert waited["reason"].startswith("evicted at 5s: waited 5s for PodDisruptionBudget")
    node_a = next(n for n in whatif["nodes"] if n["name"] == "node-a")
    assert node_a["before"]["cpu"] == {"requested": 3300, "allocatable": 4000}
    assert node_a["after"]["unschedulable"] is True


@pytest.mark.parametrize(
    ("timeout", "tail"),
    [
        ("1s", "at 5s kubectl drain gives up: error when evicting pods/\"web-7d9f6-8qz5m\" "
               "-n \"default\": global timeout reached: 1s"),
        ("2m", None),
    ],
)
def test_drain_timeout(monkeypatch: pytest.MonkeyPatch, timeout: str, tail: str | None) -> None:
    """--drain-timeout bounds kubectl's retries: shorter than one retry, the pod stays."""
    result = run(monkeypatch, CLUSTER, "--drain", "node-a", "--drain-timeout", timeout,
                 "-o", "json")
    changes = json.loads(result.stdout)["whatif"]["operations"][0]["changes"]
    change = next(c for c in changes if c["pod"] == "default/web-7d9f6-8qz5m")
    if tail is None:
        assert change["change"] == "Evicted"
    else:
        assert (change["change"], change["reason"].rpartition("; ")[2]) == ("BlockedDrain", tail)


@pytest.mark.parametrize(
    ("value", "why"),
    [("soon", 'time: invalid duration "soon"'), ("-5s", "-5s: must not be negative")],
)
def test_drain_timeout_must_be_a_duration(monkeypatch: pytest.MonkeyPatch, value: str,
                                          why: str) -> None:
    result = run(monkeypatch, CLUSTER, "--drain", "node-a", "--drain-timeout", value)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == f"Error: Invalid value for '--drain-timeout': {why}"


def test_operations_apply_in_the_order_given(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, CLUSTER, "--cordon", "node-b", "--drain", "node-a",
                 "--uncordon", "node-b", "-o", "json")
    ops = [o["operation"] for o in json.loads(result.stdout)["whatif"]["operations"]]
    assert ops == ["--cordon node-b", "--drain node-a", "--uncordon node-b"]


def test_without_operations_there_is_no_report(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, CLUSTER, "-o", "json")
    assert "whatif" not in json.loads(result.stdout)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--drain", "node-z"], 'error: --drain: no node named "node-z" in the input '
                                "(did you mean node-a?)"),
        (["--add-nodes", "pool.yaml"], 'error: --add-nodes: malformed value "pool.yaml": '
                                       "expected FILE=N with N a positive integer"),
        (["--add-nodes", f"{CLUSTER}=2"], f"error: --add-nodes: {CLUSTER}: expected one Node "
                                          "manifest (the template), found 3"),
        (["--scale", "deployment/nope=3"], "error: --scale: no deployment/nope in namespace "
                                           "default of the input"),
        (["--remove-node", "node-a", "--drain", "node-a"],
         'error: --drain: no node named "node-a" in the input (did you mean node-b?)'),
    ],
)
def test_bad_operation_is_one_line(monkeypatch: pytest.MonkeyPatch, args: list[str],
                                   line: str) -> None:
    result = run(monkeypatch, CLUSTER, *args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [line]


def test_add_nodes_file_errors_are_positioned(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    bad = tmp_path / "node.yaml"
    bad.write_text("kind: Node\napiVersion: v1\nmetadata:\n  name: [x]\n", encoding="utf-8")
    result = run(monkeypatch, CLUSTER, "--add-nodes", f"{bad}=1")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{bad}:4:")
    assert len(result.stderr.splitlines()) == 1


def test_a_drain_needs_a_value(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, CLUSTER, "--drain")
    assert result.exit_code == 1
    assert "'--drain': requires a value" in result.stderr


def test_diff_applies_operations_to_the_head_side(monkeypatch: pytest.MonkeyPatch) -> None:
    from ksched_cli.cli.diff_cmd import diff

    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(diff, [CLUSTER, "--drain", "node-a", "-o", "json"])
    assert result.exit_code == 3, result.output
    doc = json.loads(result.stdout)
    assert doc["whatif"]["operations"][0]["operation"] == "--drain node-a"
    changed = {c["pod"] for c in doc["pods"]}
    assert {"default/debug-shell", "default/web-7d9f6-2xk4p", "default/db-0"} <= changed
    bad = CliRunner().invoke(diff, [CLUSTER, "--scale", "x"])
    assert bad.exit_code == 1
    assert bad.stderr.startswith("error: --scale: malformed value")
