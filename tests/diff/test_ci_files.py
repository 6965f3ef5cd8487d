"""The CI integration files: the pre-commit hook manifest and the documented workflow."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from .helpers import REPO


def hook() -> dict[str, Any]:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    [only] = [h for h in hooks if h["id"] == "ksched-validate"]
    assert isinstance(only, dict)
    return only


def test_validate_hook_runs_ksched_validate() -> None:
    h = hook()
    assert h["entry"] == "ksched validate"
    assert h["language"] == "python"


@pytest.mark.parametrize(
    ("path", "matches"),
    [
        ("kube-scheduler.yaml", True),
        ("deploy/kubescheduler.yml", True),
        ("config/my-scheduler-config.yaml", True),
        ("bin-packing.scheduler-profile.json", True),
        ("scheduler-deployment.yaml", False),
        ("cluster/pods.yaml", False),
        ("kube-scheduler.yaml.orig", False),
    ],
)
def test_validate_hook_file_pattern(path: str, matches: bool) -> None:
    # pre-commit applies `files` with re.search.
    assert bool(re.search(hook()["files"], path)) is matches


def test_documented_workflow_is_yaml_running_validate_and_markdown_diff() -> None:
    text = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, flags=re.S)
    workflow = next(yaml.safe_load(b) for b in blocks if "jobs:" in b)
    steps = workflow["jobs"]["ksched"]["steps"]
    runs = "\n".join(s.get("run", "") for s in steps)
    assert "ksched validate" in runs
    assert "ksched diff" in runs and "-o markdown" in runs
    assert "gh pr comment" in runs
