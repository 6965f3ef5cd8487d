"""``-o html`` on plan and diff: exit codes, errors, and Jinja2 kept off other paths."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import REPO, run
from tests.diff.helpers import EXAMPLE_ARGS
from tests.diff.helpers import run as run_diff

from .helpers import page_data


@pytest.mark.parametrize(("example", "code"), [("basic", 0), ("unschedulable", 2)])
def test_plan_exit_codes(monkeypatch: pytest.MonkeyPatch, example: str, code: int) -> None:
    result = run(monkeypatch, f"examples/{example}", "-o", "html")
    assert result.exit_code == code
    assert result.stdout.startswith("<!DOCTYPE html>")
    assert page_data(result.stdout)["title"] == f"ksched plan: examples/{example}"


def test_bad_input_is_one_error_line_and_no_report(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, "examples/basic", "-o", "html", "--explain-pod", "default/nope")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("error: --explain-pod: no pod default/nope in the input")


def test_diff_exit_code_and_page(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run_diff(monkeypatch, *EXAMPLE_ARGS, "-o", "html")
    assert result.exit_code == 3
    data = page_data(result.stdout)
    assert data["kind"] == "diff"
    assert data["categories"] == {"moved": 5, "new": 1, "lost": 1, "changed": 1}
    assert data["nodes"] == [
        {"node": "node-a", "gained": ["default/cache-0", "default/worker-0"],
         "lost": ["default/web-1"]},
        {"node": "node-b", "gained": ["default/report-0"],
         "lost": ["default/cache-0", "default/web-0", "default/web-2", "default/worker-0"]},
        {"node": "node-c", "gained": ["default/web-0", "default/web-1", "default/web-2"],
         "lost": ["default/batch-0"]},
    ]


def test_jinja2_is_imported_only_for_html() -> None:
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from ksched_cli.cli.main import cli\n"
        "r = CliRunner().invoke(cli, ['plan', 'examples/basic', '-o', 'json'])\n"
        "assert r.exit_code == 0, r.output\n"
        "assert 'jinja2' not in sys.modules\n"
        "r = CliRunner().invoke(cli, ['plan', 'examples/basic', '-o', 'html'])\n"
        "assert r.exit_code == 0, r.output\n"
        "assert 'jinja2' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)


DEPLOYMENT = """\
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: bare, namespace: default}
spec:
  containers: [{name: c, image: nginx}]
"""


def test_pods_show_their_owning_workload(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "cluster.yaml").write_text(DEPLOYMENT, encoding="utf-8")
    result = run(monkeypatch, str(tmp_path), "-o", "html")
    assert result.exit_code == 0, result.output
    owners = {p["pod"]: p.get("owner", "") for p in page_data(result.stdout)["pods"]}
    assert sorted(owners.values()) == ["", "deployment/web", "deployment/web"]
    assert owners["default/bare"] == ""


def test_diff_page_owners_and_whatif(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Owners come with the diff (PodChange.owner); operations on head show as on plan."""
    second = DEPLOYMENT.split("---")[0].replace("n1", "n2")
    (tmp_path / "cluster.yaml").write_text(DEPLOYMENT + "---\n" + second, encoding="utf-8")
    args = (str(tmp_path), "--cordon", "n1")
    as_json = json.loads(run_diff(monkeypatch, *args, "-o", "json").stdout)
    result = run_diff(monkeypatch, *args, "-o", "html")
    assert result.exit_code == 3, result.output
    data = page_data(result.stdout)
    owners = {c["pod"]: c.get("owner", "") for c in data["changes"]}
    assert owners == {p["pod"]: p.get("owner", "") for p in as_json["pods"]}
    # Planned the same on both sides but for n1: the bare pod and one web replica move.
    assert sorted(owners.values()) == ["", "deployment/web"]
    assert [(w["owner"], w["moved"]) for w in data["workloads"]] == [("", 1),
                                                                    ("deployment/web", 1)]
    assert [op["operation"] for op in data["whatif"]["operations"]] == ["--cordon n1"]
    assert '<button data-tab="whatif">' in result.stdout
