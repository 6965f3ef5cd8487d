"""The scheduling queue: ordering, backoff and moves (semantics.md §3)."""

from __future__ import annotations

import pytest

from ksched_cli.engine.queue import SchedulingQueue
from ksched_cli.framework.types import QueuedPodInfo
from ksched_cli.plugins.queuesort import Plugin as PrioritySort
from tests.fakes import FakeHandle, make_pod


def _queue() -> SchedulingQueue:
    return SchedulingQueue(PrioritySort(None, FakeHandle([])).less, 1.0, 10.0)


def _info(name: str, priority: int = 0, index: int = 0) -> QueuedPodInfo:
    pod = make_pod(name, priority=priority)
    pod.load_index = index
    return QueuedPodInfo(pod=pod)


def test_pop_order_priority_then_time_then_load_order() -> None:
    q = _queue()
    for info in (_info("a", 0, 0), _info("b", 5, 1), _info("c", 0, 2), _info("d", 5, 3)):
        q.add_active(info)
    assert [q.pop().pod.name for _ in range(4)] == ["b", "d", "a", "c"]  # type: ignore[union-attr]
    assert q.pop() is None


@pytest.mark.parametrize(
    ("attempts", "backoff"), [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (5, 10.0), (9, 10.0)]
)
def test_backoff_doubles_and_caps(attempts: int, backoff: float) -> None:
    info = _info("a")
    info.attempts = attempts
    assert _queue().backoff_duration(info) == backoff


def test_failure_waits_for_a_cluster_change_then_backs_off() -> None:
    q = _queue()
    q.add_active(_info("a"))
    info = q.pop()
    assert info is not None
    q.add_unschedulable(info, q.scheduling_cycle, now=0.0, has_rejectors=True)
    assert "default/a" in q.unschedulable
    assert q.next_backoff_expiry() is None
    q.move_all(now=0.5)  # a bind at t=0.5: backoff (1s from t=0) not over yet
    assert q.unschedulable == {}
    assert q.next_backoff_expiry() == 1.0
    q.flush_backoff(1.0)
    assert q.pop() is info


def test_failure_after_a_move_in_the_same_cycle_goes_to_backoff() -> None:
    q = _queue()
    q.add_active(_info("a"))
    info = q.pop()
    assert info is not None
    q.move_all(now=0.0)
    q.add_unschedulable(info, q.scheduling_cycle, now=0.0, has_rejectors=True)
    assert q.unschedulable == {}
    assert q.next_backoff_expiry() == 1.0


def test_failure_without_rejector_plugins_backs_off() -> None:
    q = _queue()
    q.add_active(_info("a"))
    info = q.pop()
    assert info is not None
    q.add_unschedulable(info, q.scheduling_cycle, now=3.0, has_rejectors=False)
    assert q.next_backoff_expiry() == 4.0


def test_expired_backoff_moves_straight_to_active() -> None:
    q = _queue()
    q.add_active(_info("a"))
    info = q.pop()
    assert info is not None
    q.add_unschedulable(info, q.scheduling_cycle, now=0.0, has_rejectors=True)
    q.move_all(now=5.0)
    assert q.pop() is info


def test_activate_ignores_backoff_and_stale_entries_do_not_fire() -> None:
    q = _queue()
    q.add_active(_info("a"))
    info = q.pop()
    assert info is not None
    q.add_unschedulable(info, q.scheduling_cycle, now=0.0, has_rejectors=False)
    assert q.activate(info.pod.uid)
    assert q.pop() is info
    q.add_unschedulable(info, q.scheduling_cycle, now=0.0, has_rejectors=False)  # 2 attempts: 2s
    q.flush_backoff(1.0)  # the stale 1s entry must not release the pod
    assert q.pop() is None
    q.flush_backoff(2.0)
    assert q.pop() is info


def test_initial_attempt_timestamp_is_first_entry_time() -> None:
    q = _queue()
    q.now = 7.0
    info = _info("a")
    q.add_active(info)
    q.pop()
    q.now = 9.0
    q.add_active(info)
    assert info.initial_attempt_timestamp == 7.0
