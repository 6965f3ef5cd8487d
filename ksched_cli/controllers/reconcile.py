"""The public entry point: every workload's desired pods against the pods in the cluster."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import field

from ..api.meta import DEFAULT_TIME
from ..api.pod import Pod
from ..api.storage import PersistentVolumeClaim
from ..api.workloads import Workload
from ..engine.cluster import Cluster
from ..errors import ObjectError
from ..record import record
from .context import Context
from .defaults import POD_TEMPLATE_HASH
from .interface import Outcome
from .registry import CONTROLLERS


@record
class ReconcileResult:
    """What the controllers did to the cluster (already applied to it)."""

    created: list[Pod] = field(default_factory=list)
    deleted: list[Pod] = field(default_factory=list)
    claims: list[PersistentVolumeClaim] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def reconcile(
    cluster: Cluster, now: float = DEFAULT_TIME, only: Collection[Workload] | None = None
) -> ReconcileResult:
    """Sync every workload object (or only the objects in ``only``).

    Creates the missing pods (pending, ``Pod.workload`` set, admitted) and claims,
    deletes excess pods, and fills ``Pod.workload`` on the pods each workload owns;
    the changes are applied to ``cluster``. Calling it again after the cluster changed
    (a node drained or removed, a workload scaled, nodes added) does only the difference.
    ``now`` is the instant of the reconcile (creation time of new pods).
    """
    ctx = Context(cluster, now)
    total = Outcome()
    next_index = max((p.load_index for p in cluster.pods), default=-1) + 1
    for controller in CONTROLLERS.values():
        for workload in list(getattr(cluster, controller.cluster_list)):
            if only is not None and all(w is not workload for w in only):
                continue
            if controller.managed_elsewhere(workload, ctx):
                continue
            try:
                outcome = controller.sync(workload, ctx)
            except ObjectError as exc:  # its template's pod refused at admission
                raise TemplateRefused(workload, exc) from None
            if outcome.deleted:
                outcome.notes.append(_deletion_note(workload, outcome.deleted))
            next_index = _apply(cluster, outcome, next_index)
            total.extend(outcome)
    if only is None:
        _name_unclaimed_owners(cluster.pods)
    if total.waiting:
        cluster.on_bound = _OrderedReadyHook(cluster)
    elif only is None:
        cluster.on_bound = None
    return ReconcileResult(total.created, total.deleted, total.claims, total.notes)


class TemplateRefused(ObjectError):
    """A pod a workload's controller would create, refused by the API server's admission;
    ``field`` is within the pod."""

    def __init__(self, workload: Workload, error: ObjectError) -> None:
        super().__init__(error.field, error.message)
        self.workload = workload


def _deletion_note(workload: Workload, deleted: list[Pod]) -> str:
    names = ", ".join(p.key for p in deleted[:5]) + (", ..." if len(deleted) > 5 else "")
    return f"{workload.ref}: deletes {len(deleted)} pod(s) it does not want: {names}"


def _name_unclaimed_owners(pods: list[Pod]) -> None:
    """Pods whose controller is not in the input still roll up to it: ``kind/name`` of the
    controller reference, except that a ReplicaSet named ``<name>-<pod-template-hash>``
    (the pod's label) stands for the Deployment ``<name>``."""
    for pod in pods:
        if pod.workload:
            continue
        ref = pod.meta.controller_ref()
        if ref is None or ref.kind not in _ROLL_UP_KINDS:
            continue
        hash_value = pod.labels.get(POD_TEMPLATE_HASH)
        if ref.kind == "ReplicaSet" and hash_value and ref.name.endswith(f"-{hash_value}"):
            pod.workload = f"deployment/{ref.name[: -len(hash_value) - 1]}"
        else:
            pod.workload = f"{ref.kind.lower()}/{ref.name}"


_ROLL_UP_KINDS = frozenset(
    ("ReplicaSet", "ReplicationController", "StatefulSet", "DaemonSet", "Job", "CronJob")
)
_CREATED_LISTS = {"ReplicaSet": "replica_sets", "Job": "jobs"}


def _apply(cluster: Cluster, outcome: Outcome, next_index: int) -> int:
    """Apply a sync's outcome; created pods are numbered from ``next_index`` in load order."""
    for workload in outcome.workloads:
        getattr(cluster, _CREATED_LISTS[workload.kind]).append(workload)
    for claim in outcome.claims:
        cluster.persistent_volume_claims[f"{claim.meta.namespace}/{claim.meta.name}"] = claim
    if outcome.deleted:
        gone = {id(p) for p in outcome.deleted}
        cluster.pods[:] = [p for p in cluster.pods if id(p) not in gone]
    for index, pod in enumerate(outcome.created, next_index):
        pod.load_index = index
    cluster.pods.extend(outcome.created)
    return next_index + len(outcome.created)


class _OrderedReadyHook:
    """Cluster.on_bound: when a StatefulSet's pod binds, that set is synced again, so an
    OrderedReady set creates its next ordinal (the bound pod is now Running and Ready)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    def __call__(self, pod: Pod, now: float) -> list[Pod]:
        ref = pod.meta.controller_ref()
        if ref is None or ref.kind != "StatefulSet":
            return []
        owner = next((s for s in self.cluster.stateful_sets
                      if s.namespace == pod.namespace and s.name == ref.name), None)
        if owner is None:
            return []
        return reconcile(self.cluster, now, only=(owner,)).created
