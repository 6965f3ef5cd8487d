"""The cluster as the HTML report draws it: per node, what is requested of what is allocatable.

A report compares two ``ClusterState``s, taken with ``capture`` before and after a run
(the engine binds pods by setting ``Pod.node_name`` and deletes preemption victims from
``Cluster.pods``, so capturing the same ``Cluster`` object twice is enough). A what-if
command captures before and after its own operations the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field

from ...api.node import Node
from ...api.pod import Pod
from ...plugins.helpers.taints import do_not_schedule_taints, tolerations_tolerate_taint
from ...record import record

# The resources every node bar shows, in this order; cpu in millicores, memory in bytes.
RESOURCES = ("cpu", "memory", "pods")
# As the scheduler reads zones (engine/snapshot.py): the GA label, then the beta one.
ZONE_LABELS = ("topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone")


@record(frozen=True)
class NodeState:
    """One node at one moment: its zone, allocatable and requested amounts, and its pods."""

    name: str
    zone: str
    allocatable: tuple[int, int, int]
    requested: tuple[int, int, int]
    pods: frozenset[str]
    unschedulable: bool = False
    unusable: str = ""  # why pending pods cannot use the node (unusable_reason), or ""


@record(frozen=True)
class ClusterState:
    """Every node at one moment, in input order."""

    nodes: tuple[NodeState, ...] = ()
    by_name: Mapping[str, NodeState] = field(default_factory=dict)

    @classmethod
    def of(cls, nodes: Iterable[NodeState]) -> ClusterState:
        listed = tuple(nodes)
        return cls(listed, {n.name: n for n in listed})


def zone_of(labels: Mapping[str, str]) -> str:
    return next((labels[k] for k in ZONE_LABELS if k in labels), "")


def unusable_reason(node: Node, pending: Sequence[Pod]) -> str:
    """Why no pending pod can use ``node``, or "": it is cordoned (spec.unschedulable), or
    it has a NoSchedule or NoExecute taint that none of the pending pods tolerates (with
    no pending pod: any such taint), as TaintToleration's Filter reads them."""
    if node.unschedulable:
        return "cordoned"
    for taint in node.taints:
        if not do_not_schedule_taints(taint):
            continue
        if not any(tolerations_tolerate_taint(p.tolerations, taint) for p in pending):
            value = f"={taint.value}" if taint.value else ""
            return f"taint {taint.key}{value}:{taint.effect} no pending pod tolerates"
    return ""


def capture(nodes: Iterable[Node], pods: Iterable[Pod]) -> ClusterState:
    """The requests of the pods bound to each node (as fit.go sums them), per node."""
    sums: dict[str, list[int]] = {}
    members: dict[str, set[str]] = {}
    pods = list(pods)
    pending = [p for p in pods if not p.node_name]
    for pod in pods:
        if not pod.node_name:
            continue
        total = sums.setdefault(pod.node_name, [0, 0, 0])
        total[0] += pod.requests.get("cpu", 0)
        total[1] += pod.requests.get("memory", 0)
        total[2] += 1
        members.setdefault(pod.node_name, set()).add(pod.key)
    states = []
    for node in nodes:
        requested = sums.get(node.name, [0, 0, 0])
        states.append(
            NodeState(
                name=node.name,
                zone=zone_of(node.labels),
                allocatable=(
                    node.allocatable.get("cpu", 0),
                    node.allocatable.get("memory", 0),
                    node.allocatable.get("pods", 0),
                ),
                requested=(requested[0], requested[1], requested[2]),
                pods=frozenset(members.get(node.name, ())),
                unschedulable=node.unschedulable,
                unusable=unusable_reason(node, pending),
            )
        )
    return ClusterState.of(states)
