"""The Deployment controller, through its ReplicaSets (pkg/controller/deployment).

The plan is the rollout's end state: the ReplicaSet whose template equals the
Deployment's (ignoring pod-template-hash) has ``replicas`` pods, every other one of the
Deployment's ReplicaSets none. Without such a ReplicaSet, the new one is
``<deployment>-<pod-template-hash>``, created as getNewReplicaSet creates it.
"""

from __future__ import annotations

from dataclasses import replace

from ..api.meta import ObjectMeta, OwnerReference
from ..api.selectors import Requirement
from ..api.workloads import ReplicasSpec, Workload
from .context import Context
from .defaults import POD_TEMPLATE_HASH, normalized_template
from .hashing import compute_hash
from .interface import Outcome
from .replicaset import manage_replicas

KIND = "Deployment"


def pod_template_hash(deployment: Workload) -> str:
    spec = deployment.controller
    assert isinstance(spec, ReplicasSpec)
    return compute_hash(normalized_template(spec.template.raw), spec.collision_count)


class DeploymentController:
    kind = KIND
    cluster_list = "deployments"

    def managed_elsewhere(self, workload: Workload, ctx: Context) -> bool:
        return False

    def sync(self, workload: Workload, ctx: Context) -> Outcome:
        spec = workload.controller
        assert isinstance(spec, ReplicasSpec)
        outcome = Outcome()
        owned = self._replica_sets(workload, ctx)
        wanted = normalized_template(spec.template.raw)
        new = next(
            (rs for rs in owned
             if normalized_template(_template_raw(rs), POD_TEMPLATE_HASH) == wanted),
            None,
        )
        if new is None:
            if spec.paused:
                outcome.notes.append(f"{workload.ref}: paused, and no ReplicaSet has its "
                                     "template: no pods planned")
            else:
                new = _new_replica_set(workload)
                outcome.workloads.append(new)
                owned.append(new)
        pods = {
            id(rs): ctx.claim_pods(rs.namespace, "ReplicaSet", rs.name, rs.selector)
            for rs in owned
        }
        related = [p for rs_pods in pods.values() for p in rs_pods]
        for pod in related:
            pod.workload = workload.ref
        for rs in owned:
            replicas = spec.replicas if rs is new else 0
            outcome.extend(manage_replicas(rs, ctx, replicas, pods[id(rs)], related))
        return outcome

    def _replica_sets(self, deployment: Workload, ctx: Context) -> list[Workload]:
        """The Deployment's ReplicaSets: by controller reference, then orphans it selects."""
        out = []
        for rs in ctx.cluster.replica_sets:
            if rs.namespace != deployment.namespace:
                continue
            ref = rs.meta.controller_ref()
            if ref is None:
                selector = deployment.selector
                if selector is not None and selector.matches(rs.meta.labels):
                    out.append(rs)
            elif ref.kind == KIND and ref.name == deployment.name:
                out.append(rs)
        return out


def _template_raw(rs: Workload) -> dict[str, object]:
    spec = rs.controller
    assert isinstance(spec, ReplicasSpec)
    return dict(spec.template.raw)


def _new_replica_set(deployment: Workload) -> Workload:
    """getNewReplicaSet: the template and selector gain the pod-template-hash label."""
    spec = deployment.controller
    assert isinstance(spec, ReplicasSpec) and deployment.selector is not None
    hash_value = pod_template_hash(deployment)
    labels = {**spec.template.labels, POD_TEMPLATE_HASH: hash_value}
    template = replace(spec.template, labels=labels)
    meta = ObjectMeta(
        name=f"{deployment.name}-{hash_value}",
        namespace=deployment.namespace,
        labels=labels,
        owner_references=(OwnerReference(KIND, deployment.name, True),),
    )
    selector = deployment.selector.with_requirements(
        (Requirement(POD_TEMPLATE_HASH, "In", (hash_value,)),)
    )
    return Workload("ReplicaSet", meta, selector, None,
                    ReplicasSpec(spec.replicas, template, None))
