"""The controllers layer (``ksched_cli.controllers``) behind the what-if Reconciler.

The workload objects of the input are reconciled by their controllers (which apply
their changes to the cluster themselves); pods whose controller is not in the input
(a snapshot of pods only) are replaced by ``OwnerCopies``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..api.meta import DEFAULT_TIME
from ..api.node import Node
from ..api.pod import Pod
from ..engine.cluster import Cluster
from .reconcile import OwnerCopies, Reconciled, Reconciler

# controller kind -> the Cluster list holding its objects
OBJECT_LISTS = {
    "Deployment": "deployments",
    "ReplicaSet": "replica_sets",
    "ReplicationController": "replication_controllers",
    "StatefulSet": "stateful_sets",
    "DaemonSet": "daemon_sets",
    "Job": "jobs",
    "CronJob": "cron_jobs",
}


def in_input(cluster: Cluster, namespace: str, kind: str, name: str) -> bool:
    """Whether the input holds this controller object (so its controller reconciles)."""
    attr = OBJECT_LISTS.get(kind)
    return attr is not None and any(
        w.namespace == namespace and w.name == name for w in getattr(cluster, attr)
    )


def _owned_by_input(cluster: Cluster, pod: Pod) -> bool:
    ref = pod.meta.controller_ref()
    return ref is not None and in_input(cluster, pod.namespace, ref.kind, ref.name)


class Controllers:
    def __init__(self) -> None:
        self._copies = OwnerCopies()

    def reconcile(
        self, cluster: Cluster, removed: Sequence[Pod], added_nodes: Sequence[Node] = ()
    ) -> Reconciled:
        from ..controllers import reconcile

        done = reconcile(cluster, DEFAULT_TIME)
        result = Reconciled(applied=True)
        result.created = _paired(done.created, [p for p in removed
                                                if _owned_by_input(cluster, p)])
        result.deleted = list(done.deleted)
        others = [p for p in removed if not _owned_by_input(cluster, p)]
        daemon_sets = {(w.namespace, w.name) for w in cluster.daemon_sets}
        copies = self._copies.reconcile(cluster, others, added_nodes, daemon_sets)
        result.copies = copies.created
        return result


def _paired(created: Sequence[Pod], removed: Sequence[Pod]) -> list[tuple[Pod, Pod | None]]:
    """Each new pod with the removed pod of the same controller it replaces, in order."""
    left = list(removed)
    out: list[tuple[Pod, Pod | None]] = []
    for pod in created:
        ref = pod.meta.controller_ref()
        match = next((r for r in left if ref is not None and r.namespace == pod.namespace
                      and r.meta.controller_ref() == ref), None)
        if match is not None:
            left.remove(match)
        out.append((pod, match))
    return out


def default_reconciler() -> Reconciler:
    """The controllers layer, with copies for pods whose controller is not in the input."""
    return Controllers()
