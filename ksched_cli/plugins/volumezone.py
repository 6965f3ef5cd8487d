"""VolumeZone: the zone and region labels of a pod's bound PersistentVolumes must
match the node's (volumezone/volume_zone.go, v1.30). No Score in v1.30."""

from __future__ import annotations

from ..api.pod import Pod
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import NodeInfo
from ..framework.status import SKIP, Code, Status
from ..framework.types import PreFilterResult
from ..record import record
from .nodevolumelimits.utils import (
    cluster_of,
    get_pv,
    get_pvc,
    get_storage_class,
    pv_not_found,
    pvc_not_found,
    storage_class_not_found,
)

NAME = "VolumeZone"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME
ERR_REASON_CONFLICT = "node(s) had no available volume zone"

BETA_ZONE = "failure-domain.beta.kubernetes.io/zone"
BETA_REGION = "failure-domain.beta.kubernetes.io/region"
GA_ZONE = "topology.kubernetes.io/zone"
GA_REGION = "topology.kubernetes.io/region"
TOPOLOGY_LABELS = (BETA_ZONE, BETA_REGION, GA_ZONE, GA_REGION)
_GA_OF = {BETA_ZONE: GA_ZONE, BETA_REGION: GA_REGION}
MULTI_ZONE_DELIMITER = "__"


@record(frozen=True, slots=True)
class PVTopology:
    """A bound PV's zone or region label: its key and values."""

    pv_name: str
    key: str
    values: frozenset[str]


class PreFilterState:
    __slots__ = ("topologies",)

    def __init__(self, topologies: list[PVTopology]) -> None:
        self.topologies = topologies

    def clone(self) -> PreFilterState:
        return self  # does not depend on the pods on nodes


def label_zones_to_set(value: str) -> frozenset[str] | None:
    """volumehelpers.LabelZonesToSet: "__"-separated zones; None if one is blank."""
    zones = [z.strip() for z in value.split(MULTI_ZONE_DELIMITER)]
    if any(not z for z in zones):
        return None  # kube-scheduler logs and ignores such a label
    return frozenset(zones)


class Plugin:
    name = NAME

    def __init__(self, args: object, handle: Handle) -> None:
        self._handle = handle

    def pre_filter(
        self, state: CycleState, pod: Pod
    ) -> tuple[PreFilterResult | None, Status | None]:
        topologies = self._pv_topologies(pod)
        if isinstance(topologies, Status):
            return None, topologies
        if not topologies:
            return None, SKIP
        state.write(PRE_FILTER_STATE_KEY, PreFilterState(topologies))
        return None, None

    def pre_filter_extensions(self) -> None:
        return None

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        if not pod.volumes:
            return None
        s = state.get(PRE_FILTER_STATE_KEY)
        topologies = s.topologies if isinstance(s, PreFilterState) else self._pv_topologies(pod)
        if isinstance(topologies, Status):
            return topologies
        labels = node_info.node.labels
        # A node without zone labels fits (single-zone clusters often have none).
        if not any(key in labels for key in TOPOLOGY_LABELS):
            return None
        for topology in topologies:
            value = labels.get(topology.key)
            if value is None:
                # A PV's beta label also matches the node's GA label.
                value = labels.get(_GA_OF.get(topology.key, topology.key))
            if value is None or value not in topology.values:
                return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_CONFLICT)
        return None

    def _pv_topologies(self, pod: Pod) -> list[PVTopology] | Status:
        """The zone/region labels of the pod's bound PVs; unbound WaitForFirstConsumer
        claims are skipped."""
        cluster = cluster_of(self._handle)
        result: list[PVTopology] = []
        for volume in pod.volumes:
            name = volume.claim_name
            if name is None:
                continue
            if not name:
                return _unresolvable("PersistentVolumeClaim had no name")
            pvc = get_pvc(cluster, pod.namespace, name)
            if pvc is None:
                return _unresolvable(pvc_not_found(name))
            if not pvc.volume_name:
                status = self._unbound_claim_status(pvc.class_name)
                if status is not None:
                    return status
                continue
            pv = get_pv(cluster, pvc.volume_name)
            if pv is None:
                return _unresolvable(pv_not_found(pvc.volume_name))
            for key in TOPOLOGY_LABELS:
                value = pv.labels.get(key)
                zones = label_zones_to_set(value) if value is not None else None
                if zones is not None:
                    result.append(PVTopology(pv.name, key, zones))
        return result

    def _unbound_claim_status(self, class_name: str) -> Status | None:
        """None when the claim waits for its first consumer (nothing to check yet)."""
        if not class_name:
            return _unresolvable("PersistentVolumeClaim had no pv name and storageClass name")
        sc = get_storage_class(cluster_of(self._handle), class_name)
        if sc is None:
            return _unresolvable(storage_class_not_found(class_name))
        from ..api.storage import BINDING_WAIT  # loaded with the claim's StorageClass

        if sc.volume_binding_mode == BINDING_WAIT:
            return None
        return _unresolvable("PersistentVolume had no name")


def _unresolvable(message: str) -> Status:
    return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, message)
