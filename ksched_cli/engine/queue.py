"""The scheduling queue on a simulated clock (internal/queue/scheduling_queue.go).

activeQ is a heap ordered by the profile's QueueSort; backoffQ holds pods until their
backoff expires; unschedulablePods waits for a cluster change. See semantics.md §3.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ..framework.types import QueuedPodInfo
from ..versions.features import V130, Features
from .backoff_queue import BackoffQueue
from .pod_events import AFTER_BACKOFF, IMMEDIATELY, SKIP, UPDATE, PodEvent

if TYPE_CHECKING:
    from .queueing_hints import Event

LessFunc = Callable[[QueuedPodInfo, QueuedPodInfo], bool]


class Hints(Protocol):
    """Queueing hints of the profiles (v1.32+); see engine/queueing_hints.py."""

    def of_interest(self, event: Event) -> bool: ...

    def worth_requeuing(self, info: QueuedPodInfo, event: Event) -> str: ...

    def concerns(self, info: QueuedPodInfo, event: Event) -> bool: ...


class _Entry:
    __slots__ = ("info", "less")

    def __init__(self, info: QueuedPodInfo, less: LessFunc) -> None:
        self.info = info
        self.less = less

    def __lt__(self, other: _Entry) -> bool:
        return self.less(self.info, other.info)


class SchedulingQueue:
    def __init__(
        self,
        less: LessFunc,
        initial_backoff: float,
        max_backoff: float,
        features: Features = V130,
    ) -> None:
        self._less = less
        self._active: list[_Entry] = []
        self._backoff = BackoffQueue(less, initial_backoff, max_backoff, features)
        self.unschedulable: dict[str, QueuedPodInfo] = {}
        self.scheduling_cycle = 0
        self.now = 0.0  # kept current by the engine, for first-entry timestamps
        self.move_request_cycle = -1
        self._in_active: set[str] = set()
        # With queueing hints (v1.32+): the events seen while each popped pod was in flight.
        self.hints: Hints | None = None
        self._in_flight: dict[str, list[Event]] = {}

    # --- entering the queue ------------------------------------------------------------
    def add_active(self, info: QueuedPodInfo) -> None:
        uid = info.pod.uid
        if uid in self._in_active:
            return
        self._backoff.discard(uid)
        self.unschedulable.pop(uid, None)
        self._in_active.add(uid)
        if info.initial_attempt_timestamp is None:
            info.initial_attempt_timestamp = self.now
        heapq.heappush(self._active, _Entry(info, self._less))

    def _add_backoff(self, info: QueuedPodInfo) -> None:
        self.unschedulable.pop(info.pod.uid, None)
        failed_with_error = not info.unschedulable_plugins and not info.pending_plugins
        self._backoff.add(info, error=failed_with_error)

    def add_unschedulable(
        self, info: QueuedPodInfo, pod_cycle: int, now: float, has_rejectors: bool
    ) -> None:
        """AddUnschedulableIfNotPresent; without queueing hints as v1.30 does."""
        if has_rejectors:
            info.unschedulable_count += 1
            info.consecutive_errors = 0
        else:
            info.consecutive_errors += 1
        info.timestamp = now
        events = self._in_flight.pop(info.pod.uid, [])
        if self.hints is not None:
            self._requeue(info, self._in_flight_strategy(info, events, self.hints), now)
        elif self.move_request_cycle >= pod_cycle or not has_rejectors:
            self._add_backoff(info)
        else:
            self.unschedulable[info.pod.uid] = info

    def _in_flight_strategy(
        self, info: QueuedPodInfo, events: list[Event], hints: Hints
    ) -> str:
        """determineSchedulingHintForInFlightPod."""
        if not info.unschedulable_plugins and not info.pending_plugins:
            return AFTER_BACKOFF
        strategy = SKIP
        for event in events:
            found = hints.worth_requeuing(info, event)
            if found == IMMEDIATELY:
                return IMMEDIATELY
            if found == AFTER_BACKOFF:
                strategy = AFTER_BACKOFF
                if not info.pending_plugins:
                    return strategy
        return strategy

    def _requeue(self, info: QueuedPodInfo, strategy: str, now: float) -> None:
        """requeuePodViaQueueingHint."""
        if strategy == SKIP:
            self.unschedulable[info.pod.uid] = info
        elif strategy == AFTER_BACKOFF and self.is_backing_off(info, now):
            self._add_backoff(info)
        else:
            self.add_active(info)

    def done(self, uid: str) -> None:
        """The pod left the scheduling and binding cycle: stop collecting its events."""
        self._in_flight.pop(uid, None)

    # --- leaving the queue ----------------------------------------------------------
    def pop(self) -> QueuedPodInfo | None:
        info = self._pop_active()
        if info is None and self._backoff.windows:
            info = self._backoff.pop_head()  # v1.33+: an idle activeQ takes backoffQ's head
        if info is None:
            return None
        self.scheduling_cycle += 1
        info.attempts += 1
        if self.hints is not None:
            self._in_flight[info.pod.uid] = []
            # Each attempt starts afresh (activeQueue.unlockedPop clears the sets).
            info.unschedulable_plugins = set()
            info.pending_plugins = set()
        return info

    def _pop_active(self) -> QueuedPodInfo | None:
        while self._active:
            info = heapq.heappop(self._active).info
            if info.pod.uid not in self._in_active:
                continue  # removed while queued
            self._in_active.discard(info.pod.uid)
            return info
        return None

    def delete(self, uid: str) -> None:
        self._in_flight.pop(uid, None)
        self._in_active.discard(uid)
        self._backoff.discard(uid)
        self.unschedulable.pop(uid, None)

    # --- moves ------------------------------------------------------------------------
    def backoff_duration(self, info: QueuedPodInfo) -> float:
        return self._backoff.duration(info)

    def backoff_expiry(self, info: QueuedPodInfo) -> float:
        return self._backoff.expiry(info)

    def is_backing_off(self, info: QueuedPodInfo, now: float) -> bool:
        return self._backoff.is_backing_off(info, now)

    def move_all(self, now: float, exclude: str = "", event: Event | None = None) -> None:
        """MoveAllToActiveOrBackoffQueue: every unschedulable pod moves, the cycle is marked.

        With queueing hints the ``event`` decides who moves (``_move_with_hints``).
        """
        if self.hints is not None and event is not None:
            self._move_with_hints(now, exclude, event, self.hints)
            return
        for info in list(self.unschedulable.values()):
            if info.pod.uid == exclude:
                continue
            if self.is_backing_off(info, now):
                self._add_backoff(info)
            else:
                self.add_active(info)
        self.move_request_cycle = self.scheduling_cycle

    def move_on_event(
        self, now: float, worth: Callable[[QueuedPodInfo], bool]
    ) -> list[QueuedPodInfo]:
        """movePodsToActiveOrBackoffQueue for one cluster event of interest: the pods
        ``worth`` accepts move (to backoffQ while backing off); the cycle is marked."""
        moved = []
        for info in list(self.unschedulable.values()):
            if not worth(info):
                continue
            if self.is_backing_off(info, now):
                self._add_backoff(info)
            else:
                self.add_active(info)
            moved.append(info)
        self.move_request_cycle = self.scheduling_cycle
        return moved

    def status_patched(self, uid: str, now: float) -> None:
        """SchedulingQueue.Update on the scheduler's own status patch of a pending pod
        (its condition or nomination written): with hints (v1.32+) a pod waiting in
        unschedulablePods moves if a rejector registered every Pod update; v1.30 ignores
        a status-only update (isPodUpdated)."""
        info = self.unschedulable.get(uid)
        if info is not None and self.hints is not None:
            self._requeue_if_worth(info, PodEvent(UPDATE, info.pod, ""), self.hints, now)

    def move_with_hints(
        self,
        now: float,
        event: Event,
        pre_check: Callable[[QueuedPodInfo], bool] | None = None,
    ) -> list[QueuedPodInfo]:
        """A cluster event under queueing hints: the pods it moved, in queue order. Only
        pods ``pre_check`` accepts are considered (the in-flight record is unfiltered)."""
        assert self.hints is not None
        return self._move_with_hints(now, "", event, self.hints, pre_check)

    def _move_with_hints(
        self,
        now: float,
        exclude: str,
        event: Event,
        hints: Hints,
        pre_check: Callable[[QueuedPodInfo], bool] | None = None,
    ) -> list[QueuedPodInfo]:
        """movePodsToActiveOrBackoffQueue with hints, then record the in-flight event."""
        if not hints.of_interest(event):
            return []
        moved = []
        for info in list(self.unschedulable.values()):
            if info.pod.uid == exclude or not hints.concerns(info, event):
                continue
            if pre_check is not None and not pre_check(info):
                continue
            if self._requeue_if_worth(info, event, hints, now):
                moved.append(info)
        self.move_request_cycle = self.scheduling_cycle
        for events in self._in_flight.values():
            events.append(event)
        return moved

    def _requeue_if_worth(
        self, info: QueuedPodInfo, event: Event, hints: Hints, now: float
    ) -> bool:
        """isPodWorthRequeuing, then requeuePodWithQueueingStrategy: whether it moved."""
        strategy = hints.worth_requeuing(info, event)
        if strategy == SKIP:
            return False
        del self.unschedulable[info.pod.uid]
        self._requeue(info, strategy, now)
        return True

    def activate(self, uid: str) -> bool:
        """Activate: a pod in unschedulablePods or backoffQ goes to activeQ at once."""
        if uid in self.unschedulable:
            self.add_active(self.unschedulable[uid])
            return True
        info = self._backoff.get(uid)
        if info is not None:
            self.add_active(info)
            return True
        return False

    def flush_backoff(self, now: float) -> None:
        """Pods whose backoff has expired move to activeQ."""
        for info in self._backoff.pop_completed(now):
            self.add_active(info)

    def next_backoff_expiry(self) -> float | None:
        """When the next backoffQ pod becomes ready (the clock may jump there)."""
        return self._backoff.next_ready()

    def has_active(self) -> bool:
        return bool(self._in_active)

    def in_backoff(self, uid: str) -> bool:
        return uid in self._backoff
