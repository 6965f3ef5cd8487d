"""Storage objects and events for the storage queueing-hint tables (upstream's makePVC,
makePV, st.MakePersistentVolumeClaim and friends, reduced to what the hints read)."""

from __future__ import annotations

from typing import Any

from ksched_cli.api.pod import Pod
from ksched_cli.api.storage import CSINode, PersistentVolume, PersistentVolumeClaim, StorageClass
from ksched_cli.engine.actions import ADD, DELETE, UPDATE
from ksched_cli.engine.queueing_hints import has_enqueue_extensions
from ksched_cli.engine.storage_hints import StorageEvent, plugin_says_queue
from ksched_cli.versions.features import Features
from tests.fakes import make_pod
from tests.plugins.volume_helpers import make_csi_node, make_pv, make_pvc, make_sc

WAIT = "WaitForFirstConsumer"


def pvc(name: str, namespace: str = "default", volume_name: str = "") -> PersistentVolumeClaim:
    return make_pvc(name, request="1Gi", volume_name=volume_name, namespace=namespace)


def pv(name: str, labels: dict[str, str] | None = None) -> PersistentVolume:
    return make_pv(name, capacity="1Gi", labels=labels)


def storage_class(
    name: str, mode: str | None = None, topologies: list[dict[str, Any]] | None = None
) -> StorageClass:
    """A class with ``allowedTopologies`` of kubernetes.io/hostname terms (``hostnames``)."""
    terms = [
        {r["key"]: r["values"] for r in term["matchLabelExpressions"]} for term in topologies
    ] if topologies is not None else None
    return make_sc(name, mode=mode or "Immediate", allowed_topologies=terms)


def hostnames(*names: str) -> list[dict[str, Any]]:
    """allowedTopologies with one kubernetes.io/hostname requirement."""
    values = list(names)
    return [{"matchLabelExpressions": [{"key": "kubernetes.io/hostname", "values": values}]}]


def csi_node(
    name: str = "csinode-a",
    migrated: str | None = None,
    drivers: dict[str, int | None] | None = None,
) -> CSINode:
    return make_csi_node(name, drivers or {}, migrated)


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
