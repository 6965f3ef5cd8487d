"""Queueing hints (SchedulerQueueingHints, on by default from v1.32).

With hints an unschedulable pod leaves unschedulablePods on a cluster event only when a
plugin that rejected it registered that event and its hint says Queue
(backend/queue/scheduling_queue.go ``isPodWorthRequeuing``). The events a one-shot plan
produces are pod events: a pod bound (AssignedPodAdd), a pod deleted or an assumed pod
forgotten (AssignedPodDelete), and a pending pod's own status patch (UPDATE of the pod
itself, which no plugin of these tables registers). The hints are v1.32.5's
``EventsToRegister`` of each in-tree plugin, for those events (node events:
node_hints.py; storage objects: storage_hints.py); a plugin without
``EventsToRegister`` (or the extenders) takes every event, one that registers none
takes none. From v1.36 InterPodAffinity and PodTopologySpread judge a deleted pod that
was only nominated too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..api.pod import Pod
from ..framework.nodeinfo import HostPortInfo, used_port_list
from ..framework.podinfo import pod_info
from ..framework.types import QueuedPodInfo
from ..plugins.nodevolumelimits.csi_translation import plugin_for_inline
from ..plugins.nodevolumelimits.utils import is_ephemeral
from ..plugins.volumerestrictions import is_volume_conflict, needs_restrictions_check
from ..versions.features import V130, Features
from .pod_events import (  # re-exported: the what-if layer names them here
    ADD as ADD,
)
from .pod_events import (
    AFTER_BACKOFF as AFTER_BACKOFF,
)
from .pod_events import (
    DELETE as DELETE,
)
from .pod_events import (
    IMMEDIATELY as IMMEDIATELY,
)
from .pod_events import (
    SKIP as SKIP,
)
from .pod_events import (
    PodEvent as PodEvent,
)

if TYPE_CHECKING:  # node and storage events come from what-if operations and storage updates
    from .node_hints import NodeEvent
    from .storage_hints import StorageEvent

    # A cluster event the hints judge: a pod's (bound or deleted), a node's or a storage
    # object's.
    Event = PodEvent | NodeEvent | StorageEvent

Hint = Callable[[Any, Pod, PodEvent, Features], bool]


def _held_a_place(event: PodEvent, features: Features) -> bool:
    """The deleted pod was scheduled or (v1.33+) nominated: it may free room."""
    return bool(event.node) or (
        features.nominated_pod_events and bool(event.pod.nominated_node_name)
    )


def _fit(_plugin: Any, _pod: Pod, event: PodEvent, features: Features) -> bool:
    # isSchedulableAfterPodEvent: any deleted scheduled (or nominated) pod may free resources.
    return _held_a_place(event, features)


def _host_ports(pod: Pod, sidecars: bool) -> set[tuple[str, str, int]]:
    return {
        (p.host_ip, p.protocol, p.host_port)
        for p in used_port_list(pod, sidecars)
        if p.host_port > 0
    }


def _node_ports(plugin: Any, pod: Pod, event: PodEvent, features: Features) -> bool:
    # isSchedulableAfterPodDeleted: Queue when the deleted pod held a port the pod wants.
    if not _held_a_place(event, features):
        return False
    used = HostPortInfo()
    for ip, protocol, port in _host_ports(event.pod, False):
        used.add(ip, protocol, port)
    if not used.ports:
        return False
    wanted = _host_ports(pod, getattr(plugin, "sidecars", False))
    return any(used.check_conflict(ip, protocol, port) for ip, protocol, port in wanted)


def _matches_all(terms: list[Any], other: Pod, ns_labels: dict[str, str]) -> bool:
    return bool(terms) and all(t.matches(other, ns_labels) for t in terms)


def _placed(event: PodEvent, features: Features) -> bool:
    """The event's pod is bound or (v1.36) nominated: the pod hints judge it."""
    return bool(event.node) or (
        features.nominated_pod_hints_v2 and bool(event.pod.nominated_node_name)
    )


