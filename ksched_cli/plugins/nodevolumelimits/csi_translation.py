"""The parts of csi-translation-lib (v0.30) the scheduler relies on: which in-tree
plugin and CSI driver stand behind a volume, the migrated volume handle, and the
PV node affinity after its zone topology is rewritten to the driver's key."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from ...api.pod import Volume
from ...api.selectors import NodeSelector, NodeSelectorTerm, Requirement
from ...record import record
from .utils import volume_member

if TYPE_CHECKING:
    from ...api.storage import PersistentVolume

GA_ZONE = "topology.kubernetes.io/zone"
GA_REGION = "topology.kubernetes.io/region"
BETA_ZONE = "failure-domain.beta.kubernetes.io/zone"
BETA_REGION = "failure-domain.beta.kubernetes.io/region"
MULTI_ZONE_DELIMITER = "__"
_UNSPECIFIED = "UNSPECIFIED"
# Compiled on first use (re caches it): only AWS volumes need it.
_AWS_VOLUME_ID = r"vol-[^/]*"


class TranslationError(Exception):
    """A volume the translator cannot express as a CSI volume."""


@record(frozen=True, slots=True)
class InTreePlugin:
    """An in-tree volume plugin and the CSI driver that supersedes it."""

    source: str  # the PersistentVolumeSource / VolumeSource member
    plugin: str  # in-tree plugin name
    driver: str  # the CSI driver that supersedes it
    topology_key: str = ""  # CSI zone key the PV topology is rewritten to ("": not rewritten)


IN_TREE_PLUGINS = (
    InTreePlugin(
        "gcePersistentDisk", "kubernetes.io/gce-pd", "pd.csi.storage.gke.io", "topology.gke.io/zone"
    ),
    InTreePlugin(
        "awsElasticBlockStore",
        "kubernetes.io/aws-ebs",
        "ebs.csi.aws.com",
        "topology.ebs.csi.aws.com/zone",
    ),
    InTreePlugin(
        "cinder",
        "kubernetes.io/cinder",
        "cinder.csi.openstack.org",
        "topology.cinder.csi.openstack.org/zone",
    ),
    InTreePlugin("azureDisk", "kubernetes.io/azure-disk", "disk.csi.azure.com"),
    InTreePlugin("azureFile", "kubernetes.io/azure-file", "file.csi.azure.com"),
    InTreePlugin("vsphereVolume", "kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com"),
    InTreePlugin("portworxVolume", "kubernetes.io/portworx-volume", "pxd.portworx.com"),
    InTreePlugin("rbd", "kubernetes.io/rbd", "rbd.csi.ceph.com"),
)
_BY_SOURCE = {p.source: p for p in IN_TREE_PLUGINS}
_BY_NAME = {p.plugin: p for p in IN_TREE_PLUGINS}


def plugin_for_pv(pv: PersistentVolume) -> InTreePlugin | None:
    return _BY_SOURCE.get(pv.source.kind)


def plugin_for_inline(volume: Volume) -> InTreePlugin | None:
    return next((p for p in IN_TREE_PLUGINS if volume_member(volume, p.source) is not None), None)


def plugin_by_name(name: str) -> InTreePlugin | None:
    return _BY_NAME.get(name)


# --- volume handles -------------------------------------------------------------


def ebs_volume_id(kubernetes_id: str) -> str:
    """KubernetesVolumeIDToEBSVolumeID: aws://<zone>/<id>, aws:///<id> or a bare id."""
    if not kubernetes_id.startswith("aws://"):
        return kubernetes_id
    try:
        path = unquote(urlsplit(kubernetes_id).path)
    except ValueError as exc:
        raise TranslationError(f"Invalid disk name ({kubernetes_id}): {exc}") from None
    aws_id = path.strip("/")
    if not re.fullmatch(_AWS_VOLUME_ID, aws_id):
        raise TranslationError(f"Invalid format for AWS volume ({kubernetes_id})")
    return aws_id


def _go_set(values: set[str]) -> str:
    return "map[" + " ".join(f"{v}:{{}}" for v in sorted(values)) + "]"


def _gce_region(zones: list[str]) -> str:
    regions = set()
    for zone in zones:
        parts = zone.split("-")
        if len(parts) != 3:
            raise TranslationError(
                "zone in unexpected format, expected: {locale}-{region}-{zone}, got: " + zone
            )
        regions.add("-".join(parts[:2]))
    if len(regions) != 1:
        raise TranslationError(f"multiple or no regions gotten from zones, got: {_go_set(regions)}")
    return regions.pop()


def _gce_pv_handle(pv: PersistentVolume) -> str:
    pd_name = str(pv.source.raw.get("pdName", ""))
    label = pv.labels.get(BETA_ZONE) or pv.labels.get(GA_ZONE, "")
    zones = label.split(MULTI_ZONE_DELIMITER)
    if len(zones) == 1 and zones[0]:
        return f"projects/{_UNSPECIFIED}/zones/{zones[0]}/disks/{pd_name}"
    if len(zones) > 1:
        try:
            region = _gce_region(zones)
        except TranslationError as exc:
            raise TranslationError(f"failed to get region from zones: {exc}") from None
        return f"projects/{_UNSPECIFIED}/regions/{region}/disks/{pd_name}"
    return f"projects/{_UNSPECIFIED}/zones/{_UNSPECIFIED}/disks/{pd_name}"


