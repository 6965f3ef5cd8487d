"""The real kube-scheduler's outcomes for every newer release (../shared/conformance/v1.NN).

Each ``v1.NN/cases`` directory is planned in-process under ``--kubernetes-version 1.NN``
and compared as ``test_conformance`` compares the v1.30 cases. CI runs every case; a
local run takes the cases aimed at release changes (``v13*``) and every fourth other one,
unless ``KSCHED_CONFORMANCE=all``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ksched_cli.versions.releases import release

from .test_conformance import assert_same_plan, plan_case

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "conformance"
_FULL = os.environ.get("CI") == "true" or os.environ.get("KSCHED_CONFORMANCE") == "all"


def _release_dirs() -> list[tuple[str, Path]]:
    if not SHARED.is_dir():
        return []
    found = []
    for cases in sorted(SHARED.glob("v1.*/cases")):
        found.append((cases.parent.name.removeprefix("v"), cases))
    return found


def _params() -> list[object]:
    params: list[object] = []
    for version, cases in _release_dirs():
        names = sorted(p.name for p in cases.iterdir() if (p / "expected.json").exists())
        for i, name in enumerate(names):
            if _FULL or name.startswith("v13") or i % 4 == 0:
                params.append(pytest.param(version, cases / name, id=f"{version}/{name}"))
    return params


def test_every_release_directory_is_wired() -> None:
    """Each release with a corpus is one ksched replays; CI must see the corpora."""
    if not SHARED.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{SHARED} is missing: CI runs beside ../shared")
        pytest.skip("../shared/conformance is not beside this checkout")
    versions = [v for v, _ in _release_dirs()]
    assert versions, "no v1.NN/cases directory found"
    for version in versions:
        assert release(version).version == version


@pytest.mark.parametrize(("version", "case"), _params())
def test_release_case(version: str, case: Path) -> None:
    expected = json.loads((case / "expected.json").read_text())
    for plan in plan_case(case, version):
        assert_same_plan(plan, expected)
