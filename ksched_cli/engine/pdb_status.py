"""PodDisruptionBudget status as the disruption controller computes it (disruption.go:
getExpectedPodCount, getExpectedScale, countHealthyPods, updatePdbStatus).

Offline there is no kubelet, so a pod is *healthy* (Ready) when it is bound to a node
and not being deleted: the input's running pods from the start, a pod the simulation
binds from its bind time. The expected count comes from the scale of the pods'
controllers in the input; a controller the input lacks (a snapshot of pods) counts the
selected pods it controls. A status written in the input holds until the pods it
selects change (``refresh``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..api.pod import Pod
from ..api.policy import IntOrPercent, PodDisruptionBudget

if TYPE_CHECKING:
    from ..api.workloads import Workload
    from .cluster import Cluster

# kinds whose objects serve the scale subresource, to the controller's finders
_SCALE_LISTS = {
    "ReplicationController": "replication_controllers",
    "ReplicaSet": "replica_sets",
    "StatefulSet": "stateful_sets",
    "Deployment": "deployments",
}


# getScaleController's error for controllers without a scale subresource
_NO_SCALE = {"Job": "jobs.batch", "DaemonSet": "daemonsets.apps", "CronJob": "cronjobs.batch"}


class _SyncFailed(Exception):
    """trySync failed: the controller's failSafe sets disruptionsAllowed to 0."""


def _scaled(value: IntOrPercent, total: int) -> int:
    """intstr.GetScaledValueFromIntOrPercent with roundUp=true."""
    if isinstance(value, int):
        return value
    return math.ceil(int(value[:-1]) * total / 100)


def selected_pods(pdb: PodDisruptionBudget, pods: Sequence[Pod]) -> list[Pod]:
    """getPodsForPdb: the budget's namespace, its selector (absent: none)."""
    if pdb.selector is None:
        return []
    return [p for p in pods if p.namespace == pdb.meta.namespace and pdb.selector.matches(p.labels)]


def healthy(pod: Pod) -> bool:
    """Ready, offline: bound and not being deleted."""
    return bool(pod.node_name) and pod.meta.deletion_timestamp is None


def _find(cluster: Cluster | None, kind: str, namespace: str, name: str) -> Workload | None:
    attr = _SCALE_LISTS.get(kind)
    if cluster is None or attr is None:
        return None
    return next((w for w in getattr(cluster, attr)
                 if w.namespace == namespace and w.name == name), None)


def _replicas(workload: Workload) -> int:
    """spec.replicas of a scalable controller (ReplicasSpec, StatefulSetSpec)."""
    replicas = getattr(workload.controller, "replicas", 0)
    return replicas if isinstance(replicas, int) else 0


def _controller_scale(pod: Pod, cluster: Cluster | None,
                      pods: Sequence[Pod]) -> tuple[tuple[str, str], int]:
    """The finders in order: a ReplicaSet's Deployment, else the object's own scale."""
    ref = pod.meta.controller_ref()
    assert ref is not None
    owner = _find(cluster, ref.kind, pod.namespace, ref.name)
    if owner is not None and ref.kind == "ReplicaSet":
        top = owner.meta.controller_ref()
        if top is not None and top.kind == "Deployment":
            deployment = _find(cluster, "Deployment", pod.namespace, top.name)
            if deployment is not None:
                return ("Deployment", top.name), _replicas(deployment)
    if owner is not None:
        return (ref.kind, ref.name), _replicas(owner)
    if ref.kind in _NO_SCALE:
        raise _SyncFailed(f"{_NO_SCALE[ref.kind]} does not implement the scale subresource")
    # Not in the input: its scale is unknown; the selected pods it controls stand for it.
    mine = [p for p in pods if p.meta.controller_ref() == ref]
    return (ref.kind, ref.name), len(mine)


def expected_scale(pods: Sequence[Pod], cluster: Cluster | None) -> int:
    """getExpectedScale: the sum of the scales of the pods' controllers, each once."""
    scales: dict[tuple[str, str], int] = {}
    for pod in pods:
        if pod.meta.controller_ref() is None:
            continue  # an unmanaged pod: the controller only warns
        key, scale = _controller_scale(pod, cluster, pods)
        scales.setdefault(key, scale)
    return sum(scales.values())


def _expected_and_desired(pdb: PodDisruptionBudget, pods: Sequence[Pod],
                          cluster: Cluster | None) -> tuple[int, int]:
    """getExpectedPodCount."""
    if pdb.max_unavailable is not None:
        expected = expected_scale(pods, cluster)
        return expected, max(expected - _scaled(pdb.max_unavailable, expected), 0)
    if isinstance(pdb.min_available, int):
        return len(pods), pdb.min_available
    if pdb.min_available is not None:
        expected = expected_scale(pods, cluster)
        return expected, _scaled(pdb.min_available, expected)
    return 0, 0  # policy/v1 requires one of the two; nothing to protect


def compute_status(pdb: PodDisruptionBudget, pods: Sequence[Pod],
                   cluster: Cluster | None = None) -> str:
    """Fill the status as updatePdbStatus would; returns a sentence for --explain."""
    matching = selected_pods(pdb, pods)
    current = sum(1 for p in matching if healthy(p))
    try:
        expected, desired = _expected_and_desired(pdb, matching, cluster)
    except _SyncFailed as exc:
        pdb.disruptions_allowed = 0
        pdb.current_healthy, pdb.desired_healthy, pdb.expected_pods = current, 0, 0
        return (f"PodDisruptionBudget {_key(pdb)}: the disruption controller cannot compute "
                f"its status ({exc}): disruptionsAllowed=0")
    allowed = current - desired
    pdb.disruptions_allowed = allowed if expected > 0 and allowed > 0 else 0
    pdb.desired_healthy, pdb.current_healthy, pdb.expected_pods = desired, current, expected
    return (
        f"PodDisruptionBudget {_key(pdb)}: computed "
        f"disruptionsAllowed={pdb.disruptions_allowed} (healthy {current}, desired {desired}, "
        f"expected {expected} pod(s))"
    )


def _key(pdb: PodDisruptionBudget) -> str:
    return f"{pdb.meta.namespace}/{pdb.meta.name}"


def _selection(pdb: PodDisruptionBudget, pods: Sequence[Pod]) -> frozenset[str]:
    return frozenset(f"{p.key}@{p.node_name}" for p in selected_pods(pdb, pods) if healthy(p))


def fill_missing_statuses(pdbs: Sequence[PodDisruptionBudget], pods: Sequence[Pod],
                          cluster: Cluster | None = None) -> list[str]:
    """Budgets without a status get the computed one; a written status remembers the
    pods it was written for."""
    notes = []
    for pdb in pdbs:
        if pdb.disruptions_allowed is None:
            notes.append(compute_status(pdb, pods, cluster).replace(": computed",
                                                                      " has no status: computed"))
        elif pdb.has_status and pdb.written_for is None:
            pdb.written_for = _selection(pdb, pods)
    return notes


def refresh(pdbs: Sequence[PodDisruptionBudget], cluster: Cluster) -> None:
    """The disruption controller's resync at this instant: a computed status is computed
    again; a written one is replaced only once the pods it selects changed."""
    for pdb in pdbs:
        if pdb.has_status:
            if pdb.written_for is None:
                pdb.written_for = _selection(pdb, cluster.pods)
            if pdb.written_for == _selection(pdb, cluster.pods):
                continue
            pdb.has_status = False  # from now on the controller's view
        compute_status(pdb, cluster.pods, cluster)
