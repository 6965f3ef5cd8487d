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

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..api.pod import Pod
from ..api.policy import PodDisruptionBudget
from ..framework.columns import IntArray, NodeColumns
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import NodeInfo
from ..framework.nominations import PODS_COUNT
from ..framework.podinfo import PodInfo
from ..framework.status import Code, Status, as_error
from ..lazy_numpy import np
from ..versions.features import features_of
from .noderesources.fit import NAME as FIT
from .noderesources.fit import PRE_FILTER_STATE_KEY, PreFilterState
from .noderesources.usage import FitStatuses, Usage, fit_codes, live_usage, nominated_usage
from .preemption_room import DryRunNumbers, Room, Rows
from .preemption_victims import lower_priority_in_visit_order, reprieve

if TYPE_CHECKING:
    from ..framework.preemption import Screened

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


# Filters that keep accepting a node when pods leave it (NodePorts: fewer pods hold
# fewer host ports), besides those that never look at the node's pods.
REMOVAL_SAFE = POD_INDEPENDENT | {"NodePorts"}


def fit_decides_first(handle: Handle, state: CycleState) -> bool:
    """Whether every dry run on a node that Fit rejected in the filter pass meets Fit
    before any other rejecting plugin, as on that pass: the plugins ahead of Fit
    accepted the node with all its pods (and its nominated pods), and keep accepting
    it with fewer. Then screen_dry_runs may settle those nodes whatever the plugins
    after Fit are."""
    return _fit_after_only(handle, state, REMOVAL_SAFE)


def fit_decides_nominated(handle: Handle, state: CycleState) -> bool:
    """Whether Fit's verdict on a node with its nominated pods added, computed on the
    arrays, is the filter pass's answer wherever Fit rejects: the plugins ahead of Fit
    never look at the node's pods, so their verdicts hold with nominated pods too."""
    return _fit_after_only(handle, state, POD_INDEPENDENT)


def _fit_after_only(handle: Handle, state: CycleState, allowed: frozenset[str]) -> bool:
    """Fit is active (with its PreFilter state) and only ``allowed`` filters precede it."""
    if not getattr(handle, "vectorize", False) or state.active_filters is None:
        return False
    if not isinstance(state.get(PRE_FILTER_STATE_KEY), PreFilterState):
        return False
    for pl in state.active_filters:
        if pl.name == FIT:
            return True
        if pl.name not in allowed:
            return False
    return False


def inert_checked_filters(handle: Handle, state: CycleState) -> list[Any] | None:
    """The active filters besides Fit and the pod-independent ones, when each of them
    can tell which pods leave its state unchanged (``inert_pod``); None otherwise.

    On a node where every pod a dry run removes or adds is inert for all of them,
    their verdicts stay as they are and victim selection is a matter of resources."""
    if not getattr(handle, "vectorize", False) or state.active_filters is None:
        return None
    if not isinstance(state.get(PRE_FILTER_STATE_KEY), PreFilterState):
        return None
    out = []
    for pl in state.active_filters:
        if pl.name == FIT or pl.name in POD_INDEPENDENT:
            continue
        if not hasattr(pl, "inert_pod"):
            return None
        out.append(pl)
    return out


def _failure(plugin: str, status: Status) -> Status:
    """A plugin's rejection as RunFilterPlugins reports it (in a Status of its own)."""
    if not status.is_rejected():
        status = as_error(f'running "{plugin}" filter plugin: {status.message()}')
    return Status(status.code, *status.reasons, error=status.error, plugin=plugin)


def fit_with_nominated_statuses(
    handle: Handle, state: CycleState, pod: Pod, columns: NodeColumns, positions: IntArray
) -> FitStatuses:
    """NodeResourcesFit's status on live nodes with their nominated pods added.

    When the nominated pods fit, the node without them fits too, so this is Fit's
    whole part in RunFilterPluginsWithNominatedPods.
    """
    request = state.get(PRE_FILTER_STATE_KEY)
    assert isinstance(request, PreFilterState)
    usage = live_usage(request, columns, positions).plus(
        nominated_usage(request, columns, handle.nominations(), pod, positions)
    )
    return FitStatuses(*fit_codes(request, columns, positions, usage), plugin=FIT)


def screen_dry_runs(
    state: CycleState,
    potential: Sequence[NodeInfo],
    statuses: Mapping[str, Status],
    numbers: DryRunNumbers,
) -> Screened:
    """The dry run's outcome for nodes settled before any reprieve, all at once.

    A node without lower-priority pods has no victims. A node Fit rejected in the
    filter pass (so every plugin before Fit accepted it) that Fit still rejects once
    all lower-priority pods are gone and its nominated pods are added fails with
    Fit's status. Every other node is None: its dry run must run.
    """
    request = state.get(PRE_FILTER_STATE_KEY)
    assert isinstance(request, PreFilterState)
    columns = numbers.columns
    positions = np.array([ni.column_index for ni in potential], dtype=np.int64)
    usage = Usage({k: v[positions] for k, v in numbers.usage.values.items()})
    fit = FitStatuses(*fit_codes(request, columns, positions, usage), plugin=FIT)
    from_fit = [statuses[ni.name].plugin == FIT for ni in potential]
    no_victims = (numbers.lower.values[PODS_COUNT][positions] == 0).tolist()
    return _Screened(fit, from_fit, no_victims)


