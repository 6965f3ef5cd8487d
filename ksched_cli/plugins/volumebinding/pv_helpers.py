"""PV/PVC matching and binding rules the scheduler shares with the PV controller
(component-helpers/storage/volume, v1.30; VolumeAttributesClass from v1.34)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from ...api.selectors import NodeSelector
from ...api.storage import (
    ANN_BIND_COMPLETED,
    ANN_BOUND_BY_CONTROLLER,
    ANN_SELECTED_NODE,
    ClaimRef,
    PersistentVolume,
    PersistentVolumeClaim,
)
from ..helpers.nodeaffinity import CompiledNodeSelector

NOT_SUPPORTED_PROVISIONER = "kubernetes.io/no-provisioner"
HOSTNAME_LABEL = "kubernetes.io/hostname"
VOLUME_AVAILABLE = "Available"
PHASE_BOUND = "Bound"


@lru_cache(maxsize=4096)
def _compiled(affinity: NodeSelector) -> CompiledNodeSelector:
    return CompiledNodeSelector(affinity)


def check_node_affinity(affinity: NodeSelector | None, node_labels: Mapping[str, str]) -> bool:
    """CheckNodeAffinity: the PV's required node affinity against the node's labels.

    The node is matched by its labels alone (no name), so a ``metadata.name`` field
    requirement sees an empty name, as kube-scheduler's check does.
    """
    if affinity is None:
        return True
    return any(term.matches(node_labels, "") for term in _compiled(affinity).terms)


def local_pv_node_names(pv: PersistentVolume) -> set[str]:
    """GetLocalPersistentVolumeNodeNames: hostnames the PV's terms pin it to (union of
    terms; a term without a hostname In requirement adds nothing)."""
    result: set[str] = set()
    if pv.node_affinity is None:
        return result
    for term in pv.node_affinity.terms:
        nodes: set[str] | None = None
        for req in term.match_expressions:
            if req.key == HOSTNAME_LABEL and req.operator == "In":
                nodes = set(req.values) if nodes is None else nodes & set(req.values)
        result |= nodes or set()
    return result


def is_volume_bound_to_claim(pv: PersistentVolume, claim: PersistentVolumeClaim) -> bool:
    ref = pv.claim_ref
    if ref is None or ref.name != claim.name or ref.namespace != claim.namespace:
        return False
    return not ref.uid or ref.uid == claim.meta.uid


def is_pvc_fully_bound(pvc: PersistentVolumeClaim) -> bool:
    return bool(pvc.volume_name) and ANN_BIND_COMPLETED in pvc.annotations


def check_access_modes(claim: PersistentVolumeClaim, pv: PersistentVolume) -> bool:
    return all(mode in pv.access_modes for mode in claim.access_modes)


def find_matching_volume(
    claim: PersistentVolumeClaim,
    volumes: Sequence[PersistentVolume],
    node_labels: Mapping[str, str],
    excluded: set[str],
    attributes_class: bool = False,
) -> PersistentVolume | None:
    """FindMatchingVolume on the scheduler path: the PV pre-bound to the claim, or the
    smallest available PV that fits it on the node. ``volumes`` come sorted by name,
    so among equally small PVs the lowest name wins (kube-scheduler: map order).

    ``attributes_class`` (v1.34+): even a pre-bound PV must have the claim's
    volumeAttributesClassName. Releases without the gate never see the field (their API
    server drops it), so their gate-off checks have nothing to act on.
    """
    smallest: PersistentVolume | None = None
    for pv in volumes:
        if pv.name in excluded:
            continue
        if pv.claim_ref is not None and not is_volume_bound_to_claim(pv, claim):
            continue
        if pv.capacity < claim.requested or pv.volume_mode != claim.volume_mode:
            continue
        if attributes_class and not same_attributes_class(claim, pv):
            continue
        if pv.meta.deletion_timestamp is not None:
            continue
        affinity_ok = check_node_affinity(pv.node_affinity, node_labels)
        if is_volume_bound_to_claim(pv, claim):
            # A pre-bound PV decides alone: it fits this node or nothing does.
            return pv if affinity_ok else None
        if not _available_match(claim, pv) or not affinity_ok:
            continue
        if not check_access_modes(claim, pv):
            continue
        if smallest is None or pv.capacity < smallest.capacity:
            smallest = pv
    return smallest


def same_attributes_class(claim: PersistentVolumeClaim, pv: PersistentVolume) -> bool:
    """Absent and "" are the same class (none)."""
    return (claim.attributes_class or "") == (pv.attributes_class or "")


def _available_match(claim: PersistentVolumeClaim, pv: PersistentVolume) -> bool:
    if pv.phase != VOLUME_AVAILABLE:
        return False
    if claim.selector is not None and not claim.selector.matches(pv.labels):
        return False
    return pv.storage_class_name == claim.class_name


# --- object updates -------------------------------------------------------------


def copy_pv(pv: PersistentVolume, **changes: object) -> PersistentVolume:
    """A new PV object (informer objects are never changed in place)."""
    meta = replace(pv.meta, annotations=dict(pv.meta.annotations), labels=dict(pv.meta.labels))
    return replace(pv, meta=meta, **changes)  # type: ignore[arg-type]


def copy_pvc(pvc: PersistentVolumeClaim, **changes: object) -> PersistentVolumeClaim:
    meta = replace(pvc.meta, annotations=dict(pvc.meta.annotations), labels=dict(pvc.meta.labels))
    return replace(pvc, meta=meta, **changes)  # type: ignore[arg-type]


def bind_volume_to_claim(
    pv: PersistentVolume, claim: PersistentVolumeClaim
) -> tuple[PersistentVolume, bool]:
    """GetBindVolumeToClaim: a copy of the PV bound to the claim, and whether it changed."""
    set_bound_by_controller = not is_volume_bound_to_claim(pv, claim)
    clone = copy_pv(pv)
    dirty = False
    ref = ClaimRef(claim.namespace, claim.name, claim.meta.uid)
    if pv.claim_ref != ref:
        clone.claim_ref = ref
        dirty = True
    if set_bound_by_controller and ANN_BOUND_BY_CONTROLLER not in clone.meta.annotations:
        clone.meta.annotations[ANN_BOUND_BY_CONTROLLER] = "yes"
        dirty = True
    return clone, dirty


def with_selected_node(claim: PersistentVolumeClaim, node_name: str) -> PersistentVolumeClaim:
    clone = copy_pvc(claim)
    clone.meta.annotations[ANN_SELECTED_NODE] = node_name
    return clone


def completed_binding(
    pv: PersistentVolume, claim: PersistentVolumeClaim
) -> tuple[PersistentVolume, PersistentVolumeClaim]:
    """The PV and claim once the PV controller has finished a static binding."""
    bound_pv = copy_pv(pv, phase=PHASE_BOUND)
    bound_claim = copy_pvc(claim, volume_name=pv.name, phase=PHASE_BOUND)
    bound_claim.meta.annotations[ANN_BIND_COMPLETED] = "yes"
    if claim.volume_name != pv.name:  # the controller, not the user, bound the claim
        bound_claim.meta.annotations[ANN_BOUND_BY_CONTROLLER] = "yes"
    return bound_pv, bound_claim
