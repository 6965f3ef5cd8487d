"""DaemonSet pods for new nodes, from a DaemonSet's running pod when its object is absent.

The DaemonSet controller runs a pod on a node when NodeShouldRunDaemonPod says so:
the template's node name, required node affinity (its metadata.name fields replaced
by the node, as ReplaceDaemonSetPodNodeNameNodeAffinity does) and NoSchedule/NoExecute
taints it does not tolerate.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable

from ..api.node import Node
from ..api.pod import Pod
from ..api.selectors import NodeAffinity, NodeSelector, NodeSelectorTerm, Requirement
from ..plugins.helpers.nodeaffinity import RequiredNodeAffinity
from ..plugins.helpers.taints import do_not_schedule_taints, find_matching_untolerated_taint
from .pending_copy import copy_pending

NAME_FIELD = "metadata.name"


def daemon_set_templates(
    pods: Iterable[Pod], skip: Collection[tuple[str, str]] = ()
) -> list[Pod]:
    """One pod per DaemonSet (the lowest name), DaemonSets in namespace/name order;
    ``skip`` holds the (namespace, name) of DaemonSets left out."""
    found: dict[tuple[str, str], Pod] = {}
    for pod in pods:
        ref = pod.meta.controller_ref()
        if ref is None or ref.kind != "DaemonSet":
            continue
        key = (pod.namespace, ref.name)
        if key in skip:
            continue
        if key not in found or pod.name < found[key].name:
            found[key] = pod
    return [found[k] for k in sorted(found)]


def pinned_affinity(affinity: NodeAffinity | None, node: str) -> NodeAffinity:
    """The template's affinity with every term's name fields replaced by ``node``."""
    pin = (Requirement(NAME_FIELD, "In", (node,)),)
    required = affinity.required if affinity is not None else None
    terms: tuple[NodeSelectorTerm, ...]
    if required is None or not required.terms:
        terms = (NodeSelectorTerm((), pin),)
    else:
        terms = tuple(NodeSelectorTerm(t.match_expressions, pin) for t in required.terms)
    preferred = affinity.preferred if affinity is not None else ()
    return NodeAffinity(NodeSelector(terms), preferred)


def should_run(pod: Pod, node: Node) -> bool:
    """NodeShouldRunDaemonPod's first answer, for a pod already pinned to ``node``."""
    if not RequiredNodeAffinity(pod).matches(node):
        return False
    return find_matching_untolerated_taint(
        node.taints, pod.tolerations, do_not_schedule_taints
    ) is None


def daemon_pod_for(
    template: Pod, node: Node, taken: set[str], load_index: int, seed: str
) -> Pod | None:
    """A pending pod of ``template``'s DaemonSet pinned to ``node``, or None."""
    ref = template.meta.controller_ref()
    assert ref is not None
    digest = hashlib.sha256(f"{template.namespace}/{ref.name}@{node.name}".encode()).digest()
    alphabet = "bcdfghjklmnpqrstvwxz2456789"
    name = f"{ref.name}-" + "".join(alphabet[b % len(alphabet)] for b in digest[:5])
    if f"{template.namespace}/{name}" in taken:
        return None
    pod = copy_pending(
        template,
        name,
        load_index,
        seed,
        # The template's own flag is kept (copy_pending would clear it).
        terminating_by_preemption=template.terminating_by_preemption,
        node_affinity=pinned_affinity(template.node_affinity, node.name),
    )
    return pod if should_run(pod, node) else None
