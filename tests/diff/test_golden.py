"""Every output format of ``ksched diff`` on examples/diff against golden files.

Regenerate with ``KSCHED_UPDATE_GOLDEN=1 pytest tests/diff/test_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from .helpers import CLUSTER, EXAMPLE_ARGS, NODE_POOL, run

GOLDEN = Path(__file__).parent / "golden"

CASES = {
    "profiles.txt": [*EXAMPLE_ARGS],
    "profiles.json": [*EXAMPLE_ARGS, "-o", "json"],
    "profiles.yaml": [*EXAMPLE_ARGS, "-o", "yaml"],
    "profiles.md": [*EXAMPLE_ARGS, "-o", "markdown"],
    "manifests.txt": [
        "--config", "examples/diff/base.yaml", "--base-manifests", CLUSTER,
        "--head-manifests", CLUSTER, "--head-manifests", NODE_POOL,
    ],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_output_matches_golden(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    result = run(monkeypatch, *CASES[name])
    assert result.exit_code == 3, result.output
    golden = GOLDEN / name
    if os.environ.get("KSCHED_UPDATE_GOLDEN") == "1":
        golden.write_text(result.stdout, encoding="utf-8")
    assert golden.is_file(), f"missing {golden}; run with KSCHED_UPDATE_GOLDEN=1"
    assert result.stdout == golden.read_text(encoding="utf-8")


def test_output_is_deterministic(monkeypatch: pytest.MonkeyPatch) -> None:
    first = run(monkeypatch, *CASES["profiles.json"]).stdout
    assert run(monkeypatch, *CASES["profiles.json"]).stdout == first


def test_json_and_yaml_hold_the_same_document(monkeypatch: pytest.MonkeyPatch) -> None:
    as_json = json.loads(run(monkeypatch, *CASES["profiles.json"]).stdout)
    as_yaml = yaml.safe_load(run(monkeypatch, *CASES["profiles.yaml"]).stdout)
    assert as_json == as_yaml


def test_example_shows_what_its_readme_promises(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = json.loads(run(monkeypatch, *CASES["profiles.json"]).stdout)
    assert doc["kind"] == "Diff"
    summary = doc["summary"]
    assert summary["moved"] >= 3
    assert summary["newlyPreempted"] == 1
    pods = {p["pod"]: p for p in doc["pods"]}
    assert pods["default/batch-0"]["head"] == {
        "outcome": "Preempted", "node": "node-c", "preemptedBy": "default/db-0",
    }
    assert pods["default/db-0"]["changes"] == ["victims"]
    moved = [p for p in doc["pods"] if p["changes"] == ["moved"]]
    for pod in moved:
        margin = pod["margin"]
        assert margin["base"]["margin"] < 0 <= margin["head"]["margin"]
        assert margin["drivers"][0]["plugin"] == "NodeResourcesFit"
