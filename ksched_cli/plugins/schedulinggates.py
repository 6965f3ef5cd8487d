"""SchedulingGates: gated pods stay out of the queue (schedulinggates/scheduling_gates.go)."""

from __future__ import annotations

from typing import Any

from ..api.pod import Pod
from ..framework.interface import Handle
from ..framework.status import Code, Status

NAME = "SchedulingGates"


class Plugin:
    name = NAME

    def __init__(self, args: Any = None, handle: Handle | None = None) -> None:
        pass

    def pre_enqueue(self, pod: Pod) -> Status | None:
        if not pod.scheduling_gates:
            return None
        # Go formats the []string with %v: "[g1 g2]".
        gates = " ".join(pod.scheduling_gates)
        return Status(
            Code.UNSCHEDULABLE_AND_UNRESOLVABLE, f"waiting for scheduling gates: [{gates}]"
        )
