"""The ReplicationController manager (pkg/controller/replication: the ReplicaSet controller
run over ReplicationControllers, with their map selectors)."""

from __future__ import annotations

from ..api.workloads import ReplicasSpec, Workload
from .context import Context
from .interface import Outcome
from .replicaset import manage_replicas

KIND = "ReplicationController"


class ReplicationControllerController:
    kind = KIND
    cluster_list = "replication_controllers"

    def managed_elsewhere(self, workload: Workload, ctx: Context) -> bool:
        return False

    def sync(self, workload: Workload, ctx: Context) -> Outcome:
        spec = workload.controller
        assert isinstance(spec, ReplicasSpec)
        pods = ctx.claim_pods(workload.namespace, KIND, workload.name, workload.selector)
        for pod in pods:
            pod.workload = workload.ref
        return manage_replicas(workload, ctx, spec.replicas, pods)