def _azure_disk_uri(member: Mapping[str, Any]) -> str:
    # API defaulting makes an absent kind "Shared", which migration refuses.
    kind = str(member.get("kind") or "Shared")
    if kind.lower() != "managed":
        raise TranslationError(f"kind({kind}) is not supported in csi migration")
    return str(member.get("diskURI", ""))


def _ebs_handle(member: Mapping[str, Any]) -> str:
    try:
        return ebs_volume_id(str(member.get("volumeID", "")))
    except TranslationError as exc:
        message = f"failed to translate Kubernetes ID to EBS Volume ID {exc}"
        raise TranslationError(message) from None


def pv_volume_handle(pv: PersistentVolume, plugin: InTreePlugin) -> str:
    """The CSI volume handle of a migrated in-tree PV (TranslateInTreePVToCSI)."""
    member = pv.source.raw
    if plugin.source == "gcePersistentDisk":
        return _gce_pv_handle(pv)
    if plugin.source == "awsElasticBlockStore":
        return _ebs_handle(member)
    if plugin.source == "azureDisk":
        return _azure_disk_uri(member)
    return pv.source.handle


def inline_volume_handle(volume: Volume, plugin: InTreePlugin) -> str:
    """The CSI volume handle of a migrated inline volume (TranslateInTreeInlineVolumeToCSI)."""
    member = volume_member(volume, plugin.source) or {}
    if plugin.source == "gcePersistentDisk":
        return f"projects/{_UNSPECIFIED}/zones/{_UNSPECIFIED}/disks/{member.get('pdName', '')}"
    if plugin.source == "awsElasticBlockStore":
        return _ebs_handle(member)
    if plugin.source == "azureDisk":
        return _azure_disk_uri(member)
    return str(member.get("volumeID", ""))


# --- topology ---------------------------------------------------------------------


def _has_key(affinity: NodeSelector | None, key: str) -> bool:
    return affinity is not None and any(
        r.key == key for t in affinity.terms for r in t.match_expressions
    )


def _values(affinity: NodeSelector | None, key: str) -> list[str]:
    """getTopologyValues: every value given for ``key`` in any term."""
    if affinity is None:
        return []
    return sorted(
        {v for t in affinity.terms for r in t.match_expressions if r.key == key for v in r.values}
    )


def _topology_labels(pv: PersistentVolume) -> tuple[str, str]:
    """getTopologyLabel: GA or beta zone/region keys, affinity first, then PV labels."""
    affinity = pv.node_affinity
    if _has_key(affinity, GA_ZONE):
        return GA_ZONE, GA_REGION
    if _has_key(affinity, BETA_ZONE):
        return BETA_ZONE, BETA_REGION
    if GA_ZONE in pv.labels:
        return GA_ZONE, GA_REGION
    if BETA_ZONE in pv.labels:
        return BETA_ZONE, BETA_REGION
    return GA_ZONE, GA_REGION


def _rename_key(affinity: NodeSelector, old: str, new: str) -> NodeSelector:
    def rename(r: Requirement) -> Requirement:
        return replace(r, key=new) if r.key == old else r

    return NodeSelector(
        tuple(
            replace(t, match_expressions=tuple(rename(r) for r in t.match_expressions))
            for t in affinity.terms
        )
    )


def _add_topology(affinity: NodeSelector | None, key: str, zones: list[str]) -> NodeSelector | None:
    cleaned = sorted({z.strip() for z in zones if z.strip()})
    if not cleaned:
        return affinity  # the translator ignores this error
    terms = affinity.terms if affinity is not None and affinity.terms else (NodeSelectorTerm(),)
    req = Requirement(key, "In", tuple(cleaned))
    return NodeSelector(
        tuple(replace(t, match_expressions=(*t.match_expressions, req)) for t in terms)
    )


def translate_pv_affinity(pv: PersistentVolume, plugin: InTreePlugin) -> NodeSelector | None:
    """The node affinity of the translated PV (translateTopologyFromInTreeToCSI)."""
    affinity = pv.node_affinity
    if not plugin.topology_key:
        return affinity
    zone_label, region_label = _topology_labels(pv)
    if _values(affinity, zone_label) and affinity is not None:
        affinity = _rename_key(affinity, zone_label, plugin.topology_key)
    elif zone_label in pv.labels:
        zones = pv.labels[zone_label].split(MULTI_ZONE_DELIMITER)
        affinity = _add_topology(affinity, plugin.topology_key, zones)
    if region_label == BETA_REGION and affinity is not None and _values(affinity, BETA_REGION):
        affinity = _rename_key(affinity, BETA_REGION, GA_REGION)
    return affinity


def translate_pv(pv: PersistentVolume, plugin: InTreePlugin) -> tuple[str, NodeSelector | None]:
    """(volume handle, node affinity) of the CSI PV a migrated in-tree PV becomes."""
    return pv_volume_handle(pv, plugin), translate_pv_affinity(pv, plugin)
