"""The ReplicaSet controller (pkg/controller/replicaset: manageReplicas, getPodsToDelete)."""

from __future__ import annotations

from collections.abc import Sequence

from ..api.pod import Pod
from ..api.workloads import ReplicasSpec, Workload
from .context import Context
from .interface import Outcome
from .ranking import pods_to_delete

KIND = "ReplicaSet"


def workload_of(owner: Workload) -> str:
    """A ReplicaSet a Deployment owns rolls up to the Deployment, even one not in the input."""
    ref = owner.meta.controller_ref()
    if ref is not None and ref.kind == "Deployment":
        return f"deployment/{ref.name}"
    return owner.ref


def manage_replicas(
    owner: Workload,
    ctx: Context,
    replicas: int,
    pods: Sequence[Pod],
    related: Sequence[Pod] | None = None,
) -> Outcome:
    """Create pods up to ``replicas`` or delete the excess, ranked as upstream ranks them.

    ``pods`` are the owner's active pods; ``related`` the pods its siblings own as well
    (a Deployment's other ReplicaSets), which decide whether a pod is doubled up.
    """
    spec = owner.controller
    assert isinstance(spec, ReplicasSpec)
    outcome = Outcome()
    diff = len(pods) - replicas
    if diff > 0:
        outcome.deleted = pods_to_delete(pods, related or pods, diff, ctx.now)
        return outcome
    workload = workload_of(owner)
    ctx.check_new_pods(-diff, owner)  # before any is made: replicas may be 2147483647
    prototype = ctx.prototype(spec.template)
    for _ in range(-diff):
        name = ctx.generated_name(owner.namespace, f"{owner.name}-")
        outcome.created.append(
            ctx.stamp(prototype, owner, workload, name, dict(spec.template.labels))
        )
    return outcome


class ReplicaSetController:
    kind = KIND
    cluster_list = "replica_sets"

    def managed_elsewhere(self, workload: Workload, ctx: Context) -> bool:
        ref = workload.meta.controller_ref()
        return (
            ref is not None
            and ref.kind == "Deployment"
            and (workload.namespace, ref.name) in ctx.kinds_present("Deployment")
        )

    def sync(self, workload: Workload, ctx: Context) -> Outcome:
        spec = workload.controller
        assert isinstance(spec, ReplicasSpec)
        pods = ctx.claim_pods(workload.namespace, KIND, workload.name, workload.selector)
        for pod in pods:
            pod.workload = workload_of(workload)
        return manage_replicas(workload, ctx, spec.replicas, pods)
