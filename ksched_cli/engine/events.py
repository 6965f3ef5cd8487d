"""Cluster events and the plugins that register them (framework/types.go, internal/queue
events.go and each plugin's EventsToRegister, v1.30), for what-if scenarios.

An event moves an unschedulable pod back to activeQ/backoffQ only when one of the plugins
that rejected it registered a matching event, as isPodWorthRequeuing decides with
queueing hints disabled (the v1.30 default). Binds, preemption deletions and rejected
waiting pods keep the engine's move-everything handling (semantics.md §3).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from ..api.node import Node
from ..api.pod import Pod
from ..framework.nodeinfo import NodeInfo
from ..framework.types import QueuedPodInfo
from ..plugins.helpers.nodeaffinity import RequiredNodeAffinity
from ..plugins.helpers.taints import find_matching_untolerated_taint
from ..plugins.nodeports import fits as ports_fit
from ..plugins.noderesources.fit import fits
from ..record import record
from .actions import (  # re-exported: the what-if layer names them here
    ADD as ADD,
)
from .actions import (
    ALL as ALL,
)
from .actions import CSI_CAPACITY, CSI_DRIVER
from .actions import CSI_NODE as CSI_NODE
from .actions import (
    DELETE as DELETE,
)
from .actions import PV as PV
from .actions import PVC as PVC
from .actions import STORAGE_CLASS as STORAGE_CLASS
from .actions import (
    UPDATE as UPDATE,
)
from .actions import (
    UPDATE_NODE_ALLOCATABLE as UPDATE_NODE_ALLOCATABLE,
)
from .actions import (
    UPDATE_NODE_ANNOTATION as UPDATE_NODE_ANNOTATION,
)
from .actions import (
    UPDATE_NODE_CONDITION as UPDATE_NODE_CONDITION,
)
from .actions import (
    UPDATE_NODE_LABEL as UPDATE_NODE_LABEL,
)
from .actions import (
    UPDATE_NODE_TAINT as UPDATE_NODE_TAINT,
)
from .queue import SchedulingQueue

if TYPE_CHECKING:
    from .engine import Engine

POD, NODE, POD_GROUP, WILDCARD = "Pod", "Node", "PodGroup", "*"


@record(frozen=True)
class ClusterEvent:
    resource: str
    action: int
    label: str = ""

    def matches(self, event: ClusterEvent) -> bool:
        """ClusterEvent.Match: this registered event covers ``event``."""
        if self.resource == WILDCARD and self.action == ALL:
            return True
        return self.resource in (WILDCARD, event.resource) and bool(self.action & event.action)


NODE_ADD = ClusterEvent(NODE, ADD, "NodeAdd")
ASSIGNED_POD_DELETE = ClusterEvent(POD, DELETE, "AssignedPodDelete")
NODE_SPEC_UNSCHEDULABLE_CHANGE = ClusterEvent(
    NODE, UPDATE_NODE_TAINT, "NodeSpecUnschedulableChange"
)
NODE_ALLOCATABLE_CHANGE = ClusterEvent(NODE, UPDATE_NODE_ALLOCATABLE, "NodeAllocatableChange")
NODE_LABEL_CHANGE = ClusterEvent(NODE, UPDATE_NODE_LABEL, "NodeLabelChange")
NODE_TAINT_CHANGE = ClusterEvent(NODE, UPDATE_NODE_TAINT, "NodeTaintChange")


def _e(resource: str, action: int) -> ClusterEvent:
    return ClusterEvent(resource, action)


_NODE_LABEL_TAINT = ADD | UPDATE_NODE_LABEL | UPDATE_NODE_TAINT
# Plugin -> the events it registers. A plugin not listed (no EnqueueExtensions) registers
# every event, as the framework's defaultEnqueueExtension does.
REGISTERED: Mapping[str, tuple[ClusterEvent, ...]] = {
    "InterPodAffinity": (_e(POD, ALL), _e(NODE, _NODE_LABEL_TAINT)),
    "NodeAffinity": (_e(NODE, ADD | UPDATE),),
    "NodeName": (_e(NODE, ADD | UPDATE),),
    "NodePorts": (_e(POD, DELETE), _e(NODE, ADD | UPDATE)),
    "NodeResourcesFit": (_e(POD, DELETE), _e(NODE, ADD | UPDATE)),
    "NodeUnschedulable": (_e(NODE, ADD | UPDATE),),
    "NodeVolumeLimits": (_e(CSI_NODE, ADD), _e(POD, DELETE), _e(PVC, ADD)),
    **{name: (_e(NODE, ADD), _e(POD, DELETE), _e(PVC, ADD))
       for name in ("EBSLimits", "GCEPDLimits", "AzureDiskLimits", "CinderLimits")},
    "PodTopologySpread": (
        _e(POD, ALL), _e(NODE, ADD | DELETE | UPDATE_NODE_LABEL | UPDATE_NODE_TAINT)
    ),
    "SchedulingGates": (_e(POD, UPDATE),),
    "TaintToleration": (_e(NODE, ADD | UPDATE),),
    "VolumeBinding": (
        _e(STORAGE_CLASS, ADD | UPDATE), _e(PVC, ADD | UPDATE), _e(PV, ADD | UPDATE),
        _e(NODE, _NODE_LABEL_TAINT), _e(CSI_NODE, ADD | UPDATE), _e(CSI_DRIVER, ADD | UPDATE),
        _e(CSI_CAPACITY, ADD | UPDATE),
    ),
    "VolumeRestrictions": (_e(POD, DELETE), _e(NODE, ADD), _e(PVC, ADD | UPDATE)),
    "VolumeZone": (
        _e(STORAGE_CLASS, ADD), _e(NODE, _NODE_LABEL_TAINT), _e(PVC, ADD), _e(PV, ADD | UPDATE)
    ),
    "Coscheduling": (_e(POD, ADD), _e(POD_GROUP, ADD | UPDATE)),
}
_EVERYTHING = (ClusterEvent(WILDCARD, ALL),)
EXTENDER = "Extender"  # extenders register every event (defaultEnqueueExtension)


def enqueue_plugins(engine: Engine) -> set[str]:
    """fillEnqueueExtensions: the plugins at PreEnqueue, PreFilter, Filter, Reserve or
    Permit of any profile, and ``Extender`` when extenders are configured."""
    names: set[str] = set()
    for fwk in engine.frameworks.values():
        for plugins in (fwk.pre_enqueue_plugins, fwk.pre_filter_plugins, fwk.filter_plugins,
                        fwk.reserve_plugins, fwk.permit_plugins):
            names.update(str(getattr(pl, "name", "")) for pl in plugins)
    if engine.extenders:
        names.add(EXTENDER)
    return names


def registered(plugin: str) -> tuple[ClusterEvent, ...]:
    return REGISTERED.get(plugin, _EVERYTHING)


def of_interest(event: ClusterEvent, plugins: Iterable[str]) -> bool:
    """isEventOfInterest: some enabled plugin registered a matching event."""
    return any(r.matches(event) for p in plugins for r in registered(p))


def worth_requeuing(event: ClusterEvent, rejectors: set[str], enqueue: set[str]) -> bool:
    """isPodWorthRequeuing without queueing hints: no rejector, or one with enqueue
    extensions (``enqueue``; a PostFilter's status names one without) registered it."""
    if not rejectors:
        return True
    return any(r.matches(event) for p in rejectors & enqueue for r in registered(p))


def node_update_events(old: Node, new: Node) -> list[ClusterEvent]:
    """nodeSchedulingPropertiesChange for what ksched's Node holds (no conditions or
    annotations: ksched does not read them)."""
    events = []
    if old.unschedulable != new.unschedulable and not new.unschedulable:
        events.append(NODE_SPEC_UNSCHEDULABLE_CHANGE)
    if old.allocatable != new.allocatable:
        events.append(NODE_ALLOCATABLE_CHANGE)
    if old.labels != new.labels:
        events.append(NODE_LABEL_CHANGE)
    if old.taints != new.taints:
        events.append(NODE_TAINT_CHANGE)
    return events


def node_precheck(info: NodeInfo) -> Callable[[Pod], bool]:
    """preCheckForNode: AdmissionCheck (resources, node affinity and selector, node name,
    host ports), then no untolerated NoSchedule taint."""
    node = info.node

    def check(pod: Pod) -> bool:
        if fits(pod, info):
            return False
        if not RequiredNodeAffinity(pod).matches(node):
            return False
        if pod.node_name and pod.node_name != node.name:
            return False
        if not ports_fit(pod, info):
            return False
        return find_matching_untolerated_taint(
            node.taints, pod.tolerations, lambda t: t.effect == "NoSchedule"
        ) is None

    return check


def requeue(
    queue: SchedulingQueue,
    now: float,
    enqueue: set[str],
    event: ClusterEvent,
    precheck: Callable[[Pod], bool] | None = None,
) -> list[Pod]:
    """MoveAllToActiveOrBackoffQueue(event, preCheck) with ``enqueue`` the plugins with
    enqueue extensions (``enqueue_plugins``): the pods moved, in queue order."""
    if not of_interest(event, enqueue):
        return []

    def worth(info: QueuedPodInfo) -> bool:
        if precheck is not None and not precheck(info.pod):
            return False
        rejectors = info.unschedulable_plugins | info.pending_plugins
        return worth_requeuing(event, rejectors, enqueue)

    return [info.pod for info in queue.move_on_event(now, worth)]
