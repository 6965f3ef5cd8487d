"""VolumeRestrictions: in-tree disks that cannot be shared on a node, and
ReadWriteOncePod claims already in use anywhere in the cluster
(volumerestrictions/volume_restrictions.go, v1.30)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api.pod import Pod, Volume
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import NodeInfo
from ..framework.podinfo import PodInfo
from ..framework.status import SKIP, Code, Status, as_error
from ..framework.types import PreFilterResult
from ..versions.features import features_of
from .nodevolumelimits.utils import cluster_of, get_pvc, pvc_not_found, volume_member

NAME = "VolumeRestrictions"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME

ERR_REASON_DISK_CONFLICT = "node(s) had no available disk"
ERR_REASON_RWOP_CONFLICT = (
    "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode"
)
ERR_REASON_RWOP_CONFLICT_V2 = (  # v1.34+
    "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode "
    "already in-use by another pod"
)
READ_WRITE_ONCE_POD = "ReadWriteOncePod"
# Sources two pods on one node may not both mount (read-write).
_CONFLICT_SOURCES = ("gcePersistentDisk", "awsElasticBlockStore", "rbd", "iscsi")


class PreFilterState:
    """The pod's ReadWriteOncePod claim names and how many scheduled pods use them."""

    __slots__ = ("conflicting_pvc_ref_count", "rwop_pvcs")

    def __init__(self, rwop_pvcs: frozenset[str], count: int) -> None:
        self.rwop_pvcs = rwop_pvcs
        self.conflicting_pvc_ref_count = count

    def conflicts_of(self, pod: Pod) -> int:
        return sum(
            1 for v in pod.volumes if v.claim_name is not None and v.claim_name in self.rwop_pvcs
        )

    def update_with_pod(self, info: PodInfo, multiplier: int) -> None:
        self.conflicting_pvc_ref_count += multiplier * self.conflicts_of(info.pod)

    def clone(self) -> PreFilterState:
        return PreFilterState(self.rwop_pvcs, self.conflicting_pvc_ref_count)


def _read_only(member: Mapping[str, Any]) -> bool:
    return bool(member.get("readOnly", False))


def _gce_conflict(new: Mapping[str, Any], old: Mapping[str, Any]) -> bool:
    # The same PD may be shared only when every mount is read-only.
    return new.get("pdName") == old.get("pdName") and not (_read_only(new) and _read_only(old))


def _ebs_conflict(new: Mapping[str, Any], old: Mapping[str, Any]) -> bool:
    return new.get("volumeID") == old.get("volumeID")


def _iscsi_conflict(new: Mapping[str, Any], old: Mapping[str, Any]) -> bool:
    return new.get("iqn") == old.get("iqn") and not (_read_only(new) and _read_only(old))


def _rbd_conflict(new: Mapping[str, Any], old: Mapping[str, Any]) -> bool:
    # One image: a shared Ceph monitor, the same pool (API default "rbd") and image name.
    monitors = set(new.get("monitors") or ())
    shared_monitor = any(m in monitors for m in old.get("monitors") or ())
    same_pool = (new.get("pool") or "rbd") == (old.get("pool") or "rbd")
    return (
        shared_monitor
        and same_pool
        and new.get("image") == old.get("image")
        and not (_read_only(new) and _read_only(old))
    )


_CONFLICTS = {
    "gcePersistentDisk": _gce_conflict,
    "awsElasticBlockStore": _ebs_conflict,
    "iscsi": _iscsi_conflict,
    "rbd": _rbd_conflict,
}


def is_volume_conflict(volume: Volume, pod: Pod) -> bool:
    """Whether ``volume`` cannot be mounted next to ``pod``'s volumes."""
    for kind, conflict in _CONFLICTS.items():
        new = volume_member(volume, kind)
        if new is None:
            continue
        for existing in pod.volumes:
            old = volume_member(existing, kind)
            if old is not None and conflict(new, old):
                return True
    return False


def needs_restrictions_check(volume: Volume) -> bool:
    return any(volume_member(volume, kind) is not None for kind in _CONFLICT_SOURCES)


def satisfies_volume_conflicts(pod: Pod, node_info: NodeInfo) -> bool:
    for volume in pod.volumes:
        if not needs_restrictions_check(volume):
            continue
        for existing in node_info.pods:
            if is_volume_conflict(volume, existing.pod):
                return False
    return True


class Plugin:
    name = NAME

    def __init__(self, args: object, handle: Handle) -> None:
        self._handle = handle
        v2 = features_of(handle).rwop_message_v2
        self._rwop_reason = ERR_REASON_RWOP_CONFLICT_V2 if v2 else ERR_REASON_RWOP_CONFLICT

    def pre_filter(
        self, state: CycleState, pod: Pod
    ) -> tuple[PreFilterResult | None, Status | None]:
        needs_check = any(needs_restrictions_check(v) for v in pod.volumes)
        rwop = self._read_write_once_pod_pvcs(pod)
        if isinstance(rwop, Status):
            return None, rwop
        count = sum(1 for name in rwop if self._pvc_used_by_pods(f"{pod.namespace}/{name}"))
        if not needs_check and count == 0:
            return None, SKIP
        state.write(PRE_FILTER_STATE_KEY, PreFilterState(rwop, count))
        return None, None

    def pre_filter_extensions(self) -> Plugin:
        return self

    def add_pod(
        self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        return self._update(state, to_add, 1)

    def remove_pod(
        self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        return self._update(state, to_remove, -1)

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        if not satisfies_volume_conflicts(pod, node_info):
            return Status(Code.UNSCHEDULABLE, ERR_REASON_DISK_CONFLICT)
        s = state.get(PRE_FILTER_STATE_KEY)
        if not isinstance(s, PreFilterState):
            return as_error(f'cannot read "{PRE_FILTER_STATE_KEY}" from cycleState')
        if s.conflicting_pvc_ref_count > 0:
            return Status(Code.UNSCHEDULABLE, self._rwop_reason)
        return None

    def _update(self, state: CycleState, info: PodInfo, multiplier: int) -> Status | None:
        s = state.get(PRE_FILTER_STATE_KEY)
        if not isinstance(s, PreFilterState):
            return as_error(f'cannot read "{PRE_FILTER_STATE_KEY}" from cycleState')
        s.update_with_pod(info, multiplier)
        return None

    def _read_write_once_pod_pvcs(self, pod: Pod) -> frozenset[str] | Status:
        cluster = cluster_of(self._handle)
        names: set[str] = set()
        for volume in pod.volumes:
            if volume.claim_name is None:
                continue
            pvc = get_pvc(cluster, pod.namespace, volume.claim_name)
            if pvc is None:
                return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, pvc_not_found(volume.claim_name))
            if READ_WRITE_ONCE_POD in pvc.access_modes:
                names.add(pvc.name)
        return frozenset(names)

    def _pvc_used_by_pods(self, key: str) -> bool:
        """StorageInfos().IsPVCUsedByPods: some pod in the snapshot mounts the claim."""
        return any(key in ni.pvc_ref_counts for ni in self._handle.snapshot.list())
