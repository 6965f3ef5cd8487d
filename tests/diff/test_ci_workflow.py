"""docs/ci.md's GitHub Actions workflow, run step by step as a runner would.

A pull request switches the profile to bin packing; the base branch holds the old one.
`uses:` steps (checkout, setup-python) are what the test's own set-up does, the install
step is checked for its shape (ksched is already installed here), and `gh` is a stand-in
that keeps the comment it was asked to post.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from ksched_cli.render.diff_markdown import GITHUB_COMMENT_LIMIT, MARKER

from .helpers import REPO

FAKE_GH = """#!/bin/sh
# Keeps what `gh pr comment ... --body-file FILE` would post.
printf '%s\\n' "$@" > "$FAKE_GH_DIR/args"
while [ $# -gt 0 ]; do
  if [ "$1" = "--body-file" ]; then cp "$2" "$FAKE_GH_DIR/comment.md"; fi
  shift
done
"""


def _workflow() -> dict[str, Any]:
    text = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, flags=re.S)
    found = next(yaml.safe_load(b) for b in blocks if "jobs:" in b)
    assert isinstance(found, dict)
    return found


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def _repository(tmp_path: Path, env: dict[str, str]) -> Path:
    """A checkout of the pull request: base branch with the old profile, PR with the new."""
    repo = tmp_path / "repo"
    (repo / "scheduler" / "snapshot").mkdir(parents=True)
    shutil.copy(REPO / "examples" / "diff" / "cluster.yaml", repo / "scheduler" / "snapshot")
    profile = repo / env["PROFILE"]
    shutil.copy(REPO / "examples" / "diff" / "base.yaml", profile)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", ".")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "base")
    _git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    shutil.copy(REPO / "examples" / "diff" / "head.yaml", profile)
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qam", "pr")
    return repo


def _condition(step: dict[str, Any], outputs: dict[str, dict[str, str]]) -> bool:
    cond = step.get("if")
    if cond is None:
        return True
    m = re.fullmatch(r"steps\.(\w+)\.outputs\.(\w+) == '(\w+)'", cond)
    assert m is not None, f"the test does not know how to evaluate {cond!r}"
    return outputs.get(m[1], {}).get(m[2]) == m[3]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_documented_workflow_runs(tmp_path: Path) -> None:
    workflow = _workflow()
    job = workflow["jobs"]["ksched"]
    gh_dir = tmp_path / "gh"
    gh_dir.mkdir()
    gh = gh_dir / "gh"
    gh.write_text(FAKE_GH, encoding="utf-8")
    gh.chmod(gh.stat().st_mode | stat.S_IEXEC)
    runner_temp = tmp_path / "runner"
    runner_temp.mkdir()
    env = {k: str(v) for k, v in workflow["env"].items()}
    repo = _repository(tmp_path, env)
    bin_dir = Path(sys.executable).parent
    base_env = {
        **os.environ, **env,
        "PATH": f"{gh_dir}{os.pathsep}{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "RUNNER_TEMP": str(runner_temp), "FAKE_GH_DIR": str(gh_dir),
    }
    expressions = {"${{ github.base_ref }}": "main", "${{ github.token }}": "token",
                   "${{ github.event.pull_request.number }}": "42"}
    outputs: dict[str, dict[str, str]] = {}
    codes: dict[str, int] = {}
    for step in job["steps"]:
        if "uses" in step:
            continue  # checkout and setup-python: done above
        name = step["name"]
        if name == "Install ksched":
            assert step["run"] == 'pip install "$KSCHED_WHEEL"'
            assert env["KSCHED_WHEEL"].endswith(".whl")
            continue
        if not _condition(step, outputs):
            continue
        step_env = dict(base_env)
        for key, value in step.get("env", {}).items():
            step_env[key] = expressions.get(value, value)
        output_file = runner_temp / f"output-{len(codes)}"
        output_file.touch()
        step_env["GITHUB_OUTPUT"] = str(output_file)
        # GitHub's default shell for run steps.
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=repo, env=step_env, capture_output=True, text=True, timeout=300,
        )
        codes[name] = done.returncode
        if "id" in step:
            lines = output_file.read_text(encoding="utf-8").splitlines()
            outputs[step["id"]] = dict(line.split("=", 1) for line in lines)
    assert codes["Validate the profile"] == 0
    assert codes["Diff placements against the base branch"] == 0
    assert outputs["diff"] == {"code": "3"}  # head.yaml preempts batch-0
    assert codes["Comment on the pull request"] == 0
    comment = (gh_dir / "comment.md").read_text(encoding="utf-8")
    assert comment.startswith(MARKER) and len(comment) < GITHUB_COMMENT_LIMIT
    assert "default/batch-0" in comment
    args = (gh_dir / "args").read_text(encoding="utf-8").split()
    assert args[:3] == ["pr", "comment", "42"] and "--edit-last" in args
    assert codes["Fail when pods become unschedulable or preempted"] == 1
