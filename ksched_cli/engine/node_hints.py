"""Queueing hints for node events (SchedulerQueueingHints, v1.32+).

With hints the event handlers drop their pre-check (``preCheckForNode`` returns nil) and
every unschedulable pod goes through ``isPodWorthRequeuing``: a node added, updated (one
event per changed scheduling property) or deleted moves a pod only where a plugin that
rejected it registered the event and its hint says Queue. The registrations are v1.32.5's
``EventsToRegister`` with hints on; ``buildQueueingHintMap`` then gives every plugin that
registers Node/Add but not UpdateNodeTaint an UpdateNodeTaint event that always queues.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..api.node import Node
from ..api.pod import Pod
from ..framework.nodeinfo import NodeInfo
from ..framework.podinfo import pod_info
from ..plugins.helpers.nodeaffinity import RequiredNodeAffinity
from ..plugins.helpers.taints import do_not_schedule_taints, find_matching_untolerated_taint
from ..plugins.noderesources.fit import compute_pod_resource_request, fits
from ..record import record
from ..versions.features import Features
from . import actions as ev

_ALLOC, _LABEL, _TAINT = ev.UPDATE_NODE_ALLOCATABLE, ev.UPDATE_NODE_LABEL, ev.UPDATE_NODE_TAINT


@record(frozen=True)
class NodeEvent:
    """A node added (``old`` None), deleted (``new`` None) or updated (one property)."""

    action: int  # ev.ADD, ev.DELETE or one UPDATE_NODE_* bit
    old: Node | None
    new: Node | None
    label: str


NodeHint = Callable[[Any, Pod, NodeEvent, Features], bool]


def _node_affinity(plugin: Any, pod: Pod, event: NodeEvent, _f: Features) -> bool:
    """NodeAffinity isSchedulableAfterNodeChange: the node now matches, and did not."""
    node = event.new
    assert node is not None
    added = getattr(plugin, "added_selector", None)
    if added is not None and not added.matches(node):
        return False
    required = RequiredNodeAffinity(pod)
    if not required.matches(node):
        return False
    return event.old is None or not required.matches(event.old)


def _untolerated(node: Node, pod: Pod) -> bool:
    return find_matching_untolerated_taint(
        node.taints, pod.tolerations, do_not_schedule_taints
    ) is not None


def _taint_toleration(_plugin: Any, pod: Pod, event: NodeEvent, _f: Features) -> bool:
    """TaintToleration: an untolerated NoSchedule/NoExecute taint went away (or a new node
    has none)."""
    assert event.new is not None
    was = event.old is None or _untolerated(event.old, pod)
    return was and not _untolerated(event.new, pod)


def _node_unschedulable(_plugin: Any, _pod: Pod, event: NodeEvent, _f: Features) -> bool:
    """NodeUnschedulable: a schedulable node was added, or a node became schedulable."""
    assert event.new is not None
    if event.old is None:
        return not event.new.unschedulable
    return event.old.unschedulable and not event.new.unschedulable


def _requests_increased(pod: Pod, old: Node, new: Node) -> bool:
    """haveAnyRequestedResourcesIncreased: allocatable grew for something the pod asks."""
    request = compute_pod_resource_request(pod)
    before, after = NodeInfo(old).allocatable, NodeInfo(new).allocatable
    if after.allowed_pod_number > before.allowed_pod_number:
        return True
    if request.empty:
        return False
    if (
        (request.milli_cpu > 0 and after.milli_cpu > before.milli_cpu)
        or (request.memory > 0 and after.memory > before.memory)
        or (request.ephemeral_storage > 0 and after.ephemeral_storage > before.ephemeral_storage)
    ):
        return True
    return any(
        amount and after.scalar_resources.get(name, 0) > before.scalar_resources.get(name, 0)
        for name, amount, _reason in request.scalars
    )


def _fit(_plugin: Any, pod: Pod, event: NodeEvent, _f: Features) -> bool:
    """NodeResourcesFit isSchedulableAfterNodeChange: the pod fits the empty node, and
    (for an update) some allocatable it requests grew."""
    node = event.new
    assert node is not None
    if fits(pod, NodeInfo(node)):
        return False
    return event.old is None or _requests_increased(pod, event.old, node)


def _spread_matching(labels: dict[str, str], constraints: list[Any]) -> bool:
    return all(c.topology_key in labels for c in constraints)


def _pod_topology_spread(plugin: Any, pod: Pod, event: NodeEvent, _f: Features) -> bool:
    """PodTopologySpread isSchedulableAfterNodeChange (hard constraints only)."""
    constraints = plugin.constraints(pod, "DoNotSchedule")
    old, new = event.old, event.new
    old_match = old is not None and _spread_matching(old.labels, constraints)
    new_match = new is not None and _spread_matching(new.labels, constraints)
    if old is not None and new is not None:
        if old_match != new_match:
            return True
        keys_changed = any(
            old.labels.get(c.topology_key, "") != new.labels.get(c.topology_key, "")
            for c in constraints
        )
        return new_match and (keys_changed or old.taints != new.taints)
    return new_match if new is not None else old_match


def _inter_pod_affinity(_plugin: Any, pod: Pod, event: NodeEvent, features: Features) -> bool:
    """InterPodAffinity isSchedulableAfterNodeChange; v1.33 compares the old node's keys."""
    new = event.new
    assert new is not None
    info = pod_info(pod)
    affinity = info.required_affinity_terms
    anti = info.required_anti_affinity_terms
    if not features.pod_affinity_node_hint_v2:
        return any(t.topology_key in new.labels for t in (*affinity, *anti))
    old = event.old
    for term in affinity:
        key = term.topology_key
        if old is None:
            if key in new.labels:
                return True
        elif key in new.labels and (key not in old.labels or old.labels[key] != new.labels[key]):
            return True
    for term in anti:
        key = term.topology_key
        if old is None:
            return True
        if key in old.labels and (
            key not in new.labels or old.labels[key] != new.labels[key]
        ):
            return True
    return False


