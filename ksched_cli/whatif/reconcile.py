"""Who recreates deleted pods: the controllers, behind one small interface.

``Reconciler.reconcile`` is called after an operation deleted pods (a drain, a removed
node). It returns the pending pods the controllers create in their place. The
controllers layer (``ksched_cli.controllers``) reconciles every workload object of the
input; a pod whose controller is not in the input is replaced by ``OwnerCopies``: a copy
of itself, as its controller would create it from the same template.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import field
from typing import Protocol

from ..api.node import Node
from ..api.pod import Pod
from ..engine.cluster import Cluster
from ..record import record
from .daemonset import daemon_pod_for, daemon_set_templates
from .pending_copy import copy_pending

# Controllers that replace a deleted pod. A DaemonSet replaces one only on a node that
# still exists (never after a drain, which leaves DaemonSet pods; never on a removed node).
REPLACING_KINDS = frozenset({"ReplicaSet", "ReplicationController", "StatefulSet", "Job"})
# Name suffixes as apiserver's generateName draws them (names.SimpleNameGenerator).
_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"


@record
class Reconciled:
    # (new pending pod, the deleted pod it replaces or None)
    created: list[tuple[Pod, Pod | None]] = field(default_factory=list)
    deleted: list[Pod] = field(default_factory=list)
    # True when ``created`` and ``deleted`` are already in the cluster's pod list (the
    # controllers layer applies its own changes); the target is only told of them.
    applied: bool = False
    # Copies for pods whose controller is not in the input: not yet applied.
    copies: list[tuple[Pod, Pod | None]] = field(default_factory=list)


class Reconciler(Protocol):
    def reconcile(
        self, cluster: Cluster, removed: Sequence[Pod], added_nodes: Sequence[Node] = ()
    ) -> Reconciled:
        """Replace ``removed`` pods and give ``added_nodes`` their DaemonSet pods."""


def _suffix(seed: str) -> str:
    digest = hashlib.sha256(seed.encode()).digest()
    return "".join(_ALPHABET[b % len(_ALPHABET)] for b in digest[:5])


def replacement_name(pod: Pod, taken: set[str]) -> str:
    """A StatefulSet keeps the ordinal's name; the others generate ``<owner>-<5 chars>``,
    drawn deterministically from the deleted pod's name so plans are reproducible."""
    ref = pod.meta.controller_ref()
    if ref is not None and ref.kind == "StatefulSet":
        return pod.name
    prefix = f"{ref.name}-" if ref is not None else f"{pod.name}-"
    attempt = 0
    while True:
        name = prefix + _suffix(f"{pod.key}#{attempt}")
        if f"{pod.namespace}/{name}" not in taken:
            return name
        attempt += 1


class OwnerCopies:
    """Each deleted pod of a replacing controller comes back as a copy of itself."""

    def __init__(self) -> None:
        self._made = 0

    def reconcile(
        self,
        cluster: Cluster,
        removed: Sequence[Pod],
        added_nodes: Sequence[Node] = (),
        skip_daemon_sets: Collection[tuple[str, str]] = (),
    ) -> Reconciled:
        """``skip_daemon_sets``: (namespace, name) of DaemonSets reconciled elsewhere."""
        result = Reconciled()
        taken = {p.key for p in cluster.pods}
        index = _next_index(cluster)
        for pod in removed:
            ref = pod.meta.controller_ref()
            if ref is None or ref.kind not in REPLACING_KINDS:
                continue
            name = replacement_name(pod, taken)
            self._made += 1
            copy = copy_pending(pod, name, index, f"{pod.uid}#{self._made}")
            index += 1
            taken.add(copy.key)
            result.created.append((copy, pod))
        for node in added_nodes:
            for template in daemon_set_templates(cluster.pods, skip_daemon_sets):
                seed = f"{node.name}#{self._made}"
                daemon = daemon_pod_for(template, node, taken, index, seed)
                if daemon is not None:
                    self._made += 1
                    index += 1
                    taken.add(daemon.key)
                    result.created.append((daemon, None))
        return result


def _next_index(cluster: Cluster) -> int:
    return max((p.load_index for p in cluster.pods), default=-1) + 1

