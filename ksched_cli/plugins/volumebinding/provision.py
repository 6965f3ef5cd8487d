"""The PersistentVolume a dynamic provisioner creates for a claim the scheduler placed.

external-provisioner (pkg/controller/topology.go) takes the selected node's values of the
topology keys its driver registered in the node's CSINode, and the new volume's node
affinity is that segment (GenerateVolumeNodeAffinity: one term, one ``In`` requirement
per key). A driver registered without topology keys reports none: the volume is reachable
from every node. ksched's fallbacks, for snapshots without CSINode objects: the node's
region and zone labels, else the node itself; a node-local provisioner pins the node.
"""

from __future__ import annotations

import uuid

from ...api.meta import ObjectMeta
from ...api.node import Node
from ...api.selectors import NodeSelector, NodeSelectorTerm, Requirement
from ...api.storage import (
    ANN_BIND_COMPLETED,
    ANN_BOUND_BY_CONTROLLER,
    ClaimRef,
    CSINode,
    PersistentVolume,
    PersistentVolumeClaim,
    StorageClass,
    VolumeSource,
)
from ...record import record
from .pv_helpers import PHASE_BOUND, copy_pvc

# Provisioners whose volumes live on one node's disk (they set kubernetes.io/hostname).
NODE_LOCAL_PROVISIONERS = frozenset({
    "rancher.io/local-path", "openebs.io/local", "topolvm.io", "local.csi.openebs.io",
})
HOSTNAME = "kubernetes.io/hostname"
WELL_KNOWN_KEYS = ("topology.kubernetes.io/region", "topology.kubernetes.io/zone")


@record(frozen=True)
class Topology:
    """Where a provisioned volume can be used, and the rule that said so."""

    segment: tuple[tuple[str, str], ...]  # (key, value), by key; empty: every node
    rule: str

    def text(self) -> str:
        if not self.segment:
            return "any node"
        return ", ".join(f"{k}={v}" for k, v in self.segment)


def volume_topology(provisioner: str, node: Node, csi_node: CSINode | None) -> Topology:
    """The node affinity ``provisioner`` gives a volume provisioned for ``node``."""
    if provisioner in NODE_LOCAL_PROVISIONERS:
        return Topology(((HOSTNAME, node.name),), f"node-local provisioner {provisioner}")
    driver = next((d for d in csi_node.drivers if d.name == provisioner), None) \
        if csi_node is not None else None
    if driver is not None:
        if not driver.topology_keys:
            return Topology((), f"CSINode {node.name}: {provisioner} reports no topology keys")
        if all(k in node.labels for k in driver.topology_keys):
            segment = tuple(sorted((k, node.labels[k]) for k in driver.topology_keys))
            return Topology(segment, f"CSINode {node.name} topologyKeys of {provisioner}")
    where = f"no CSINode entry for {provisioner} on {node.name}" if driver is None else \
        f"node {node.name} lacks a topology key CSINode names for {provisioner}"
    zonal = tuple((k, node.labels[k]) for k in WELL_KNOWN_KEYS if k in node.labels)
    if zonal:
        return Topology(zonal, f"{where}: the node's region/zone labels")
    return Topology(((HOSTNAME, node.name),), f"{where}, no region/zone labels: the node")


def volume_name(claim: PersistentVolumeClaim) -> str:
    """external-provisioner's ``pvc-<claim uid>`` (a stable uid when the input has none)."""
    uid = claim.meta.uid or str(uuid.uuid5(uuid.NAMESPACE_URL, f"ksched:pvc/{claim.key}"))
    return f"pvc-{uid}"


def provisioned(
    claim: PersistentVolumeClaim, sc: StorageClass, node: Node, csi_node: CSINode | None
) -> tuple[PersistentVolume, PersistentVolumeClaim, Topology]:
    """The new bound PV, the claim bound to it, and the topology rule used."""
    topology = volume_topology(sc.provisioner, node, csi_node)
    affinity = None
    if topology.segment:
        reqs = tuple(Requirement(k, "In", (v,)) for k, v in topology.segment)
        affinity = NodeSelector((NodeSelectorTerm(match_expressions=reqs),))
    name = volume_name(claim)
    pv = PersistentVolume(
        meta=ObjectMeta(name=name, namespace="", annotations={
            "pv.kubernetes.io/provisioned-by": sc.provisioner}),
        capacity=claim.requested,
        access_modes=claim.access_modes,
        storage_class_name=sc.meta.name,
        claim_ref=ClaimRef(claim.namespace, claim.name, claim.meta.uid),
        node_affinity=affinity,
        source=VolumeSource("csi", sc.provisioner, name),
        volume_mode=claim.volume_mode,
        reclaim_policy=sc.reclaim_policy,
        phase=PHASE_BOUND,
    )
    bound = copy_pvc(claim, volume_name=name, phase=PHASE_BOUND)
    bound.meta.annotations[ANN_BIND_COMPLETED] = "yes"
    bound.meta.annotations[ANN_BOUND_BY_CONTROLLER] = "yes"
    return pv, bound, topology