def _declared_features(_plugin: Any, _pod: Pod, event: NodeEvent, _f: Features) -> bool:
    """NodeDeclaredFeatures: a new node, or changed declared features (ksched's nodes
    declare none, so an update never changes them)."""
    return event.old is None


# Plugin -> its node registrations with hints on: (actions, hint; None queues always).
NODE_EVENTS: dict[str, tuple[tuple[int, NodeHint | None], ...]] = {
    "NodeAffinity": ((ev.ADD | _LABEL, _node_affinity),),
    "NodeName": ((ev.ADD, None),),
    "NodePorts": ((ev.ADD, None),),
    "NodeResourcesFit": ((ev.ADD | _ALLOC, _fit),),
    "NodeUnschedulable": ((ev.ADD | _TAINT, _node_unschedulable),),
    "TaintToleration": ((ev.ADD | _TAINT, _taint_toleration),),
    "PodTopologySpread": ((ev.ADD | ev.DELETE | _LABEL | _TAINT, _pod_topology_spread),),
    "InterPodAffinity": ((ev.ADD | _LABEL, _inter_pod_affinity),),
    "VolumeBinding": ((ev.ADD | _LABEL, None),),
    "VolumeZone": ((ev.ADD | _LABEL, None),),
    "VolumeRestrictions": ((ev.ADD, None),),
    # Enabled (and so registering) only where DRA is on: the 1.34+ default profile.
    "DynamicResources": ((ev.ADD | _LABEL | _ALLOC, None),),
    "NodeDeclaredFeatures": ((ev.ADD, _declared_features),),
}
# Plugins with EnqueueExtensions that name no node event, and plugins that are never
# asked (no PreEnqueue, PreFilter, Filter, Reserve or Permit point).
NO_NODE_EVENTS = frozenset(
    {
        "SchedulingGates",
        "NodeVolumeLimits",
        "Coscheduling",
        "GangScheduling",
        "PrioritySort",
        "DefaultPreemption",
        "NodeResourcesBalancedAllocation",
        "ImageLocality",
        "DefaultBinder",
    }
)


def _with_taint_fallback(
    registered: tuple[tuple[int, NodeHint | None], ...],
) -> tuple[tuple[int, NodeHint | None], ...]:
    """buildQueueingHintMap's work-around: Node/Add without UpdateNodeTaint gains it."""
    adds = any(actions & ev.ADD for actions, _ in registered)
    taints = any(actions & _TAINT for actions, _ in registered)
    return (*registered, (_TAINT, None)) if adds and not taints else registered


def registrations(name: str) -> tuple[tuple[int, NodeHint | None], ...] | None:
    """The node events ``name`` registers; None when it has no EnqueueExtensions (every
    event queues it)."""
    if name in NO_NODE_EVENTS:
        return ()
    found = NODE_EVENTS.get(name)
    return None if found is None else _with_taint_fallback(found)


def plugin_says_queue(
    name: str, plugin: Any, pod: Pod, event: NodeEvent, features: Features
) -> bool | None:
    """True/False from the hints of ``name`` for ``event``; None when none matches."""
    registered = registrations(name)
    if registered is None:
        return True
    matched = [hint for actions, hint in registered if actions & event.action]
    if not matched:
        return None
    return any(hint is None or hint(plugin, pod, event, features) for hint in matched)


def interested(name: str, event: NodeEvent) -> bool:
    registered = registrations(name)
    return registered is None or any(actions & event.action for actions, _ in registered)
