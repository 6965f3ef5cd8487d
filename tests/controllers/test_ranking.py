"""ActivePodsWithRanks and ActivePods, on ksched's pods (bound = Running and Ready)."""

from __future__ import annotations

from ksched_cli.api.meta import DEFAULT_TIME
from ksched_cli.api.pod import Pod
from ksched_cli.controllers.ranking import active_pods_order, deletion_cost, pods_to_delete
from tests.fakes import make_pod

DAY = 86400.0


def _pod(name: str, node: str = "", created: float | None = None, cost: str | None = None) -> Pod:
    pod = make_pod(name, node=node)
    pod.meta.creation_timestamp = created
    if cost is not None:
        pod.meta.annotations = {"controller.kubernetes.io/pod-deletion-cost": cost}
    return pod


def test_rank_order() -> None:
    now = DEFAULT_TIME
    pods = [
        _pod("old", "n1", now - 1000 * DAY),
        _pod("doubled-a", "n2", now - 1000 * DAY),
        _pod("doubled-b", "n2", now - 1000 * DAY),
        _pod("pending"),
        _pod("young", "n3", now - DAY),
        _pod("cheap", "n4", now - 1000 * DAY, cost="-5"),
    ]
    order = [p.name for p in pods_to_delete(pods, pods, len(pods) - 1, now)]
    # Unassigned, then the lower deletion cost, then doubled up (equal pods keep their
    # order), then newer.
    assert order == ["pending", "cheap", "doubled-a", "doubled-b", "young"]


def test_equal_log_ranks_fall_back_to_uid() -> None:
    now = DEFAULT_TIME
    b = _pod("b", "n1", now - 1000 * DAY)
    a = _pod("a", "n2", now - 1001 * DAY)
    assert [p.name for p in pods_to_delete([b, a], [b, a], 1, now)] == ["a"]


def test_deletion_cost_parsing() -> None:
    assert deletion_cost(_pod("x", cost="12")) == 12
    assert deletion_cost(_pod("x", cost="nope")) == 0
    assert deletion_cost(_pod("x", cost=str(2**31))) == 0
    assert deletion_cost(_pod("x")) == 0


def test_active_pods_puts_unassigned_then_newer_first() -> None:
    pods = [_pod("old", "n1", 1.0), _pod("new", "n1", 2.0), _pod("pending")]
    assert [p.name for p in active_pods_order(pods)] == ["pending", "new", "old"]
