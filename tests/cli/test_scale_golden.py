"""Explanations and the PR comment on a generated 2,000-node cluster, against golden files.

Regenerate with ``KSCHED_UPDATE_GOLDEN=1 pytest tests/cli/test_scale_golden.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksched_cli.cli.diff_cmd import diff
from ksched_cli.cli.plan_cmd import plan
from ksched_cli.render.diff_markdown import GITHUB_COMMENT_LIMIT

from ..generated import moving_cluster, spread_cluster, write

GOLDEN = Path(__file__).parent / "golden" / "scale"


def _check(name: str, text: str) -> None:
    golden = GOLDEN / name
    if os.environ.get("KSCHED_UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert golden.is_file(), f"missing {golden}; run with KSCHED_UPDATE_GOLDEN=1"
    assert text == golden.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def spread(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("spread")
    write(root / "cluster.yaml", spread_cluster())
    return root


def test_grouped_explanation(spread: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(spread)
    args = ["cluster.yaml", "--explain-pod", "default/web-0", "--explain-pod", "default/huge",
            "--kubernetes-version", "1.30"]
    result = CliRunner().invoke(plan, args)
    assert result.exit_code == 2, result.output
    text = result.stdout
    # The story only: no table; 340 rejections and 2,000 preemption lines in one line each.
    assert not text.startswith("POD")
    assert "340 node(s) by PodTopologySpread: node(s) didn't match pod topology spread" in text
    assert "tied at 486 with 679 node(s) (node-0002, node-0004, node-0005, ...)" in text
    assert len(text.splitlines()) < 40
    _check("spread.explain-pod.txt", text)


def test_top_chooses_how_many_rivals(spread: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(spread)
    result = CliRunner().invoke(plan, ["cluster.yaml", "--explain-pod", "default/web-0",
                                       "--top", "2", "--kubernetes-version", "1.30"])
    rows = [line for line in result.stdout.splitlines() if line.startswith("    node-")]
    assert [r.split()[0] for r in rows] == ["node-0001", "node-0002", "node-0004"]
    assert "... 677 more node(s)" in result.stdout


def test_explain_table_groups_every_attempt(spread: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(spread)
    result = CliRunner().invoke(plan, ["cluster.yaml", "--explain", "--top", "1"])
    assert result.exit_code == 2
    _check("spread.explain.txt", result.stdout)


def test_markdown_is_capped_with_summary_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "cluster.yaml", moving_cluster())
    monkeypatch.chdir(tmp_path)
    args = ["--base", "default", "--head", "bin-packing", "cluster.yaml", "-o", "markdown"]
    result = CliRunner().invoke(diff, args)
    assert result.exit_code == 3, result.output
    text = result.stdout
    assert len(text) < GITHUB_COMMENT_LIMIT
    assert text.index("#### Changes per workload") < text.index("<details>")
    assert "| `replicaset/app-1` | 0 | 0 | 120 |" in text
    assert "pod(s) not shown**" in text and "`-o wide`" in text
    assert text.rstrip().endswith("</details>")
    _check("moving.diff.md", text)
