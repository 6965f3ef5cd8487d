"""examples/chart through the CLI: plan output against golden files, standard input, and
docs/ci.md's "new deployment" review (diff of the cluster against cluster plus chart).

Regenerate the golden files with ``KSCHED_UPDATE_GOLDEN=1 pytest tests/controllers``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ksched_cli.cli.main import _register, cli
from ksched_cli.manifests import sources
from tests.cli.helpers import EXPECTED_STDERR

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
CLUSTER = "examples/chart/cluster"
SHOP = "examples/chart/shop"


def ksched(monkeypatch: pytest.MonkeyPatch, *args: str, stdin: str | None = None) -> Result:
    monkeypatch.chdir(REPO)
    monkeypatch.setattr(sources, "_stdin_text", None)
    _register()
    return CliRunner().invoke(cli, list(args), input=stdin)


@pytest.mark.parametrize(("name", "args"), [
    ("chart.table.txt", []),
    ("chart.wide.txt", ["-o", "wide"]),
    ("chart.plan.yaml", ["-o", "yaml"]),
])
def test_plan_matches_golden(monkeypatch: pytest.MonkeyPatch, name: str, args: list[str]) -> None:
    result = ksched(monkeypatch, "plan", "examples/chart", *args)
    assert result.exit_code == 2, result.output
    assert result.stderr == EXPECTED_STDERR["chart"]
    golden = GOLDEN / name
    if os.environ.get("KSCHED_UPDATE_GOLDEN") == "1":
        golden.write_text(result.stdout, encoding="utf-8")
    assert result.stdout == golden.read_text(encoding="utf-8")


def test_the_chart_on_standard_input_plans_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    rendered = (REPO / SHOP / "rendered.yaml").read_text(encoding="utf-8")
    piped = ksched(monkeypatch, "plan", CLUSTER, "-", stdin=rendered)
    assert piped.exit_code == 2, piped.output
    assert piped.stdout == (GOLDEN / "chart.table.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("fail_on", ["any", "unschedulable"])
def test_new_deployment_review_lists_every_pod_of_the_chart(
    monkeypatch: pytest.MonkeyPatch, fail_on: str
) -> None:
    # docs/ci.md: "a new deployment": two manifest sets under one profile.
    result = ksched(monkeypatch, "diff", "--config", "default", "--base-manifests", CLUSTER,
                    "--head-manifests", CLUSTER, "--head-manifests", SHOP,
                    "--fail-on", fail_on)
    assert result.exit_code == 3, result.output
    placements = result.stdout.split("Placement changes:\n", 1)[1].split("\n\n", 1)[0]
    added = [line for line in placements.splitlines() if line.startswith("shop/")]
    assert len(added) == 12
    assert all("(not in manifests)" in line for line in added)
    db2 = next(line for line in added if line.startswith("shop/db-2 "))
    assert "Unschedulable" in db2
    assert "Summary: 12 of 14 pod(s) changed: 12 added" in result.stdout
    # Every pod of the chart counts under its workload, those made during the plan too.
    workloads = result.stdout.split("Changes per workload:\n", 1)[1].split("\n\n", 1)[0]
    rows = {r.split()[0]: r.split()[1:] for r in workloads.splitlines()[1:]}
    assert rows["shop/statefulset/db"][0] == "3"
    assert rows["shop/daemonset/log-agent"][0] == "4"
    assert "(bare" not in workloads


def test_without_the_chart_nothing_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    result = ksched(monkeypatch, "diff", "--config", "default", "--base-manifests", CLUSTER,
                    "--head-manifests", CLUSTER)
    assert result.exit_code == 0, result.output


def test_diff_reads_the_chart_from_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    rendered = (REPO / SHOP / "rendered.yaml").read_text(encoding="utf-8")
    result = ksched(monkeypatch, "diff", "--config", "default", "--base-manifests", CLUSTER,
                    "--head-manifests", CLUSTER, "--head-manifests", "-", stdin=rendered)
    assert result.exit_code == 3, result.output
    assert "Summary: 12 of 14 pod(s) changed: 12 added" in result.stdout
