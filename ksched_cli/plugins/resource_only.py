"""Filtering and SelectVictimsOnNode on resource numbers, when only resources can change.

When every active Filter plugin is one whose verdict does not depend on the pods on
the node (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity) or is
NodeResourcesFit, and no PreFilter extension is active, removing and re-adding victims
(and adding the node's nominated pods for the first filter pass) only changes the
node's requested resources and pod count. The victims are then found by arithmetic on
those numbers, with the very same order, reprieve rule and statuses as the general path
in defaultpreemption.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..api.pod import Pod
from ..api.policy import PodDisruptionBudget
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import NodeInfo, add_requests
from ..framework.podinfo import PodInfo
from ..framework.status import Code, Status, as_error
from .noderesources.fit import NAME as FIT
from .noderesources.fit import PRE_FILTER_STATE_KEY, PreFilterState, fits_request
from .preemption_victims import lower_priority_in_visit_order, reprieve

POD_INDEPENDENT = frozenset({"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity"})
NO_VICTIMS = "No preemption victims found for incoming pod"


def resource_only(handle: Handle, state: CycleState) -> bool:
    """Whether this attempt's filters make victim selection a matter of resources only."""
    if not getattr(handle, "vectorize", False) or state.active_filters is None:
        return False
    if any(pl.name != FIT and pl.name not in POD_INDEPENDENT for pl in state.active_filters):
        return False
    if not isinstance(state.get(PRE_FILTER_STATE_KEY), PreFilterState):
        return False
    active_extensions = getattr(handle, "has_active_pre_filter_extensions", None)
    return active_extensions is not None and not active_extensions(state)


class _Resources:
    """What fits_request reads of a NodeInfo: allocatable, requested and the pod count."""

    __slots__ = ("allocatable", "pods", "requested")

    def __init__(self, node_info: NodeInfo) -> None:
        self.allocatable = node_info.allocatable
        self.requested = node_info.requested.clone()
        self.pods: list[None] = [None] * len(node_info.pods)

    def change(self, pod: Pod, sign: int) -> None:
        add_requests(self.requested, pod, sign)
        if sign > 0:
            self.pods.append(None)
        else:
            self.pods.pop()

    def fits(self, request: PreFilterState) -> bool:
        """fits_request found nothing short (the same tests, without building reasons)."""
        alloc, used = self.allocatable, self.requested
        if len(self.pods) + 1 > alloc.allowed_pod_number:
            return False
        if request.empty:
            return True
        if request.milli_cpu > 0 and request.milli_cpu > alloc.milli_cpu - used.milli_cpu:
            return False
        if request.memory > 0 and request.memory > alloc.memory - used.memory:
            return False
        eph = request.ephemeral_storage
        if eph > 0 and eph > alloc.ephemeral_storage - used.ephemeral_storage:
            return False
        capacity, usage = alloc.scalar_resources, used.scalar_resources
        return all(
            amount <= capacity.get(name, 0) - usage.get(name, 0)
            for name, amount, _ in request.scalars
        )

    def fits_with(self, request: PreFilterState, nominated: Sequence[Pod]) -> bool:
        """Both passes of RunFilterPluginsWithNominatedPods, once the static plugins passed."""
        if nominated:
            for other in nominated:
                self.change(other, 1)
            ok = self.fits(request)
            for other in nominated:
                self.change(other, -1)
            if not ok:
                return False
        return self.fits(request)


def _run_filters_with_nominated(
    state: CycleState,
    pod: Pod,
    node_info: NodeInfo,
    resources: _Resources,
    static: dict[str, Any],
    nominated: Sequence[Pod],
) -> Status | None:
    """RunFilterPluginsWithNominatedPods: first with the nominated pods added, then without."""
    if nominated:
        for other in nominated:
            resources.change(other, 1)
        status = _run_filters(state, pod, node_info, resources, static)
        for other in nominated:
            resources.change(other, -1)
        if status is not None:
            return status
    return _run_filters(state, pod, node_info, resources, static)


def _run_filters(
    state: CycleState, pod: Pod, node_info: NodeInfo, resources: _Resources, static: dict[str, Any]
) -> Status | None:
    """RunFilterPlugins on the changed node: static verdicts, then Fit on the numbers."""
    for pl in state.active_filters or ():
        if pl.name == FIT:
            request = state.get(PRE_FILTER_STATE_KEY)
            short = fits_request(request, resources)  # type: ignore[arg-type]
            status = Status(Code.UNSCHEDULABLE, *(r.reason for r in short)) if short else None
        else:
            if pl.name not in static:
                static[pl.name] = pl.filter(state, pod, node_info)
            status = static[pl.name]
        if status is not None and status.code != Code.SUCCESS:
            if not status.is_rejected():
                status = as_error(f'running "{pl.name}" filter plugin: {status.message()}')
            return Status(status.code, *status.reasons, error=status.error, plugin=pl.name)
    return None


def filter_with_nominated_pods(
    handle: Handle, state: CycleState, pod: Pod, node_info: NodeInfo
) -> Status | None:
    """RunFilterPluginsWithNominatedPods for a live node, without copying it or the state.

    Only valid when ``resource_only(handle, state)`` holds.
    """
    nominated = [
        pi.pod
        for pi in handle.nominated_pods_for_node(node_info.name)
        if pi.pod.priority >= pod.priority and pi.pod.uid != pod.uid
    ]
    return _run_filters_with_nominated(state, pod, node_info, _Resources(node_info), {}, nominated)


def select_victims_by_resources(
    handle: Handle,
    state: CycleState,
    pod: Pod,
    node_info: NodeInfo,
    pdbs: Sequence[PodDisruptionBudget],
) -> tuple[list[Pod], int, Status | None]:
    potential = lower_priority_in_visit_order(pod, node_info)
    if not potential:
        return [], 0, Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, NO_VICTIMS)
    resources = _Resources(node_info)
    for pi in potential:
        resources.change(pi.pod, -1)
    static: dict[str, Any] = {}
    nominated = [
        pi.pod
        for pi in handle.nominated_pods_for_node(node_info.name)
        if pi.pod.priority >= pod.priority and pi.pod.uid != pod.uid
    ]
    status = _run_filters_with_nominated(state, pod, node_info, resources, static, nominated)
    if status is not None:
        return [], 0, status

    request = state.get(PRE_FILTER_STATE_KEY)
    assert isinstance(request, PreFilterState)

    def fits(pi: PodInfo) -> bool:
        # The static plugins passed in the check above; only resources can fail now.
        resources.change(pi.pod, 1)
        if not resources.fits_with(request, nominated):
            resources.change(pi.pod, -1)
            return False
        return True

    victims, num_violating = reprieve(potential, pdbs, fits)
    return victims, num_violating, None