def _inter_pod_affinity(plugin: Any, pod: Pod, event: PodEvent, features: Features) -> bool:
    other = event.pod
    if not _placed(event, features):
        return False
    info = pod_info(pod)
    # podMatchesAllAffinityTerms is called with nil namespace labels upstream.
    if event.action == ADD:
        return _matches_all(info.required_affinity_terms, other, {})
    if _matches_all(info.required_anti_affinity_terms, other, {}):
        return True
    # v1.36: the deleted pod's own anti-affinity may have been what kept the pod out.
    return features.nominated_pod_hints_v2 and _matches_all(
        pod_info(other).required_anti_affinity_terms, pod, {}
    )


def _pod_topology_spread(plugin: Any, pod: Pod, event: PodEvent, features: Features) -> bool:
    other = event.pod
    involved = other.uid == pod.uid or (
        _placed(event, features) and other.namespace == pod.namespace
    )
    if not involved:
        return False
    constraints = plugin.constraints(pod, "DoNotSchedule")
    return any(c.matches(other.labels) for c in constraints)


def _volume_restrictions(_plugin: Any, pod: Pod, event: PodEvent, _f: Features) -> bool:
    deleted = event.pod
    if deleted.namespace != pod.namespace:
        return False
    if any(needs_restrictions_check(v) and is_volume_conflict(v, deleted) for v in pod.volumes):
        return True
    claims = {v.claim_name for v in pod.volumes if v.claim_name is not None}
    return any(v.claim_name in claims for v in deleted.volumes if v.claim_name is not None)


def _node_volume_limits(_plugin: Any, _pod: Pod, event: PodEvent, features: Features) -> bool:
    deleted = event.pod
    if not deleted.volumes or not _held_a_place(event, features):
        return False
    return any(
        v.claim_name is not None or is_ephemeral(v) or plugin_for_inline(v) is not None
        for v in deleted.volumes
    )


def _always(_plugin: Any, _pod: Pod, _event: PodEvent, _f: Features) -> bool:
    return True


def _never(_plugin: Any, _pod: Pod, _event: PodEvent, _f: Features) -> bool:
    return False


# Plugin -> the pod actions it registers, with its hint (None: no hint function, Queue).
POD_EVENTS: dict[str, dict[str, Hint]] = {
    "NodeResourcesFit": {DELETE: _fit},
    "NodePorts": {DELETE: _node_ports},
    "InterPodAffinity": {ADD: _inter_pod_affinity, DELETE: _inter_pod_affinity},
    "PodTopologySpread": {ADD: _pod_topology_spread, DELETE: _pod_topology_spread},
    "VolumeRestrictions": {DELETE: _volume_restrictions},
    "NodeVolumeLimits": {DELETE: _node_volume_limits},
    "Coscheduling": {ADD: _always},
    # isSchedulableAfterPodAdded: only a pod of the same workload, and no pod names one.
    "GangScheduling": {ADD: _never},
}
# Plugins whose EventsToRegister names no pod add or delete: never moved by pod events.
NO_POD_EVENTS = frozenset(
    {
        "SchedulingGates",
        "PrioritySort",
        "NodeUnschedulable",
        "NodeName",
        "TaintToleration",
        "NodeAffinity",
        "VolumeBinding",
        "VolumeZone",
        "DefaultPreemption",
        "NodeResourcesBalancedAllocation",
        "ImageLocality",
        "DefaultBinder",
        "DynamicResources",
        "NodeDeclaredFeatures",
        "EBSLimits",
        "GCEPDLimits",
        "AzureDiskLimits",
        "CinderLimits",
    }
)


def has_enqueue_extensions(name: str) -> bool:
    """The plugin registers its own events (an unknown plugin or an extender takes all)."""
    return name in POD_EVENTS or name in NO_POD_EVENTS


