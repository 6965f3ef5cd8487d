"""kube-scheduler's own outcomes (../shared/conformance cases, copied here as data).

Each case is planned in-process with ``-o json --explain`` semantics and compared the
way shared/conformance/check.py compares (plus attempt time, message and tiedWith).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ksched_cli.config.load import load_config
from ksched_cli.engine.engine import ARRAYS_FROM_NODES, Engine, EngineOptions
from ksched_cli.render.document import plan_document
from ksched_cli.versions.releases import release
from ksched_cli.whatif.inputs import load_cluster

CASES = Path(__file__).parent / "cases"
# Cases that need features of open issues (volume plugins, Permit/Coscheduling).
KNOWN_FAILURES: set[str] = set()


def _case_names() -> list[str]:
    return sorted(p.name for p in CASES.iterdir() if (p / "expected.json").exists())


def plan_case(case: Path, version: str | None = None) -> list[dict[str, Any]]:
    """The case planned as a user's run plans it; a cluster small enough that the engine
    takes the per-node paths is planned again on the array paths (both must match)."""
    profile, cluster = str(case / "profile.yaml"), [str(case / "cluster.yaml")]
    config = load_config(profile, release(version).features) if version else load_config(profile)
    plans = []
    for vectorize in (None, True):
        loaded = (
            load_cluster(cluster, kubernetes_version=version) if version else load_cluster(cluster)
        )
        if vectorize and len(loaded.cluster.nodes) >= ARRAYS_FROM_NODES:
            break
        engine = Engine(config, loaded.cluster, EngineOptions(vectorize=vectorize))
        plans.append(plan_document(engine.run(), explain=True))
    return plans


def _pods(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    keys = ("outcome", "node", "preemptedBy", "message")
    return {p["pod"]: {k: p.get(k) or None for k in keys} for p in doc["pods"]}


def _attempt(a: dict[str, Any]) -> dict[str, Any]:
    filtered = {
        n: (f.get("plugin"), list(f.get("reasons") or []))
        for n, f in (a.get("filtered") or {}).items()
    }
    return {
        "pod": a["pod"],
        "result": a.get("result"),
        "node": a.get("node") or None,
        "victims": sorted(a.get("victims") or []),
        "scores": a.get("scores") or {},
        "filtered": filtered,
        "time": float(a.get("time", 0)),
        "message": a.get("message") or None,
        "tiedWith": sorted(set(a.get("tiedWith") or []) - {a.get("node")}),
    }


@pytest.mark.parametrize("name", _case_names())
def test_case(name: str) -> None:
    if name in KNOWN_FAILURES:
        pytest.xfail("needs an open issue's feature")
    case = CASES / name
    expected = json.loads((case / "expected.json").read_text())
    for plan in plan_case(case):
        assert_same_plan(plan, expected)


def assert_same_plan(actual: dict[str, Any], expected: dict[str, Any]) -> None:
    """The pods' outcomes and every attempt, in order (the first differing attempt named)."""
    assert _pods(actual) == _pods(expected)
    got = [_attempt(a) for a in actual["attempts"]]
    want = [_attempt(a) for a in expected["attempts"]]
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        assert g == w, f"attempt {i} ({w['pod']})"
    assert len(got) == len(want)
