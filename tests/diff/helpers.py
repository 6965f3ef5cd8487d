"""Shared helpers for the diff tests: the example's paths and a CliRunner wrapper."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ksched_cli.cli.diff_cmd import diff

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = "examples/diff"
BASE = f"{EXAMPLE}/base.yaml"
HEAD = f"{EXAMPLE}/head.yaml"
CLUSTER = f"{EXAMPLE}/cluster.yaml"
NODE_POOL = f"{EXAMPLE}/node-pool.yaml"
EXAMPLE_ARGS = ["--base", BASE, "--head", HEAD, CLUSTER]


def run(monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    """``ksched diff ARGS`` from the repository root, so paths in the output are relative."""
    monkeypatch.chdir(REPO)
    return CliRunner().invoke(diff, list(args))
