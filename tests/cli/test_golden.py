"""``ksched plan`` output of a few examples in every format, byte for byte against golden files.

Regenerate with ``KSCHED_UPDATE_GOLDEN=1 pytest tests/cli/test_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from .helpers import config_args, manifest_path, run

GOLDEN = Path(__file__).parent / "golden"

# Per example: its --explain-pod pods and the exit code of its plan.
EXAMPLES: dict[str, tuple[list[str], int]] = {
    "basic": (["default/web-0"], 0),
    "preemption": (["default/payments"], 0),
    "gang": (["default/training-0", "default/etl-0"], 2),
    "storage": (["default/web-0", "default/ssd-1"], 2),
    "extender": (["default/web-0"], 2),
}
FORMATS: dict[str, list[str]] = {
    "table.txt": [],
    "wide.txt": ["-o", "wide"],
    # Streamed --explain: Waiting attempts (gang) keep their place and their Permit lines.
    "explain.txt": ["--explain"],
    "explain.json": ["-o", "json", "--explain"],
    "plan.yaml": ["-o", "yaml"],
}


def _args(example: str, fmt: str) -> list[str]:
    base = [manifest_path(example), *config_args(example)]
    if fmt == "explain-pod.txt":
        pods = EXAMPLES[example][0]
        return base + [arg for pod in pods for arg in ("--explain-pod", pod)]
    return base + FORMATS[fmt]


CASES = [(e, f) for e in EXAMPLES for f in [*FORMATS, "explain-pod.txt"]]


@pytest.mark.parametrize(("example", "fmt"), CASES, ids=[f"{e}.{f}" for e, f in CASES])
def test_output_matches_golden(monkeypatch: pytest.MonkeyPatch, example: str, fmt: str) -> None:
    result = run(monkeypatch, *_args(example, fmt))
    assert result.exit_code == EXAMPLES[example][1], result.output
    assert result.stderr == ""
    golden = GOLDEN / f"{example}.{fmt}"
    if os.environ.get("KSCHED_UPDATE_GOLDEN") == "1":
        golden.write_text(result.stdout, encoding="utf-8")
    assert golden.is_file(), f"missing {golden}; run with KSCHED_UPDATE_GOLDEN=1"
    assert result.stdout == golden.read_text(encoding="utf-8")


def test_golden_set_is_complete() -> None:
    found = sorted(p.name for p in GOLDEN.iterdir() if p.is_file())
    assert found == sorted(f"{e}.{f}" for e, f in CASES)


@pytest.mark.parametrize("example", EXAMPLES)
def test_planning_twice_gives_identical_bytes(
    monkeypatch: pytest.MonkeyPatch, example: str
) -> None:
    # In one process: no state (counters, caches) may leak from one plan into the next.
    args = _args(example, "explain.json")
    assert run(monkeypatch, *args).stdout_bytes == run(monkeypatch, *args).stdout_bytes


@pytest.mark.parametrize("example", EXAMPLES)
def test_json_and_yaml_hold_the_same_document(
    monkeypatch: pytest.MonkeyPatch, example: str
) -> None:
    as_json = json.loads(run(monkeypatch, *_args(example, "explain.json")).stdout)
    as_yaml = yaml.safe_load(run(monkeypatch, *_args(example, "plan.yaml")).stdout)
    # -o yaml without --explain: the same document minus attempts and notes.
    for key in ("attempts", "notes"):
        as_json.pop(key, None)
    assert as_json == as_yaml
