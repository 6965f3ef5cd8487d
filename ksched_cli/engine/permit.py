"""Permit waits on the simulated clock (framework/runtime/waiting_pods_map.go, semantics.md §6).

A waiting pod stays assumed on its node until every waiting plugin allows it or a
plugin's timeout passes. Decisions taken during an attempt are processed after it.
"""

from __future__ import annotations

from dataclasses import field
from itertools import count
from typing import TYPE_CHECKING

from ..api.pod import Pod
from ..config.godur import format_duration
from ..framework.cycle_state import CycleState
from ..framework.status import Code, Status
from ..framework.types import QueuedPodInfo
from ..record import record
from .records import PermitWait
from .runtime import Framework

if TYPE_CHECKING:
    from .engine import Engine

_order = count()


@record(eq=False)
class WaitingPodEntry:
    """framework.WaitingPod: the first Allow-all or Reject wins, later signals are dropped."""

    pod: Pod
    info: QueuedPodInfo
    fwk: Framework
    state: CycleState
    node: str
    began: float
    deadlines: dict[str, float]
    timeouts: dict[str, float]
    order: int = field(default_factory=lambda: next(_order))
    decision: Status | None = None  # Success (allowed), Unschedulable (rejected), Error (preempted)
    # The Waiting attempt's explanation lines, completed when the wait ends.
    explain: list[str] = field(default_factory=list)
    # The Waiting attempt's waits as data (Attempt.permit), completed when the wait ends.
    waits: list[PermitWait] = field(default_factory=list)

    def ended(
        self, time: float, outcome: str, node: str = "", by: str = "", message: str = ""
    ) -> None:
        """Record on each of the attempt's waits when and how the wait ended."""
        for wait in self.waits:
            wait.end, wait.outcome = time, outcome
            wait.node, wait.by, wait.message = node, by, message

    def pending_plugins(self) -> list[str]:
        return list(self.deadlines)

    def allow(self, plugin: str) -> None:
        self.deadlines.pop(plugin, None)
        if not self.deadlines and self.decision is None:
            self.decision = Status(Code.SUCCESS)

    def reject(self, plugin: str, message: str) -> None:
        if self.decision is None:
            self.decision = Status(Code.UNSCHEDULABLE, message, plugin=plugin)

    def preempt(self, plugin: str, message: str) -> None:
        """WaitingPod.Preempt (v1.36): an error, not a rejection, so the pod is not marked
        unschedulable and goes to backoffQ."""
        if self.decision is None:
            self.decision = Status(Code.ERROR, message, plugin=plugin)

    def next_deadline(self) -> tuple[float, str] | None:
        if self.decision is not None or not self.deadlines:
            return None
        plugin = min(self.deadlines, key=lambda p: (self.deadlines[p], p))
        return self.deadlines[plugin], plugin


class PermitWaits:
    """The waiting-pods map of all profiles, with deadlines as clock events."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.pods: dict[str, WaitingPodEntry] = {}

    def add(self, entry: WaitingPodEntry) -> None:
        self.pods[entry.pod.uid] = entry

    def get(self, uid: str) -> WaitingPodEntry | None:
        return self.pods.get(uid)

    def in_order(self) -> list[WaitingPodEntry]:
        return sorted(self.pods.values(), key=lambda w: w.order)

    def next_deadline(self) -> float | None:
        times = [d[0] for w in self.pods.values() if (d := w.next_deadline()) is not None]
        return min(times) if times else None

    def fire_deadlines(self, now: float) -> None:
        """Timeouts due by ``now``: earliest first, then by the order pods began waiting."""
        while True:
            due = [
                (d[0], w.order, w, d[1])
                for w in self.pods.values()
                if (d := w.next_deadline()) is not None and d[0] <= now
            ]
            if not due:
                return
            _, _, entry, plugin = min(due, key=lambda t: (t[0], t[1]))
            waited = format_duration(round(entry.timeouts[plugin] * 1e9))
            entry.reject(
                plugin, f"rejected due to timeout after waiting {waited} at plugin {plugin}"
            )
            self.process_decisions()

    def pop_allowed(self) -> list[WaitingPodEntry]:
        allowed = [
            w for w in self.in_order() if w.decision is not None and w.decision.code == Code.SUCCESS
        ]
        for w in allowed:
            del self.pods[w.pod.uid]
        return allowed

    def process_decisions(self) -> None:
        """Handle every decided waiting pod in the order they began waiting, until none is left."""
        while True:
            allowed = self.pop_allowed()
            for entry in allowed:
                self.engine.cycle.bind_waiting(entry)
            rejected = [w for w in self.in_order() if w.decision is not None]
            if not rejected and not allowed:
                return
            if rejected:
                entry = rejected[0]
                del self.pods[entry.pod.uid]
                self.engine.cycle.reject_waiting(entry)
