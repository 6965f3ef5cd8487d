"""The informer view of the cluster: every object the plugins may list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING

from .. import KUBE_SCHEDULER_VERSION
from ..api.node import Node
from ..api.pod import Pod
from ..extender.scheduling import Extenders
from ..record import record

if TYPE_CHECKING:  # kinds a plan may not have: their modules load with their first object
    from ..api.namespaces import LimitRange, Namespace
    from ..api.podgroup import PodGroup
    from ..api.policy import PodDisruptionBudget, PriorityClass
    from ..api.storage import CSINode, PersistentVolume, PersistentVolumeClaim, StorageClass
    from ..api.workloads import Workload
    from ..framework.cluster_view import ClusterView


@record
class Cluster:
    """Every object the scheduler's informers would list, by kind."""

    nodes: list[Node] = field(default_factory=list)
    # Every pod known to the API server (running, pending, gated), in load order.
    pods: list[Pod] = field(default_factory=list)
    priority_classes: dict[str, PriorityClass] = field(default_factory=dict)
    pdbs: list[PodDisruptionBudget] = field(default_factory=list)
    services: list[Workload] = field(default_factory=list)
    replica_sets: list[Workload] = field(default_factory=list)
    stateful_sets: list[Workload] = field(default_factory=list)
    replication_controllers: list[Workload] = field(default_factory=list)
    deployments: list[Workload] = field(default_factory=list)
    daemon_sets: list[Workload] = field(default_factory=list)
    jobs: list[Workload] = field(default_factory=list)
    cron_jobs: list[Workload] = field(default_factory=list)
    namespaces: dict[str, Namespace] = field(default_factory=dict)
    limit_ranges: list[LimitRange] = field(default_factory=list)
    # Storage and gang objects, keyed as the API server keys them.
    persistent_volumes: dict[str, PersistentVolume] = field(default_factory=dict)
    # "ns/name"
    persistent_volume_claims: dict[str, PersistentVolumeClaim] = field(default_factory=dict)
    storage_classes: dict[str, StorageClass] = field(default_factory=dict)
    csi_nodes: dict[str, CSINode] = field(default_factory=dict)
    pod_groups: dict[str, PodGroup] = field(default_factory=dict)  # "ns/name"
    # The scheduler's extenders (Handle.Extenders()); set by the engine. They live here
    # because the cluster is what preemption reaches through its handle.
    extenders: Extenders = field(default_factory=Extenders)
    # The controllers' reaction to a pod binding (set by controllers.reconcile when a
    # StatefulSet waits on it): the pods they create in turn, already in ``pods``.
    on_bound: Callable[[Pod, float], list[Pod]] | None = None
    # The scheduler's informers seeing a PersistentVolume or claim updated (old, new): the
    # PV controller completing a static binding at bind time. Set by the engine.
    on_storage_update: Callable[[object, object], None] | None = None
    # The Kubernetes release whose API schemas checked the objects (--kubernetes-version);
    # objects a what-if step creates later are checked against the same release.
    kubernetes_version: str = KUBE_SCHEDULER_VERSION
    # Every pod name (ns/name) the controllers have seen: a name the API server generated
    # once is not generated again after its pod is deleted (a recreated pod is new).
    used_names: set[str] = field(default_factory=set)
    # Pods and nodes this run created (controllers, what-if steps), held to ksched_cli.limits.
    created_pods: int = 0
    created_nodes: int = 0

    def namespace_labels(self, namespace: str) -> dict[str, str]:
        """A Namespace object's labels; a namespace not in the input has only its name label."""
        ns = self.namespaces.get(namespace)
        return ns.labels if ns is not None else {"kubernetes.io/metadata.name": namespace}


if TYPE_CHECKING:  # the informer view plugins read through their handle (mypy checks it)
    _VIEW: type[ClusterView] = Cluster
