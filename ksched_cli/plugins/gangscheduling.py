"""GangScheduling (in the registry from v1.35; its feature gates are off by default).

Port of gangscheduling/gangscheduling.go (v1.35.7) for the pods ksched plans. Every step
first asks whether the pod names a workload (``spec.workloadRef``; ``schedulingGroup``
from v1.36); with the gates at their defaults the API server drops that field, so no pod
names one and each step lets the pod through, as kube-scheduler does: PreEnqueue admits,
Reserve and Unreserve do nothing, Permit allows at once. A profile may still enable the
plugin by name.
"""

from __future__ import annotations

from typing import Any

from ..api.pod import Pod
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.status import Status

NAME = "GangScheduling"


class Plugin:
    name = NAME

    def __init__(self, args: Any = None, handle: Handle | None = None) -> None:
        pass

    def pre_enqueue(self, pod: Pod) -> Status | None:
        return None

    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        return None

    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        return None

    def permit(self, state: CycleState, pod: Pod, node_name: str) -> tuple[Status | None, float]:
        return None, 0.0
