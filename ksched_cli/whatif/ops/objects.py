"""Scenario steps that create or delete objects, as the API server would.

Created workload objects are reconciled by their controllers at once; storage objects
reach the scheduler as the events its handlers send for them (PvAdd, PvcAdd,
CSINodeAdd, StorageClassAdd; see LiveTarget.storage_added).
"""

from __future__ import annotations

from ...engine import events as ev
from ...engine.cluster import Cluster
from ...engine.pdb_status import fill_missing_statuses
from ...errors import KschedError
from ...manifests.loader import load_into
from ...record import record
from ..controllers_reconciler import OBJECT_LISTS
from ..model import CREATED, DELETED, LOST, OperationResult, PodChange
from .base import NodeChoice, OpContext, owner_text
from .remove_node import RemoveNode


@record
class CreateObjects:
    """The Nodes, Pods and PodDisruptionBudgets of a manifest file."""

    file: str
    text: str

    def check(self, cluster: Cluster) -> None:
        pass  # the file is read when the step runs: it may name nodes created before it

    def apply(self, ctx: OpContext) -> OperationResult:
        result = OperationResult(self.text, ctx.time)
        load = load_into([self.file], ctx.cluster)
        loaded, loaded_warnings = load.cluster, load.warnings
        existing = {p.key for p in ctx.cluster.pods}
        names = {n.name for n in ctx.cluster.nodes}
        for node in loaded.nodes:
            if node.name in names:
                raise KschedError(f'{self.file}: node "{node.name}" already exists')
            node.load_index = len(ctx.cluster.nodes)
            ctx.target.add_node(node)
            result.nodes.append(node.name)
        index = max((p.load_index for p in ctx.cluster.pods), default=-1) + 1
        for pod in loaded.pods:
            if pod.key in existing:
                raise KschedError(f'{self.file}: pod "{pod.key}" already exists')
            pod.load_index = index
            index += 1
            ctx.target.create_pod(pod)
            result.changes.append(PodChange(pod.key, CREATED, pod.node_name, "created",
                                            owner_text(pod), operation=result.operation))
        ctx.notes.extend(fill_missing_statuses(loaded.pdbs, ctx.cluster.pods, ctx.cluster))
        ctx.cluster.pdbs.extend(loaded.pdbs)
        result.warnings.extend(loaded_warnings)
        _add_objects(ctx, loaded)
        added = [n for n in ctx.cluster.nodes if n.name in result.nodes]
        # The controllers sync: new workloads create their pods, DaemonSets cover new nodes.
        ctx.sync(result, (), added)
        return result


def _add_objects(ctx: OpContext, loaded: Cluster) -> None:
    """Everything else the file holds joins the cluster; storage objects are events."""
    cluster = ctx.cluster
    for attr in (*OBJECT_LISTS.values(), "services", "limit_ranges"):
        getattr(cluster, attr).extend(getattr(loaded, attr))
    cluster.priority_classes.update(loaded.priority_classes)
    cluster.namespaces.update(loaded.namespaces)
    for attr, resource, label in _STORAGE:
        added = getattr(loaded, attr)
        getattr(cluster, attr).update(added)
        if added:
            ctx.target.storage_added(resource, label, list(added.values()))


_STORAGE = (
    ("persistent_volumes", ev.PV, "PvAdd"),
    ("persistent_volume_claims", ev.PVC, "PvcAdd"),
    ("storage_classes", ev.STORAGE_CLASS, "StorageClassAdd"),
    ("csi_nodes", ev.CSI_NODE, "CSINodeAdd"),
)


@record
class DeleteObject:
    kind: str
    name: str
    namespace: str
    text: str

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}" if self.kind != "Node" else self.name

    def check(self, cluster: Cluster) -> None:
        if self.kind == "Node":
            NodeChoice("delete", self.name).nodes(cluster)
        elif self.kind == "Pod" and not any(p.key == self.key for p in cluster.pods):
            raise KschedError(f"no pod {self.key} in the cluster")
        elif self.kind == "PodDisruptionBudget" and not any(
            f"{b.meta.namespace}/{b.meta.name}" == self.key for b in cluster.pdbs
        ):
            raise KschedError(f"no PodDisruptionBudget {self.key} in the cluster")

    def apply(self, ctx: OpContext) -> OperationResult:
        if self.kind == "Node":
            result = RemoveNode(NodeChoice("delete", self.name), self.text).apply(ctx)
            return result
        result = OperationResult(self.text, ctx.time)
        if self.kind == "PodDisruptionBudget":
            ctx.cluster.pdbs[:] = [
                b for b in ctx.cluster.pdbs if f"{b.meta.namespace}/{b.meta.name}" != self.key
            ]
            return result
        pod = next(p for p in ctx.cluster.pods if p.key == self.key)
        ctx.target.delete_pod(pod)
        owner = owner_text(pod)
        change = DELETED if pod.meta.controller_ref() is not None else LOST
        reason = "deleted" if change == DELETED else "deleted; no controller recreates it"
        result.changes.append(PodChange(pod.key, change, pod.node_name, reason, owner,
                                        operation=result.operation))
        ctx.recreate([pod], result)
        return result
