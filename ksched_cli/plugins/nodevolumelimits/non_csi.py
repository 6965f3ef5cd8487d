"""The in-tree attach limits (EBS, GCE PD, Azure Disk, Cinder) shared by the
deprecated per-cloud plugins (nodevolumelimits/non_csi.go, v1.30).

A plugin stands down on nodes whose CSINode lists its in-tree plugin as migrated;
NodeVolumeLimits counts those volumes under the CSI driver instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...api.node import Node
from ...api.pod import Pod, Volume
from ...framework.cycle_state import CycleState
from ...framework.interface import Handle
from ...framework.nodeinfo import NodeInfo
from ...framework.status import SKIP, Code, Status
from ...framework.types import PreFilterResult
from ...record import record
from ...versions.features import features_of
from .csi import UNBOUND_ID_PREFIX
from .utils import (
    AWS_EBS_PLUGIN,
    AZURE_DISK_PLUGIN,
    CINDER_PLUGIN,
    ERR_REASON_MAX_VOLUME_COUNT,
    GCE_PD_PLUGIN,
    claim_for_limits,
    claim_of,
    cluster_of,
    get_csi_node,
    get_pv,
    get_storage_class,
    is_csi_migration_on,
    node_volume_limits,
    volume_member,
)

if TYPE_CHECKING:
    from ...api.storage import PersistentVolume, PersistentVolumeClaim

DEFAULT_MAX_GCE_PD_VOLUMES = 16
DEFAULT_MAX_AZURE_DISK_VOLUMES = 16
DEFAULT_MAX_CINDER_VOLUMES = 256
DEFAULT_MAX_EBS_VOLUMES = 39
DEFAULT_MAX_EBS_NITRO_VOLUMES = 25
# Unanchored alternatives, as Go's regexp.MatchString applies it; compiled on first use
# (re caches it): only pods with EBS volumes need it.
EBS_NITRO_LIMIT_REGEX = r"^[cmr]5.*|t3|z1d"
INSTANCE_TYPE_LABELS = ("beta.kubernetes.io/instance-type", "node.kubernetes.io/instance-type")


def max_ebs_volumes(node: Node) -> int:
    # The first instance-type label in the node's label order (Go walks a map).
    instance_type = next((v for k, v in node.labels.items() if k in INSTANCE_TYPE_LABELS), "")
    if re.search(EBS_NITRO_LIMIT_REGEX, instance_type):
        return DEFAULT_MAX_EBS_NITRO_VOLUMES
    return DEFAULT_MAX_EBS_VOLUMES


@record(frozen=True, slots=True)
class VolumeFilter:
    """Which volumes one plugin counts, and its limit."""

    source: str  # the pod / PV volume source member
    id_field: str  # the member's field naming the disk
    provisioner: str  # the in-tree plugin (and StorageClass provisioner) name
    limit_key: str  # node allocatable resource overriding the default limit
    default_max: Callable[[Node], int]

    def volume_id(self, vol: Volume) -> str | None:
        member = volume_member(vol, self.source)
        return None if member is None else str(member.get(self.id_field, ""))

    def pv_id(self, pv: PersistentVolume) -> str | None:
        if pv.source.kind != self.source:
            return None
        return str(pv.source.raw.get(self.id_field, ""))


EBS = VolumeFilter(
    "awsElasticBlockStore",
    "volumeID",
    AWS_EBS_PLUGIN,
    "attachable-volumes-aws-ebs",
    max_ebs_volumes,
)
GCE_PD = VolumeFilter(
    "gcePersistentDisk",
    "pdName",
    GCE_PD_PLUGIN,
    "attachable-volumes-gce-pd",
    lambda _: DEFAULT_MAX_GCE_PD_VOLUMES,
)
AZURE_DISK = VolumeFilter(
    "azureDisk",
    "diskName",
    AZURE_DISK_PLUGIN,
    "attachable-volumes-azure-disk",
    lambda _: DEFAULT_MAX_AZURE_DISK_VOLUMES,
)
CINDER = VolumeFilter(
    "cinder",
    "volumeID",
    CINDER_PLUGIN,
    "attachable-volumes-cinder",
    lambda _: DEFAULT_MAX_CINDER_VOLUMES,
)


class NonCSILimits:
    name = ""

    def __init__(self, volume_filter: VolumeFilter, handle: Handle) -> None:
        self._filter = volume_filter
        self._handle = handle

    def pre_filter(
        self, state: CycleState, pod: Pod
    ) -> tuple[PreFilterResult | None, Status | None]:
        for vol in pod.volumes:
            if self._filter.volume_id(vol) is not None or claim_of(pod, vol) is not None:
                return None, None
        return None, SKIP

    def pre_filter_extensions(self) -> None:
        return None

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        if not pod.volumes:
            return None
        new_volumes: set[str] = set()
        status = self._filter_volumes(pod, True, new_volumes)
        if status is not None or not new_volumes:
            return status
        node = node_info.node
        csi_node = get_csi_node(cluster_of(self._handle), node.name)
        if is_csi_migration_on(csi_node, self._filter.provisioner, features_of(self._handle)):
            return None  # NodeVolumeLimits counts these volumes on this node
        existing: set[str] = set()
        for info in node_info.pods:
            status = self._filter_volumes(info.pod, False, existing)
            if status is not None:
                return status
        max_volumes = node_volume_limits(node_info).get(
            self._filter.limit_key, self._filter.default_max(node)
        )
        if len(existing) + len(new_volumes - existing) > max_volumes:
            return Status(Code.UNSCHEDULABLE, ERR_REASON_MAX_VOLUME_COUNT)
        return None

    def _filter_volumes(self, pod: Pod, new_pod: bool, ids: set[str]) -> Status | None:
        """Add the ids of the pod's volumes this plugin counts; a status on errors."""
        cluster = cluster_of(self._handle)
        for vol in pod.volumes:
            volume_id = self._filter.volume_id(vol)
            if volume_id is not None:
                ids.add(volume_id)
                continue
            pvc, status = claim_for_limits(cluster, pod, vol, new_pod)
            if status is not None:
                return status
            if pvc is not None:
                self._add_claim_volume(pod, pvc, ids)

        return None

    def _add_claim_volume(self, pod: Pod, pvc: PersistentVolumeClaim, ids: set[str]) -> None:
        # Until the claim is bound, namespace/name stands in for the volume id.
        placeholder = f"{UNBOUND_ID_PREFIX}-{pod.namespace}/{pvc.name}"
        pv = get_pv(cluster_of(self._handle), pvc.volume_name) if pvc.volume_name else None
        if pv is None:
            # Unbound, or bound to a PV that is gone: the pod may still use the old volume.
            if self._match_provisioner(pvc):
                ids.add(placeholder)
            return
        pv_id = self._filter.pv_id(pv)
        if pv_id is not None:
            ids.add(pv_id)

    def _match_provisioner(self, pvc: PersistentVolumeClaim) -> bool:
        class_name = pvc.spec_class  # the field only, not the beta annotation
        if class_name is None:
            return False
        sc = get_storage_class(cluster_of(self._handle), class_name)
        return sc is not None and sc.provisioner == self._filter.provisioner
