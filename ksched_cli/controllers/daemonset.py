"""The DaemonSet controller (pkg/controller/daemon: NodeShouldRunDaemonPod, podsShouldBeOnNode,
and util.CreatePodTemplate / ReplaceDaemonSetPodNodeNameNodeAffinity).

One pod per node the DaemonSet should run on, each pinned by the required node affinity
``matchFields metadata.name In [node]`` and carrying the tolerations the controller adds;
the scheduler then places it (or says why it cannot).
"""

from __future__ import annotations

from collections import defaultdict

from ..api.node import Node
from ..api.pod import Pod, Toleration
from ..api.selectors import NodeAffinity, NodeSelector, NodeSelectorTerm, Requirement
from ..api.workloads import DaemonSetSpec, Workload
from ..plugins.helpers.nodeaffinity import RequiredNodeAffinity
from ..plugins.helpers.taints import (
    NO_EXECUTE,
    NO_SCHEDULE,
    do_not_schedule_taints,
    find_matching_untolerated_taint,
)
from .context import Context
from .defaults import normalized_template
from .hashing import compute_hash
from .interface import Outcome

KIND = "DaemonSet"
REVISION_LABEL = "controller-revision-hash"
GENERATION_LABEL = "pod-template-generation"
NAME_FIELD = "metadata.name"

# AddOrUpdateDaemonPodTolerations, in its order; the last only for hostNetwork pods.
_TOLERATIONS = (
    ("node.kubernetes.io/not-ready", NO_EXECUTE),
    ("node.kubernetes.io/unreachable", NO_EXECUTE),
    ("node.kubernetes.io/disk-pressure", NO_SCHEDULE),
    ("node.kubernetes.io/memory-pressure", NO_SCHEDULE),
    ("node.kubernetes.io/pid-pressure", NO_SCHEDULE),
    ("node.kubernetes.io/unschedulable", NO_SCHEDULE),
)
_NETWORK_UNAVAILABLE = ("node.kubernetes.io/network-unavailable", NO_SCHEDULE)


def daemon_tolerations(pod: Pod) -> tuple[Toleration, ...]:
    """The pod's tolerations after AddOrUpdateTolerationInPodSpec of each daemon toleration:
    one with the same key, operator, value and effect is replaced, else it is appended."""
    out = list(pod.tolerations)
    wanted = _TOLERATIONS + ((_NETWORK_UNAVAILABLE,) if pod.host_network else ())
    for key, effect in wanted:
        new = Toleration(key=key, operator="Exists", effect=effect)
        same = next((i for i, t in enumerate(out) if (t.key, t.operator, t.value, t.effect)
                     == (key, "Exists", "", effect)), None)
        if same is None:
            out.append(new)
        else:
            out[same] = new
    return tuple(out)


def pinned_affinity(affinity: NodeAffinity | None, node: str) -> NodeAffinity:
    """ReplaceDaemonSetPodNodeNameNodeAffinity: the required terms become one matchFields term."""
    term = NodeSelectorTerm(match_fields=(Requirement(NAME_FIELD, "In", (node,)),))
    if affinity is None:
        return NodeAffinity(NodeSelector((term,)))
    return NodeAffinity(NodeSelector((term,)), affinity.preferred)


def target_node(pod: Pod) -> str:
    """GetTargetNodeName: spec.nodeName, else the matchFields metadata.name In [one node]."""
    if pod.node_name:
        return pod.node_name
    required = pod.node_affinity.required if pod.node_affinity is not None else None
    for term in required.terms if required is not None else ():
        for req in term.match_fields:
            if req.key == NAME_FIELD and req.operator == "In" and len(req.values) == 1:
                return req.values[0]
    return ""


def should_run(prototype: Pod, tolerations: tuple[Toleration, ...], node: Node,
               affinity: RequiredNodeAffinity) -> tuple[bool, bool]:
    """NodeShouldRunDaemonPod: (should run, should continue running)."""
    if prototype.node_name and prototype.node_name != node.name:
        return False, False
    if not affinity.matches(node):
        return False, False
    if find_matching_untolerated_taint(node.taints, tolerations, do_not_schedule_taints):
        untolerated = find_matching_untolerated_taint(
            node.taints, tolerations, lambda t: t.effect == NO_EXECUTE
        )
        return False, untolerated is None
    return True, True


class DaemonSetController:
    kind = KIND
    cluster_list = "daemon_sets"

    def managed_elsewhere(self, workload: Workload, ctx: Context) -> bool:
        return False

    def sync(self, workload: Workload, ctx: Context) -> Outcome:
        spec = workload.controller
        assert isinstance(spec, DaemonSetSpec)
        outcome = Outcome()
        on_node: dict[str, list[Pod]] = defaultdict(list)
        for pod in ctx.claim_pods(workload.namespace, KIND, workload.name, workload.selector):
            pod.workload = workload.ref
            on_node[target_node(pod)].append(pod)
        prototype = ctx.prototype(spec.template)
        tolerations = daemon_tolerations(prototype)
        affinity = RequiredNodeAffinity(prototype)
        labels = {
            **spec.template.labels,
            GENERATION_LABEL: spec.template_generation,
            REVISION_LABEL: compute_hash(normalized_template(spec.template.raw),
                                         spec.collision_count),
        }
        names = set()
        for node in ctx.cluster.nodes:
            names.add(node.name)
            run, keep = should_run(prototype, tolerations, node, affinity)
            pods = on_node.get(node.name, [])
            if run and not pods:
                outcome.created.append(self._new_pod(workload, prototype, tolerations,
                                                     labels, node.name, ctx))
            elif run and len(pods) > 1:
                # The oldest stays; bound pods count as older than pending ones.
                pods = sorted(pods, key=lambda p: (not p.node_name,
                                                   p.meta.creation_timestamp or 0.0))
                outcome.deleted += pods[1:]
            elif not keep:
                outcome.deleted += pods
        # Pending pods pinned to a node that does not exist.
        outcome.deleted += [p for n, ps in on_node.items() if n not in names for p in ps
                            if not p.node_name]
        return outcome

    def _new_pod(self, owner: Workload, prototype: Pod, tolerations: tuple[Toleration, ...],
                 labels: dict[str, str], node: str, ctx: Context) -> Pod:
        name = ctx.generated_name(owner.namespace, f"{owner.name}-")
        return ctx.stamp(
            prototype, owner, owner.ref, name, dict(labels),
            tolerations=tolerations,
            node_affinity=pinned_affinity(prototype.node_affinity, node),
        )