_NO_VICTIMS = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, NO_VICTIMS)


class _Screened:
    __slots__ = ("fit", "no_victims", "skips")

    def __init__(self, fit: FitStatuses, from_fit: list[bool], no_victims: list[bool]) -> None:
        self.fit = fit
        self.no_victims = no_victims
        self.skips = [
            nv or (ff and bool(code))
            for nv, ff, code in zip(no_victims, from_fit, fit.codes, strict=True)
        ]

    def status(self, k: int) -> Status:
        if self.no_victims[k]:
            return _NO_VICTIMS
        status = self.fit.status(k)
        assert status is not None and self.skips[k]
        return status


def select_victims_by_resources(
    handle: Handle,
    state: CycleState,
    pod: Pod,
    node_info: NodeInfo,
    pdbs: Sequence[PodDisruptionBudget],
    movers: frozenset[str] = frozenset(),
    checked: Sequence[Any] = (),
    numbers: DryRunNumbers | None = None,
) -> tuple[list[Pod], int, Status | None]:
    """SelectVictimsOnNode on resource numbers. ``movers``: uids of lower-priority pods
    whose removal and return do change the state of the ``checked`` filters; those go
    through RemovePod/AddPod on a copy of the state (the other filters read only the
    state and the node's labels), every other pod only moves resources. ``numbers``:
    the node's starting amounts, made for every node at once (else summed here)."""
    potential = lower_priority_in_visit_order(pod, node_info)
    if not potential:
        return [], 0, Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, NO_VICTIMS)
    sort_victims = features_of(handle).victims_sorted_after_reprieve
    if numbers is not None:
        room = numbers.rooms.room(node_info)
    else:
        request = state.get(PRE_FILTER_STATE_KEY)
        assert isinstance(request, PreFilterState)
        nominated = [
            pi.pod
            for pi in handle.nominated_pods_for_node(node_info.name)
            if pi.pod.priority >= pod.priority and pi.pod.uid != pod.uid
        ]
        removed = [pi.pod for pi in potential]
        room = Room.on_node(Rows(request), node_info, removed, nominated)
    work = state
    if movers:
        work = state.clone()
        for pi in potential:
            if pi.pod.uid in movers:
                _extension(handle.run_pre_filter_extension_remove_pod(work, pod, pi, node_info))
    status = _first_rejection(work, pod, node_info, room)
    if status is not None:
        return [], 0, status
    if not movers:
        # From here only resources can fail, and the pod fits with the nominated pods
        # exactly when both passes of RunFilterPluginsWithNominatedPods let it.
        victims, num_violating = reprieve(potential, pdbs, room.take, sort_victims)
        return victims, num_violating, None

    def fits(pi: PodInfo) -> bool:
        if pi.pod.uid not in movers:
            return room.take(pi)
        _extension(handle.run_pre_filter_extension_add_pod(work, pod, pi, node_info))
        if _accepted(checked, work, pod, node_info) and room.take(pi):
            return True
        _extension(handle.run_pre_filter_extension_remove_pod(work, pod, pi, node_info))
        return False

    victims, num_violating = reprieve(potential, pdbs, fits, sort_victims)
    return victims, num_violating, None


def _extension(status: Status | None) -> None:
    if status is not None and status.code != Code.SUCCESS:
        raise RuntimeError(status.message())


def _accepted(checked: Sequence[Any], state: CycleState, pod: Pod, node_info: NodeInfo) -> bool:
    for pl in checked:
        status = pl.filter(state, pod, node_info)
        if status is not None and status.code != Code.SUCCESS:
            return False
    return True


def _first_rejection(state: CycleState, pod: Pod, node_info: NodeInfo, room: Room) -> Status | None:
    """RunFilterPluginsWithNominatedPods on the node as ``room`` has it. The other
    plugins' verdicts do not depend on the node's pods, and Fit passing with the
    nominated pods means it passes without them, so one pass in order says it all."""
    for pl in state.active_filters or ():
        if pl.name == FIT:
            short = room.short()
            if short:
                return Status(Code.UNSCHEDULABLE, *short, plugin=FIT)
            continue
        status = pl.filter(state, pod, node_info)
        if status is not None and status.code != Code.SUCCESS:
            return _failure(pl.name, status)
    return None
