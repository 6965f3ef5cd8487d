"""The informer view of the cluster, as plugins and preemption read it.

kube-scheduler's plugins list objects through ``framework.Handle``'s
SharedInformerFactory; here the handle's ``cluster`` is that view. The engine's
``Cluster`` satisfies this protocol; plugins depend on the protocol, not on the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..api.namespaces import LimitRange, Namespace
    from ..api.node import Node
    from ..api.pod import Pod
    from ..api.podgroup import PodGroup
    from ..api.policy import PodDisruptionBudget, PriorityClass
    from ..api.storage import CSINode, PersistentVolume, PersistentVolumeClaim, StorageClass
    from ..api.workloads import Workload
    from .extender import Extenders


class ClusterView(Protocol):
    """Every object the scheduler's informers would list, by kind (read-only)."""

    @property
    def nodes(self) -> list[Node]: ...

    @property
    def pods(self) -> list[Pod]: ...

    @property
    def priority_classes(self) -> dict[str, PriorityClass]: ...

    @property
    def pdbs(self) -> list[PodDisruptionBudget]: ...

    @property
    def services(self) -> list[Workload]: ...

    @property
    def replica_sets(self) -> list[Workload]: ...

    @property
    def stateful_sets(self) -> list[Workload]: ...

    @property
    def replication_controllers(self) -> list[Workload]: ...

    @property
    def namespaces(self) -> dict[str, Namespace]: ...

    @property
    def limit_ranges(self) -> list[LimitRange]: ...

    @property
    def persistent_volumes(self) -> dict[str, PersistentVolume]: ...

    @property
    def persistent_volume_claims(self) -> dict[str, PersistentVolumeClaim]:
        """Keyed "namespace/name"."""
        ...

    @property
    def storage_classes(self) -> dict[str, StorageClass]: ...

    @property
    def csi_nodes(self) -> dict[str, CSINode]: ...

    @property
    def pod_groups(self) -> dict[str, PodGroup]:
        """Keyed "namespace/name"."""
        ...

    @property
    def extenders(self) -> Extenders:
        """The scheduler's extenders (handle.Extenders())."""
        ...

    @property
    def on_storage_update(self) -> Callable[[object, object], None] | None:
        """Where a PersistentVolume or claim written during the plan is reported (old, new):
        the PV controller completing a static binding. None outside a plan."""
        ...

    def namespace_labels(self, namespace: str) -> dict[str, str]: ...
