"""Shared helpers for the ``ksched plan`` CLI tests: the examples and a CliRunner wrapper."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from ksched_cli.cli.main import _register, cli
from ksched_cli.cli.plan_cmd import plan

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
# examples/diff is a `ksched diff` example, tested in tests/diff (upgrade, a
# `ksched diff --base-version` one, with the versions); capacity and scenario are
# `ksched capacity` and `ksched simulate` examples, tested in tests/whatif, as is
# maintenance (simulate and capacity).
OTHER_COMMANDS = ("diff", "upgrade", "capacity", "scenario", "maintenance")
PLAN_EXAMPLES = sorted(
    p.name for p in EXAMPLES.iterdir() if p.is_dir() and p.name not in OTHER_COMMANDS
)

_COMMAND = re.compile(r"^\s*(?:\$\s*)?ksched plan (?P<args>.+)$")


def ksched(*args: str) -> Result:
    """Any ``ksched`` command in-process, every command registered (run from where the
    test is: the ``at_repo`` fixture puts it at the repository root)."""
    _register()
    return CliRunner().invoke(cli, list(args))


def run(monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    """``ksched plan ARGS`` from the repository root, so paths in the output are relative."""
    monkeypatch.chdir(REPO)
    return CliRunner().invoke(plan, list(args))


def readme_commands(example: str) -> list[list[str]]:
    """The arguments of every ``ksched plan`` command in the example's README, pipes cut off."""
    text = (EXAMPLES / example / "README.md").read_text(encoding="utf-8")
    commands = []
    for line in text.splitlines():
        match = _COMMAND.match(line)
        if match:
            args = shlex.split(match["args"].split("|")[0])
            # Commands that call a live extender are tested in tests/extender instead.
            if "--extender-mode" in args and args[args.index("--extender-mode") + 1] == "call":
                continue
            commands.append(args)
    return commands


def config_args(example: str) -> list[str]:
    """``--config X`` and ``--extender-mode X`` as the README's first command gives them."""
    first = readme_commands(example)[0]
    args = []
    for flag in ("--config", "-c", "--extender-mode"):
        if flag in first:
            args += [flag, first[first.index(flag) + 1]]
    return args


def manifest_path(example: str) -> str:
    """The manifests the README's first command plans (a file or the example directory)."""
    first = readme_commands(example)[0]
    return first[0] if first and not first[0].startswith("-") else f"examples/{example}"


# What an example's plan says on stderr (most say nothing).
EXPECTED_STDERR: dict[str, str] = {
    "chart": "warning: ignoring 2 object(s) of kinds ksched does not read: ConfigMap (1), "
    "HorizontalPodAutoscaler (1)\n"
    "warning: cronjob/report: planned as one run, Job report-28401120 from its jobTemplate\n",
}


def plan_json(monkeypatch: pytest.MonkeyPatch, example: str) -> tuple[int, dict[str, Any]]:
    """Exit code and ``-o json --explain`` document of an example, planned as its README says."""
    result = run(monkeypatch, manifest_path(example), *config_args(example), "-o", "json",
                 "--explain")
    assert result.stderr == EXPECTED_STDERR.get(example, ""), result.stderr
    doc: dict[str, Any] = json.loads(result.stdout)
    return result.exit_code, doc
