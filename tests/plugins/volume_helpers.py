"""Builders for the volume plugin tests: PVs, PVCs, StorageClasses, CSINodes, pods
that mount claims, and a FakeHandle over a Cluster holding them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod
from ksched_cli.api.storage import (
    CSINode,
    PersistentVolume,
    PersistentVolumeClaim,
    StorageClass,
    parse_csi_node,
    parse_persistent_volume,
    parse_persistent_volume_claim,
    parse_storage_class,
)
from ksched_cli.engine.cluster import Cluster
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Status
from tests.fakes import FakeHandle, make_pod

Raw = dict[str, Any]
HOSTNAME = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
REGION = "topology.kubernetes.io/region"
BOUND = {"pv.kubernetes.io/bind-completed": "yes"}


def affinity(key: str, *values: str, op: str = "In") -> Raw:
    """A PV node affinity with one term of one requirement."""
    return {"nodeSelectorTerms": [{"matchExpressions": [
        {"key": key, "operator": op, "values": list(values)}
    ]}]}


def make_pv(
    name: str,
    capacity: str = "10Gi",
    storage_class: str = "",
    access_modes: Sequence[str] = ("ReadWriteOnce",),
    claim: str | None = None,
    phase: str = "Available",
    node_affinity: Raw | None = None,
    labels: Mapping[str, str] | None = None,
    source: Raw | None = None,
    volume_mode: str | None = None,
) -> PersistentVolume:
    spec: Raw = {
        "capacity": {"storage": capacity},
        "accessModes": list(access_modes),
        "storageClassName": storage_class,
        **(source or {"csi": {"driver": "csi.example.com", "volumeHandle": f"vol-{name}"}}),
    }
    if claim is not None:
        namespace, _, claim_name = claim.rpartition("/")
        spec["claimRef"] = {"namespace": namespace or "default", "name": claim_name}
    if node_affinity is not None:
        spec["nodeAffinity"] = {"required": node_affinity}
    if volume_mode is not None:
        spec["volumeMode"] = volume_mode
    meta: Raw = {"name": name, "labels": dict(labels or {})}
    return parse_persistent_volume({"metadata": meta, "spec": spec, "status": {"phase": phase}})


def make_pvc(
    name: str,
    storage_class: str | None = None,
    request: str = "10Gi",
    volume_name: str = "",
    access_modes: Sequence[str] = ("ReadWriteOnce",),
    annotations: Mapping[str, str] | None = None,
    phase: str = "Pending",
    selector: Raw | None = None,
    namespace: str = "default",
    meta: Raw | None = None,
) -> PersistentVolumeClaim:
    spec: Raw = {
        "accessModes": list(access_modes),
        "resources": {"requests": {"storage": request}},
    }
    if storage_class is not None:
        spec["storageClassName"] = storage_class
    if volume_name:
        spec["volumeName"] = volume_name
    if selector is not None:
        spec["selector"] = selector
    metadata: Raw = {"name": name, "namespace": namespace,
                     "annotations": dict(annotations or {}), **(meta or {})}
    raw = {"metadata": metadata, "spec": spec, "status": {"phase": phase}}
    return parse_persistent_volume_claim(raw)


def bound_pvc(
    name: str, pv: str, storage_class: str | None = None, **kw: Any
) -> PersistentVolumeClaim:
    return make_pvc(name, storage_class, volume_name=pv, annotations=BOUND, phase="Bound", **kw)


def make_sc(
    name: str,
    provisioner: str = "csi.example.com",
    mode: str = "Immediate",
    allowed_topologies: Sequence[Mapping[str, Sequence[str]]] | None = None,
) -> StorageClass:
    raw: Raw = {"metadata": {"name": name}, "provisioner": provisioner, "volumeBindingMode": mode}
    if allowed_topologies is not None:
        raw["allowedTopologies"] = [
            {"matchLabelExpressions": [{"key": k, "values": list(v)} for k, v in term.items()]}
            for term in allowed_topologies
        ]
    return parse_storage_class(raw)


def make_csi_node(
    name: str, drivers: Mapping[str, int | None], migrated: str | None = None
) -> CSINode:
    specs: list[Raw] = []
    for driver, count in drivers.items():
        spec: Raw = {"name": driver, "nodeID": name}
        if count is not None:
            spec["allocatable"] = {"count": count}
        specs.append(spec)
    meta: Raw = {"name": name}
    if migrated is not None:
        meta["annotations"] = {"storage.alpha.kubernetes.io/migrated-plugins": migrated}
    return parse_csi_node({"metadata": meta, "spec": {"drivers": specs}})


def claim_volume(claim: str, name: str | None = None) -> Raw:
    return {"name": name or f"v-{claim}", "persistentVolumeClaim": {"claimName": claim}}


def pod_with(name: str, *volumes: Raw, node: str = "", cpu: str = "100m",
             namespace: str = "default") -> Pod:
    return make_pod(name, cpu=cpu, node=node, namespace=namespace,
                    spec={"volumes": list(volumes)})


def pod_with_claims(name: str, *claims: str, node: str = "") -> Pod:
    return pod_with(name, *(claim_volume(c) for c in claims), node=node)


def make_handle(
    nodes: Sequence[Node],
    pods: Sequence[Pod] = (),
    pvs: Sequence[PersistentVolume] = (),
    pvcs: Sequence[PersistentVolumeClaim] = (),
    classes: Sequence[StorageClass] = (),
    csi_nodes: Sequence[CSINode] = (),
) -> FakeHandle:
    cluster = Cluster(
        nodes=list(nodes),
        pods=list(pods),
        persistent_volumes={pv.name: pv for pv in pvs},
        persistent_volume_claims={pvc.key: pvc for pvc in pvcs},
        storage_classes={sc.name: sc for sc in classes},
        csi_nodes={c.name: c for c in csi_nodes},
    )
    return FakeHandle(nodes, pods, cluster=cluster)


def run_filters(
    plugin: Any, handle: FakeHandle, pod: Pod
) -> tuple[Status | None, dict[str, Status | None]]:
    """PreFilter, then Filter on every node (unless PreFilter rejected or skipped)."""
    state = CycleState()
    _, status = plugin.pre_filter(state, pod)
    if status is not None:
        return status, {}
    return None, {ni.name: plugin.filter(state, pod, ni) for ni in handle.snapshot.list()}
