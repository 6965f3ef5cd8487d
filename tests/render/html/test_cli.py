"""``-o html`` on plan and diff: exit codes, errors, and Jinja2 kept off other paths."""

from __future__ import annotations

import subprocess
import sys

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
