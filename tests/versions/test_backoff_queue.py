"""backoffQ per release, table-driven.

Rows follow backoff_queue_test.go (v1.33-v1.35): TestBackoffQueue_calculateBackoffDuration,
TestBackoffQueue_getBackoffTime (window alignment), TestBackoffQueue_popAllBackoffCompleted
(the error heap) and active_queue_test's pop from backoffQ when activeQ is empty.
"""

from __future__ import annotations

import pytest

from ksched_cli.engine.backoff_queue import BackoffQueue
from ksched_cli.engine.queue import SchedulingQueue
from ksched_cli.framework.types import QueuedPodInfo
from ksched_cli.versions.releases import release
from tests.fakes import make_pod


def _info(name: str, timestamp: float = 0.0, attempts: int = 1, count: int = 1,
          priority: int = 0) -> QueuedPodInfo:
    info = QueuedPodInfo(pod=make_pod(name, priority=priority), timestamp=timestamp)
    info.attempts = attempts
    info.unschedulable_count = count
    info.unschedulable_plugins = {"NodeResourcesFit"}
    return info


def _by_priority(a: QueuedPodInfo, b: QueuedPodInfo) -> bool:
    return a.pod.priority > b.pod.priority


@pytest.mark.parametrize(
    ("version", "attempts", "count", "duration"),
    [
        ("1.30", 1, 0, 1.0),
        ("1.30", 3, 0, 4.0),
        ("1.30", 5, 0, 10.0),  # capped at podMaxBackoffSeconds
        ("1.36", 5, 1, 1.0),  # v1.34+: unschedulable failures count, not attempts
        ("1.36", 1, 4, 8.0),
        ("1.36", 1, 0, 0.0),  # never failed unschedulable: no backoff
    ],
)
def test_duration(version: str, attempts: int, count: int, duration: float) -> None:
    bq = BackoffQueue(_by_priority, 1.0, 10.0, release(version).features)
    assert bq.duration(_info("p", attempts=attempts, count=count)) == duration


@pytest.mark.parametrize(
    ("version", "timestamp", "now", "expiry", "backing_off"),
    [
        ("1.30", 0.5, 1.4, 1.5, True),
        ("1.30", 0.5, 1.5, 1.5, False),
        ("1.36", 0.5, 1.4, 1.0, True),  # expiry truncated to the window
        ("1.36", 0.5, 1.9, 1.0, True),  # still backing off within the expiry's second
        ("1.36", 0.5, 2.0, 1.0, False),
    ],
)
def test_windows(
    version: str, timestamp: float, now: float, expiry: float, backing_off: bool
) -> None:
    bq = BackoffQueue(_by_priority, 1.0, 10.0, release(version).features)
    info = _info("p", timestamp=timestamp)
    assert bq.expiry(info) == expiry
    assert bq.is_backing_off(info, now) is backing_off


def test_equal_windows_order_by_queue_sort_from_133() -> None:
    bq = BackoffQueue(_by_priority, 1.0, 10.0, release("1.36").features)
    bq.add(_info("low", timestamp=0.1, priority=1))
    bq.add(_info("high", timestamp=0.7, priority=9))
    head = bq.pop_head()
    assert head is not None and head.pod.name == "high"


def test_error_heap_is_never_popped_early() -> None:
    bq = BackoffQueue(_by_priority, 1.0, 10.0, release("1.36").features)
    failed = _info("error")
    failed.unschedulable_plugins = set()
    bq.add(failed, error=True)
    assert bq.pop_head() is None
    assert bq.next_ready() == 2.0
    assert [i.pod.name for i in bq.pop_completed(2.0)] == ["error"]


@pytest.mark.parametrize(("version", "popped"), [("1.30", None), ("1.32", None), ("1.36", "p")])
def test_idle_active_queue_pops_backoff(version: str, popped: str | None) -> None:
    queue = SchedulingQueue(_by_priority, 1.0, 10.0, release(version).features)
    info = QueuedPodInfo(pod=make_pod("p"))
    queue.add_active(info)
    assert queue.pop() is info
    info.unschedulable_plugins = {"NodeResourcesFit"}
    queue.add_unschedulable(info, queue.scheduling_cycle, 0.0, True)
    queue.move_all(0.0)  # v1.30 rule: into backoffQ
    got = queue.pop()
    assert (got.pod.name if got else None) == popped
