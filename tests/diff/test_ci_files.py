"""The CI integration files: the pre-commit hook manifest and the documented workflow."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner, Result

from ksched_cli.cli.main import _register, cli

from .helpers import REPO


def hook() -> dict[str, Any]:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    [only] = [h for h in hooks if h["id"] == "ksched-validate"]
    assert isinstance(only, dict)
    return only


def test_validate_hook_runs_ksched_validate_on_yaml_by_content() -> None:
    h = hook()
    assert h["entry"] == "ksched validate --only-scheduler-configs"
    assert h["language"] == "python"
    assert h["types_or"] == ["yaml", "json"]
    assert "files" not in h  # names mislead; documents are judged by kind


STATIC_POD = """apiVersion: v1
kind: Pod
metadata: {name: kube-scheduler, namespace: kube-system}
spec:
  containers:
  - {name: kube-scheduler, image: registry.k8s.io/kube-scheduler:v1.30.6}
"""

CONFIG_MAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: scheduler-config
data:
  note: hello
  config.yaml: |
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - schedulerName: default-scheduler
      percentageOfNodesToScore: 150
"""

VALID = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
"""


def _validate(tmp_path: Path, files: dict[str, str]) -> Result:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    _register()
    args = ["validate", "--only-scheduler-configs", *(str(tmp_path / n) for n in files)]
    return CliRunner().invoke(cli, args)


def test_hook_skips_a_static_pod_with_a_note(tmp_path: Path) -> None:
    result = _validate(tmp_path, {"kube-scheduler.yaml": STATIC_POD})
    assert result.exit_code == 0
    assert result.stderr == (
        f"note: {tmp_path}/kube-scheduler.yaml: document 1 skipped (kind Pod, not a "
        "KubeSchedulerConfiguration)\n"
    )


def test_hook_checks_a_configuration_inside_a_config_map(tmp_path: Path) -> None:
    result = _validate(tmp_path, {"scheduler-config.yaml": CONFIG_MAP})
    assert result.exit_code == 1
    # Line and column point into the ConfigMap's file, at the offending field.
    assert result.stdout == (
        f"{tmp_path}/scheduler-config.yaml:12:7: error: profiles[0].percentageOfNodesToScore: "
        "Invalid value: 150: not in valid range [0-100]\n"
    )


def test_hook_checks_only_the_configuration_of_a_mixed_file(tmp_path: Path) -> None:
    result = _validate(tmp_path, {"all.yaml": VALID})
    assert result.exit_code == 0
    assert result.stdout == f"{tmp_path}/all.yaml: valid\n"
    assert "document 2 skipped (kind Deployment" in result.stderr


def test_hook_refuses_a_fifo_and_a_directory_without_reading_them(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)  # never opened for writing: reading it would block forever
    (tmp_path / "dir.yaml").mkdir()
    _register()
    args = ["validate", "--only-scheduler-configs", str(fifo), str(tmp_path / "dir.yaml")]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    assert result.stdout == (
        f"{fifo}: error: not a regular file (a named pipe): ksched reads regular files, or - for "
        "standard input\n"
        f"{tmp_path}/dir.yaml: error: is a directory, expected a file\n"
    )


def test_documented_workflow_is_yaml_running_validate_and_markdown_diff() -> None:
    text = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, flags=re.S)
    workflow = next(yaml.safe_load(b) for b in blocks if "jobs:" in b)
    steps = workflow["jobs"]["ksched"]["steps"]
    runs = "\n".join(s.get("run", "") for s in steps)
    assert "ksched validate" in runs
    assert "ksched diff" in runs and "-o markdown" in runs
    assert "gh pr comment" in runs
