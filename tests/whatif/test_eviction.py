"""The eviction subresource's answers, with the API server's messages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ksched_cli.engine.pdb_status import fill_missing_statuses
from ksched_cli.whatif.eviction import MORE_THAN_ONE, TOO_MANY_REQUESTS, evict

from .helpers import load, node, pdb, pod

WEB = {"app": "web"}


@pytest.mark.parametrize(
    ("budgets", "target", "allowed", "message", "left"),
    [
        pytest.param([], "web-0", True, "", None, id="no-budget"),
        pytest.param([pdb("web", WEB, min_available=1)], "web-0", True, "", 0, id="one-left"),
        pytest.param(
            [pdb("web", WEB, min_available=2)], "web-0", False,
            f"{TOO_MANY_REQUESTS} The disruption budget web needs 2 healthy pods and has 2 "
            "currently", 0, id="none-left",
        ),
        pytest.param(
            [pdb("web", WEB, status={"disruptionsAllowed": 0, "desiredHealthy": 5,
                                     "currentHealthy": 4})],
            "web-0", False,
            f"{TOO_MANY_REQUESTS} The disruption budget web needs 5 healthy pods and has 4 "
            "currently", 0, id="status-given",
        ),
        pytest.param(
            [pdb("web", WEB, status={"disruptionsAllowed": -1})], "web-0", False,
            'poddisruptionbudget.policy "web" is forbidden: pdb disruptions allowed is negative',
            -1, id="negative",
        ),
        pytest.param(
            [pdb("a", WEB, min_available=0), pdb("b", WEB, min_available=0)], "web-0", False,
            f"{MORE_THAN_ONE} (default/a, default/b)", None, id="two-budgets",
        ),
        pytest.param([pdb("web", WEB, min_available=2)], "pending", True, "", 0,
                     id="pending-pod-skips-budgets"),
        pytest.param([pdb("other", {"app": "db"}, min_available=5)], "web-0", True, "", None,
                     id="budget-of-other-pods"),
    ],
)
def test_eviction(tmp_path: Path, budgets: list[dict[str, Any]], target: str, allowed: bool,
                  message: str, left: int | None) -> None:
    cluster = load(tmp_path, [
        node("n1"), pod("web-0", "n1", labels=WEB), pod("web-1", "n1", labels=WEB),
        pod("pending", labels=WEB), *budgets,
    ])
    fill_missing_statuses(cluster.pdbs, cluster.pods)
    victim = next(p for p in cluster.pods if p.name == target)
    result = evict(victim, cluster.pdbs)
    assert (result.allowed, result.message) == (allowed, message)
    if left is not None:
        assert cluster.pdbs[0].disruptions_allowed == left


def test_an_accepted_eviction_is_recorded_as_disrupted(tmp_path: Path) -> None:
    cluster = load(tmp_path, [node("n1"), pod("web-0", "n1", labels=WEB),
                              pdb("web", WEB, max_unavailable=1)])
    fill_missing_statuses(cluster.pdbs, cluster.pods)
    assert evict(cluster.pods[0], cluster.pdbs).pdb == "default/web"
    assert cluster.pdbs[0].disrupted_pods == frozenset({"web-0"})
