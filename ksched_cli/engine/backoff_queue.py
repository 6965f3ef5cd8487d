"""backoffQ: pods waiting out their backoff (internal/queue, backend/queue/backoff_queue.go).

v1.30 orders pods by backoff expiry and moves them to activeQ once it has passed. From
v1.33 (SchedulerPopFromBackoffQ) expiries fall on whole-second windows, pods of equal
expiry are ordered by QueueSort, the queue's Pop takes the head when activeQ is empty,
and pods that failed without a rejecting plugin (errors) wait in a separate heap that is
never popped early. From v1.34 the backoff doubles per unschedulable attempt
(``unschedulable_count``), with errors counted apart (``consecutive_errors``).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable
from itertools import count

from ..framework.types import QueuedPodInfo
from ..versions.features import V130, Features

LessFunc = Callable[[QueuedPodInfo, QueuedPodInfo], bool]


class _Entry:
    __slots__ = ("expiry", "info", "less", "seq")

    def __init__(
        self, expiry: float, seq: int, info: QueuedPodInfo, less: LessFunc | None
    ) -> None:
        self.expiry = expiry
        self.seq = seq
        self.info = info
        self.less = less

    def __lt__(self, other: _Entry) -> bool:
        if self.expiry != other.expiry:
            return self.expiry < other.expiry
        if self.less is not None:  # lessBackoffCompletedWithPriority
            return self.less(self.info, other.info)
        return self.seq < other.seq


class BackoffQueue:
    def __init__(
        self, less: LessFunc, initial: float, maximum: float, features: Features = V130
    ) -> None:
        self._initial = initial
        self._max = maximum
        self.windows = features.pop_from_backoff_q
        self._by_count = features.unschedulable_count_backoff
        self._less = less if self.windows else None
        self._regular: list[_Entry] = []
        self._errors: list[_Entry] = []
        self._seq = count()
        # uid -> sequence number of its live entry; older entries are stale.
        self._live: dict[str, int] = {}

    # --- timing ---------------------------------------------------------------------
    def duration(self, info: QueuedPodInfo) -> float:
        """calculateBackoffDuration: initial doubled per further attempt, capped."""
        n = info.attempts
        if self._by_count:
            n = info.consecutive_errors or info.unschedulable_count
            if n == 0:
                return 0.0
        duration = self._initial
        for _ in range(1, n):
            if duration > self._max - duration:
                return self._max
            duration += duration
        return duration

    def expiry(self, info: QueuedPodInfo) -> float:
        raw = info.timestamp + self.duration(info)
        return float(math.floor(raw)) if self.windows else raw

    def is_backing_off(self, info: QueuedPodInfo, now: float) -> bool:
        if self.windows:  # !boTime.Before(alignToWindow(now))
            return self.expiry(info) >= math.floor(now)
        return self.expiry(info) > now

    def _ready_at(self, expiry: float) -> float:
        """The first instant the pod is no longer backing off."""
        return expiry + 1.0 if self.windows else expiry

    # --- contents -------------------------------------------------------------------
    def add(self, info: QueuedPodInfo, error: bool = False) -> None:
        seq = next(self._seq)
        self._live[info.pod.uid] = seq
        heap = self._errors if error and self.windows else self._regular
        heapq.heappush(heap, _Entry(self.expiry(info), seq, info, self._less))

    def discard(self, uid: str) -> None:
        self._live.pop(uid, None)

    def __contains__(self, uid: str) -> bool:
        return uid in self._live

    def get(self, uid: str) -> QueuedPodInfo | None:
        seq = self._live.get(uid)
        if seq is None:
            return None
        return next(e.info for e in (*self._regular, *self._errors) if e.seq == seq)

    def _is_live(self, entry: _Entry) -> bool:
        return self._live.get(entry.info.pod.uid) == entry.seq

    def _prune(self, heap: list[_Entry]) -> None:
        while heap and not self._is_live(heap[0]):
            heapq.heappop(heap)

    def pop_head(self) -> QueuedPodInfo | None:
        """The regular heap's head (Pop with an empty activeQ, v1.33+); errors wait."""
        self._prune(self._regular)
        if not self._regular:
            return None
        entry = heapq.heappop(self._regular)
        del self._live[entry.info.pod.uid]
        return entry.info

    def pop_completed(self, now: float) -> list[QueuedPodInfo]:
        """popAllBackoffCompleted: pods no longer backing off, regular heap first."""
        done: list[QueuedPodInfo] = []
        for heap in (self._regular, self._errors):
            while True:
                self._prune(heap)
                if not heap or self._ready_at(heap[0].expiry) > now:
                    break
                entry = heapq.heappop(heap)
                del self._live[entry.info.pod.uid]
                done.append(entry.info)
        return done

    def next_ready(self) -> float | None:
        """When the earliest pod stops backing off."""
        times = []
        for heap in (self._regular, self._errors):
            self._prune(heap)
            if heap:
                times.append(self._ready_at(heap[0].expiry))
        return min(times) if times else None
