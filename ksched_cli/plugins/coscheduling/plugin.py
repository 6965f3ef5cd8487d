"""Coscheduling: gang scheduling of PodGroups (scheduler-plugins v0.30 pkg/coscheduling).

QueueSort keeps a group's pods together, PreFilter turns away groups that cannot reach
quorum, PostFilter rejects the whole group when one member cannot be placed, and Permit
holds members until ``minMember`` of them are assigned. The engine owns the waiting
pods, the simulated clock and the timeouts; this plugin only allows or rejects.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping

from ...api.meta import DEFAULT_TIME
from ...api.pod import Pod
from ...config.args import CoschedulingArgs
from ...framework.cycle_state import CycleState
from ...framework.interface import Handle, PreFilterExtensions
from ...framework.status import Code, Status
from ...framework.types import PostFilterResult, PreFilterResult, QueuedPodInfo
from .core import (
    PermitDecision,
    PodGroupManager,
    namespaced_name,
    pod_group_full_name,
    pod_group_label,
)

NAME = "Coscheduling"
# util.DefaultWaitTime: the wait when neither the group nor the args set one.
DEFAULT_WAIT_SECONDS = 60.0


def _float32(value: float) -> float:
    return float(struct.unpack("f", struct.pack("f", value))[0])


# PostFilter compares a float32 ratio against the float32 constant 0.1.
_SMALL_GAP = _float32(0.1)


class Plugin:
    name = NAME

    def __init__(self, args: CoschedulingArgs | None, handle: Handle) -> None:
        args = args or CoschedulingArgs()
        self.handle = handle
        self.schedule_timeout = float(args.permit_waiting_time_seconds)
        self.backoff = float(args.pod_group_backoff_seconds)
        self.manager = PodGroupManager(handle, self.schedule_timeout)

    # --- QueueSort --------------------------------------------------------------------
    def less(self, a: QueuedPodInfo, b: QueuedPodInfo) -> bool:
        """Priority, then group (or first activeQ entry) time, then namespace/name."""
        if a.pod.priority != b.pod.priority:
            return a.pod.priority > b.pod.priority
        time_a = self._queue_time(a)
        time_b = self._queue_time(b)
        if time_a == time_b:
            return namespaced_name(a.pod) < namespaced_name(b.pod)
        return time_a < time_b

    def _queue_time(self, info: QueuedPodInfo) -> float:
        first_entry = DEFAULT_TIME + (info.initial_attempt_timestamp or 0.0)
        return self.manager.creation_timestamp(info.pod, first_entry)

    # --- PreFilter --------------------------------------------------------------------
    def pre_filter(
        self, state: CycleState, pod: Pod
    ) -> tuple[PreFilterResult | None, Status | None]:
        reason = self.manager.pre_filter(pod)
        if reason is not None:
            # Unresolvable, so that preemption is not attempted for this pod.
            return None, Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reason)
        return None, None

    def pre_filter_extensions(self) -> PreFilterExtensions | None:
        return None

    # --- PostFilter -------------------------------------------------------------------
    def post_filter(
        self, state: CycleState, pod: Pod, filtered: Mapping[str, Status]
    ) -> tuple[PostFilterResult | None, Status | None]:
        full_name, pg = self.manager.get_pod_group(pod)
        if pg is None:
            return PostFilterResult(), Status(Code.UNSCHEDULABLE, "can not find pod group")
        assigned = self.manager.calculate_assigned_pods(pg.name, pod.namespace)
        if assigned >= pg.min_member:
            # Quorum is already there; one more failing member does not sink the group.
            return PostFilterResult(), Status(Code.UNSCHEDULABLE)
        missing = _float32(_float32(pg.min_member - assigned) / _float32(pg.min_member))
        if missing <= _SMALL_GAP:
            # Close to quorum: later members may still make it.
            return PostFilterResult(), Status(Code.UNSCHEDULABLE)
        self._reject_waiting(pod.namespace, pg.name, "optimistic rejection in PostFilter")
        if self.backoff:
            members = self.manager.group_pods(pod.namespace, pod_group_label(pod))
            if len(members) >= pg.min_member:
                self.manager.backoff_pod_group(full_name, self.backoff)
        self.manager.delete_permitted_pod_group(full_name)
        message = (
            f"PodGroup {full_name} gets rejected due to Pod {pod.name} "
            "is unschedulable even after PostFilter"
        )
        return PostFilterResult(), Status(Code.UNSCHEDULABLE, message)

    # --- Permit -----------------------------------------------------------------------
    def permit(self, state: CycleState, pod: Pod, node_name: str) -> tuple[Status | None, float]:
        decision = self.manager.permit(state, pod)
        if decision is PermitDecision.POD_GROUP_NOT_SPECIFIED:
            return None, 0.0
        if decision is PermitDecision.POD_GROUP_NOT_FOUND:
            return Status(Code.UNSCHEDULABLE, "PodGroup not found"), 0.0
        if decision is PermitDecision.WAIT:
            _, pg = self.manager.get_pod_group(pod)
            wait = self._wait_time(pg.schedule_timeout_seconds if pg else None)
            self.manager.activate_siblings(pod, state)
            return Status(Code.WAIT), wait
        group = pod_group_full_name(pod)
        for waiting in self.handle.iterate_over_waiting_pods():
            if pod_group_full_name(waiting.pod) == group:
                waiting.allow(NAME)
        return None, 0.0

    def _wait_time(self, group_timeout: int | None) -> float:
        """The group's scheduleTimeoutSeconds, else the args' time, else 60 s; 0 keeps args."""
        if group_timeout is not None:
            wait = float(group_timeout)
        elif self.schedule_timeout != 0:
            wait = self.schedule_timeout
        else:
            wait = DEFAULT_WAIT_SECONDS
        return wait if wait != 0 else self.schedule_timeout

    # --- Reserve ----------------------------------------------------------------------
    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        return None

    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        full_name, pg = self.manager.get_pod_group(pod)
        if pg is None:
            return
        self._reject_waiting(pod.namespace, pg.name, "rejection in Unreserve")
        self.manager.delete_permitted_pod_group(full_name)

    def _reject_waiting(self, namespace: str, group: str, message: str) -> None:
        for waiting in self.handle.iterate_over_waiting_pods():
            if waiting.pod.namespace == namespace and pod_group_label(waiting.pod) == group:
                waiting.reject(NAME, message)
