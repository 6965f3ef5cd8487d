"""The eviction subresource's answers, with the API server's messages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ksched_cli.engine.pdb_status import compute_status, fill_missing_statuses, refresh
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
                              pdb("web", WEB, min_available=0)])
    fill_missing_statuses(cluster.pdbs, cluster.pods)
    assert evict(cluster.pods[0], cluster.pdbs).pdb == "default/web"
    assert cluster.pdbs[0].disrupted_pods == frozenset({"web-0"})


RS = ("ReplicaSet", "web-abc")


def _replica_set(replicas: int) -> dict[str, Any]:
    """The ReplicaSet the web pods belong to, with ``replicas`` as its scale."""
    return {"apiVersion": "apps/v1", "kind": "ReplicaSet",
            "metadata": {"name": "web-abc", "namespace": "default"},
            "spec": {"replicas": replicas, "selector": {"matchLabels": WEB},
                     "template": {"metadata": {"labels": WEB},
                                  "spec": {"containers": [{"name": "c", "image": "i"}]}}}}


@pytest.mark.parametrize(
    ("spec", "replicas", "owner", "expected"),
    [
        # minAvailable as a number: expected = the selected pods (the ReplicaSet of 5
        # created 3 more, pending, not healthy).
        ({"min_available": 1}, 5, RS, (1, 2, 1, 5)),
        # maxUnavailable / percentages: expected = the controller's scale (replicas).
        ({"max_unavailable": 1}, 5, RS, (0, 2, 4, 5)),
        ({"max_unavailable": 1}, 2, RS, (1, 2, 1, 2)),
        # maxUnavailable of pods without a controller: expected 0, nothing allowed.
        ({"max_unavailable": 1}, 0, None, (0, 2, 0, 0)),
    ],
    ids=["min-number", "max-scale-5", "max-scale-2", "unmanaged"],
)
def test_status_as_the_disruption_controller_computes_it(
    tmp_path: Path, spec: dict[str, int], replicas: int, owner: tuple[str, str] | None,
    expected: tuple[int, int, int, int],
) -> None:
    """(disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods), pods pending
    not counting as healthy."""
    docs = [node("n1"), pdb("web", WEB, **spec),
            pod("web-abc-1", "n1", labels=WEB, owner=owner),
            pod("web-abc-2", "n1", labels=WEB, owner=owner)]
    if owner is not None:
        docs.append(_replica_set(replicas))
    cluster = load(tmp_path, docs)
    budget = cluster.pdbs[0]
    compute_status(budget, cluster.pods, cluster)
    got = (budget.disruptions_allowed, budget.current_healthy, budget.desired_healthy,
           budget.expected_pods)
    assert got == expected


def test_percentages_round_up(tmp_path: Path) -> None:
    """minAvailable 50% of a scale of 3 wants 2 healthy (GetScaledValueFromIntOrPercent)."""
    docs = [node("n1"), _replica_set(3), pdb("web", WEB),
            *(pod(f"web-abc-{i}", "n1", labels=WEB, owner=RS) for i in range(3))]
    docs[2]["spec"]["minAvailable"] = "50%"
    cluster = load(tmp_path, docs)
    compute_status(cluster.pdbs[0], cluster.pods, cluster)
    assert (cluster.pdbs[0].desired_healthy, cluster.pdbs[0].disruptions_allowed) == (2, 1)


def test_job_pods_have_no_scale(tmp_path: Path) -> None:
    """A Job has no scale subresource: the controller's failSafe allows nothing."""
    job = {"apiVersion": "batch/v1", "kind": "Job",
           "metadata": {"name": "batch", "namespace": "default"},
           "spec": {"template": {"metadata": {"labels": WEB}, "spec": {
               "restartPolicy": "Never", "containers": [{"name": "c", "image": "i"}]}}}}
    cluster = load(tmp_path, [node("n1"), job, pdb("web", WEB, max_unavailable=1)])
    note = compute_status(cluster.pdbs[0], cluster.pods, cluster)
    assert cluster.pdbs[0].disruptions_allowed == 0
    assert "jobs.batch does not implement the scale subresource" in note


def test_a_written_status_holds_until_its_pods_change(tmp_path: Path) -> None:
    status = {"disruptionsAllowed": 0, "desiredHealthy": 5, "currentHealthy": 4}
    cluster = load(tmp_path, [node("n1"), pod("web-0", "n1", labels=WEB),
                              pod("web-1", "n1", labels=WEB),
                              pdb("web", WEB, min_available=1, status=status)])
    budget = cluster.pdbs[0]
    fill_missing_statuses(cluster.pdbs, cluster.pods, cluster)
    refresh(cluster.pdbs, cluster)
    assert (budget.disruptions_allowed, budget.desired_healthy) == (0, 5)
    cluster.pods.remove(cluster.pods[0])  # the simulation deleted a pod it selects
    refresh(cluster.pdbs, cluster)
    assert (budget.disruptions_allowed, budget.current_healthy, budget.desired_healthy) == (0, 1, 1)