def _plugin_says_queue(
    name: str, plugin: Any, pod: Pod, event: PodEvent, features: Features
) -> bool | None:
    """The hint of ``name`` for ``event``; None when the plugin did not register it."""
    if name in NO_POD_EVENTS:
        return None
    registered = POD_EVENTS.get(name)
    if registered is None:
        return True  # no EnqueueExtensions (extenders, unknown plugins): every event
    hint = registered.get(event.action)
    return None if hint is None else hint(plugin, pod, event, features)


def _says_queue(name: str, plugin: Any, pod: Pod, event: Event, features: Features) -> bool | None:
    if isinstance(event, PodEvent):
        return _plugin_says_queue(name, plugin, pod, event, features)
    # Whoever made a node or storage event imported its module: these imports are free then.
    from . import node_hints, storage_hints

    if isinstance(event, node_hints.NodeEvent):
        return node_hints.plugin_says_queue(name, plugin, pod, event, features)
    return storage_hints.plugin_says_queue(name, pod, event, features, has_enqueue_extensions)


def worth_requeuing(
    info: QueuedPodInfo, event: Event, plugins: dict[str, Any], features: Features = V130
) -> str:
    """isPodWorthRequeuing for one pod and one event."""
    rejectors = info.unschedulable_plugins | info.pending_plugins
    if not rejectors:
        return AFTER_BACKOFF
    strategy = SKIP
    for name in sorted(rejectors):
        says = _says_queue(name, plugins.get(name), info.pod, event, features)
        if not says:
            continue
        if name in info.pending_plugins:
            return IMMEDIATELY
        strategy = AFTER_BACKOFF
    return strategy


def crosses_topology(info: QueuedPodInfo, added: Pod, ns_labels: dict[str, str]) -> bool:
    """getUnschedulablePodsWithCrossTopologyTerm: who an AssignedPodAdd may concern."""
    if "PodTopologySpread" in info.unschedulable_plugins and added.namespace == info.pod.namespace:
        return True
    return any(t.matches(added, ns_labels) for t in pod_info(info.pod).required_affinity_terms)


def of_interest(
    event: Event, enabled: set[str], extenders: bool, features: Features = V130
) -> bool:
    """isEventOfInterest: some enabled plugin (or an extender) registered the event."""
    if extenders:
        return True
    if not isinstance(event, PodEvent):
        from . import node_hints, storage_hints

        if isinstance(event, node_hints.NodeEvent):
            return any(node_hints.interested(name, event) for name in enabled)
        return any(
            storage_hints.interested(name, event, features, has_enqueue_extensions)
            for name in enabled
        )
    for name in enabled:
        if name in NO_POD_EVENTS:
            continue
        registered = POD_EVENTS.get(name)
        if registered is None or event.action in registered:
            return True
    return False


class ProfileHints:
    """The queue's view of the profiles' hints (each pod is judged by its own profile)."""

    def __init__(
        self,
        frameworks: Mapping[str, Any],
        extenders: bool,
        namespace_labels: Callable[[str], dict[str, str]],
        features: Features = V130,
    ) -> None:
        self._features = features
        self._plugins = {name: fwk.plugins for name, fwk in frameworks.items()}
        self._enabled = {p for plugins in self._plugins.values() for p in plugins}
        self._extenders = extenders
        self._namespace_labels = namespace_labels

    def of_interest(self, event: Event) -> bool:
        return of_interest(event, self._enabled, self._extenders, self._features)

    def worth_requeuing(self, info: QueuedPodInfo, event: Event) -> str:
        plugins = self._plugins.get(info.pod.scheduler_name, {})
        return worth_requeuing(info, event, plugins, self._features)

    def concerns(self, info: QueuedPodInfo, event: Event) -> bool:
        """Node, storage and delete events reach every pod; AssignedPodAdd only those
        crossing topology with it."""
        if not isinstance(event, PodEvent) or event.action == DELETE:
            return True
        return crosses_topology(info, event.pod, self._namespace_labels(event.pod.namespace))
