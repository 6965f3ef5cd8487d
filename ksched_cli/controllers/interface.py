"""The controller extension point and what a sync returns."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Protocol

from ..api.pod import Pod
from ..api.storage import PersistentVolumeClaim
from ..api.workloads import Workload
from ..record import record

if TYPE_CHECKING:
    from .context import Context


@record
class Outcome:
    """What one sync asks of the API server: pods to create and delete, claims to create."""

    created: list[Pod] = field(default_factory=list)
    deleted: list[Pod] = field(default_factory=list)
    claims: list[PersistentVolumeClaim] = field(default_factory=list)
    # Objects a controller creates besides pods (a Deployment's ReplicaSet, a CronJob's Job).
    workloads: list[Workload] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # A StatefulSet with OrderedReady waits for a pod to bind before creating the next.
    waiting: bool = False

    def extend(self, other: Outcome) -> None:
        self.created += other.created
        self.deleted += other.deleted
        self.claims += other.claims
        self.workloads += other.workloads
        self.notes += other.notes
        self.waiting = self.waiting or other.waiting


class Controller(Protocol):
    """One controller: ``sync`` compares a workload's desired pods with those present."""

    kind: str
    # The Cluster attribute listing this kind's objects.
    cluster_list: str

    def sync(self, workload: Workload, ctx: Context) -> Outcome: ...

    def managed_elsewhere(self, workload: Workload, ctx: Context) -> bool:
        """Whether another controller in the input syncs this object (an owned ReplicaSet)."""
        ...
