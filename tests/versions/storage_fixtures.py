"""Storage objects and events for the storage queueing-hint tables (upstream's makePVC,
makePV, st.MakePersistentVolumeClaim and friends, reduced to what the hints read)."""

from __future__ import annotations

from typing import Any

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
from ksched_cli.engine.actions import ADD, DELETE, UPDATE
from ksched_cli.engine.queueing_hints import has_enqueue_extensions
from ksched_cli.engine.storage_hints import StorageEvent, plugin_says_queue
from ksched_cli.versions.features import Features
from tests.fakes import make_pod

WAIT = "WaitForFirstConsumer"
MIGRATED = "storage.alpha.kubernetes.io/migrated-plugins"


def pvc(name: str, namespace: str = "default", volume_name: str = "") -> PersistentVolumeClaim:
    spec: dict[str, Any] = {"resources": {"requests": {"storage": "1Gi"}}}
    if volume_name:
        spec["volumeName"] = volume_name
    meta = {"name": name, "namespace": namespace}
    return parse_persistent_volume_claim({"metadata": meta, "spec": spec})


def pv(name: str, labels: dict[str, str] | None = None) -> PersistentVolume:
    meta = {"name": name, "labels": dict(labels or {})}
    return parse_persistent_volume({"metadata": meta, "spec": {"capacity": {"storage": "1Gi"}}})


def storage_class(
    name: str, mode: str | None = None, topologies: list[dict[str, Any]] | None = None
) -> StorageClass:
    raw: dict[str, Any] = {"metadata": {"name": name}, "provisioner": "p"}
    if mode is not None:
        raw["volumeBindingMode"] = mode
    if topologies is not None:
        raw["allowedTopologies"] = topologies
    return parse_storage_class(raw)


def hostnames(*names: str) -> list[dict[str, Any]]:
    """allowedTopologies with one kubernetes.io/hostname requirement."""
    values = list(names)
    return [{"matchLabelExpressions": [{"key": "kubernetes.io/hostname", "values": values}]}]


def csi_node(
    name: str = "csinode-a",
    migrated: str | None = None,
    drivers: dict[str, int | None] | None = None,
) -> CSINode:
    meta: dict[str, Any] = {"name": name}
    if migrated is not None:
        meta["annotations"] = {MIGRATED: migrated}
    listed = []
    for driver, count in (drivers or {}).items():
        entry: dict[str, Any] = {"name": driver, "nodeID": "test-node"}
        if count is not None:
            entry["allocatable"] = {"count": count}
        listed.append(entry)
    return parse_csi_node({"metadata": meta, "spec": {"drivers": listed}})


def volume_pod(name: str = "pod-a", namespace: str = "default", **volumes: Any) -> Pod:
    """A pod with volumes named by keyword: ``claim`` (a PVC name), ``ephemeral``,
    ``csi`` (an inline CSI driver), ``raw`` (a list of volume dicts)."""
    listed: list[dict[str, Any]] = list(volumes.get("raw", []))
    for i, claim in enumerate(volumes.get("claims", [])):
        listed.append({"name": f"v{i}", "persistentVolumeClaim": {"claimName": claim}})
    for eph in volumes.get("ephemeral", []):
        listed.append({"name": eph, "ephemeral": {"volumeClaimTemplate": {"spec": {}}}})
    for driver in volumes.get("csi", []):
        listed.append({"name": f"csi-{driver}", "csi": {"driver": driver}})
    return make_pod(name, namespace=namespace, spec={"volumes": listed})


def added(resource: str, new: Any) -> StorageEvent:
    return StorageEvent(resource, ADD, None, new, f"{resource}Add")


def updated(resource: str, old: Any, new: Any) -> StorageEvent:
    return StorageEvent(resource, UPDATE, old, new, f"{resource}Update")


def deleted(resource: str, old: Any) -> StorageEvent:
    return StorageEvent(resource, DELETE, old, None, f"{resource}Delete")


def says(plugin: str, pod: Pod, event: StorageEvent, features: Features) -> bool | None:
    return plugin_says_queue(plugin, pod, event, features, has_enqueue_extensions)
