"""Queueing hints for storage objects (SchedulerQueueingHints, v1.32+).

A created or changed PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode,
CSIDriver, CSIStorageCapacity or a deleted VolumeAttachment moves an unschedulable pod
only where a plugin that rejected it registered the event and its hint says Queue. The
registrations and hints are v1.32.5's ``EventsToRegister`` of VolumeBinding, VolumeZone,
VolumeRestrictions and NodeVolumeLimits with hints on (unchanged in v1.35.7 except
NodeVolumeLimits, switch ``csi_limits_hints_v2``). Unlike the v1.30 handler, a
StorageClass of any binding mode is an event: VolumeZone's hint does the filtering.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..api.pod import Pod
from ..api.storage import BINDING_WAIT, CSINode, PersistentVolume
from ..plugins.nodevolumelimits.csi_translation import plugin_for_inline
from ..plugins.nodevolumelimits.utils import MIGRATED_PLUGINS_ANNOTATION, claim_of
from ..plugins.volumezone import TOPOLOGY_LABELS, label_zones_to_set
from ..record import record
from ..versions.features import Features
from .actions import (
    ADD,
    CSI_CAPACITY,
    CSI_DRIVER,
    CSI_NODE,
    DELETE,
    PV,
    PVC,
    STORAGE_CLASS,
    UPDATE,
    VOLUME_ATTACHMENT,
)


@record(frozen=True)
class StorageEvent:
    """A storage object added (``old`` None), updated, or deleted (``new`` None)."""

    resource: str  # actions.PV, PVC, STORAGE_CLASS, CSI_NODE, CSI_DRIVER, ...
    action: int  # ADD, UPDATE or DELETE
    old: Any
    new: Any
    label: str


# The fields of objects ksched does not load that the hints read.
@record(frozen=True)
class CSIDriver:
    name: str
    storage_capacity: bool | None = None  # spec.storageCapacity


@record(frozen=True)
class CSIStorageCapacity:
    capacity: int | None = None  # bytes
    maximum_volume_size: int | None = None


@record(frozen=True)
class VolumeAttachment:
    attacher: str  # spec.attacher: the CSI driver


StorageHint = Callable[[Pod, StorageEvent], bool]


def _claim_names(pod: Pod, ephemeral: bool = True) -> Iterator[str]:
    for volume in pod.volumes:
        found = claim_of(pod, volume)
        if found is not None and (ephemeral or not found[1]):
            yield found[0]


def _claim_of_pod(pod: Pod, event: StorageEvent, ephemeral: bool = True) -> bool:
    pvc = event.new
    return pvc.namespace == pod.namespace and pvc.name in _claim_names(pod, ephemeral)


# --- VolumeBinding -------------------------------------------------------------------
def _binding_claim(pod: Pod, event: StorageEvent) -> bool:
    """isSchedulableAfterPersistentVolumeClaimChange: the pod's own claim (or ephemeral)."""
    return _claim_of_pod(pod, event)


def _binding_class(_pod: Pod, event: StorageEvent) -> bool:
    """isSchedulableAfterStorageClassChange: a new class, or changed allowedTopologies."""
    return event.old is None or event.old.allowed_topologies != event.new.allowed_topologies


def _binding_csi_node(_pod: Pod, event: StorageEvent) -> bool:
    """isSchedulableAfterCSINodeChange: created, or its migrated-plugins annotation moved."""
    if event.old is None:
        return True
    old: CSINode = event.old
    new: CSINode = event.new
    key = MIGRATED_PLUGINS_ANNOTATION
    return old.meta.annotations.get(key, "") != new.meta.annotations.get(key, "")


def _volume_limit(cap: CSIStorageCapacity) -> int | None:
    return cap.maximum_volume_size if cap.maximum_volume_size is not None else cap.capacity


def _binding_capacity(_pod: Pod, event: StorageEvent) -> bool:
    """isSchedulableAfterCSIStorageCapacityChange: created, or its volume limit grew."""
    if event.old is None:
        return True
    before, after = _volume_limit(event.old), _volume_limit(event.new)
    return after is not None and (before is None or after > before)


def _binding_csi_driver(pod: Pod, event: StorageEvent) -> bool:
    """isSchedulableAfterCSIDriverChange: storage capacity tracking turned off for a
    driver of the pod's inline CSI volumes."""
    old: CSIDriver = event.old
    new: CSIDriver = event.new
    for volume in pod.volumes:
        csi = volume.source.get("csi")
        if not isinstance(csi, dict) or csi.get("driver") != new.name:
            continue
        if old.storage_capacity is True and new.storage_capacity is not True:
            return True
    return False


# --- VolumeZone ----------------------------------------------------------------------
def _zone_claim(pod: Pod, event: StorageEvent) -> bool:
    """isSchedulableAfterPersistentVolumeClaimChange: a claim volume of the pod (not an
    ephemeral one)."""
    return _claim_of_pod(pod, event, ephemeral=False)


def _zone_class(_pod: Pod, event: StorageEvent) -> bool:
    """isSchedulableAfterStorageClassAdded: only a WaitForFirstConsumer class."""
    return bool(event.new.volume_binding_mode == BINDING_WAIT)


def _pv_topologies(pv: PersistentVolume) -> list[tuple[str, frozenset[str]]]:
    found = []
    for key in TOPOLOGY_LABELS:
        value = pv.labels.get(key)
        zones = label_zones_to_set(value) if value is not None else None
        if zones is not None:
            found.append((key, zones))
    return found


def _zone_volume(_pod: Pod, event: StorageEvent) -> bool:
    """isSchedulableAfterPersistentVolumeChange: created, or its zone labels changed."""
    return event.old is None or _pv_topologies(event.old) != _pv_topologies(event.new)


# --- VolumeRestrictions --------------------------------------------------------------
def _restrictions_claim(pod: Pod, event: StorageEvent) -> bool:
    """isSchedulableAfterPersistentVolumeClaimAdded: a claim volume of the pod."""
    return _claim_of_pod(pod, event, ephemeral=False)


# --- NodeVolumeLimits (CSI) ----------------------------------------------------------
def _limits_claim(pod: Pod, event: StorageEvent) -> bool:
    """isSchedulableAfterPVCAdded: the pod's claim or ephemeral claim."""
    return _claim_of_pod(pod, event)


def _limits_attachment(pod: Pod, event: StorageEvent) -> bool:
    """isSchedulableAfterVolumeAttachmentDeleted (v1.33): the pod has a claim volume, or an
    inline volume migrated to the attachment's driver."""
    attacher = event.old.attacher
    for volume in pod.volumes:
        if volume.claim_name is not None:
            return True
        plugin = plugin_for_inline(volume)
        if plugin is not None and plugin.driver == attacher:
            return True
    return False


def _limits_csi_node(_pod: Pod, event: StorageEvent) -> bool:
    """isSchedulableAfterCSINodeUpdated (v1.33): some driver's volume limit grew."""
    before = {d.name: d.allocatable or 0 for d in event.old.drivers}
    return any((d.allocatable or 0) > before.get(d.name, 0) for d in event.new.drivers)


Registration = tuple[str, int, StorageHint | None]
_UPDATE_OR_ADD = ADD | UPDATE

# Plugin -> its storage registrations with hints on (resource, actions, hint; None
# queues always), v1.32.5.
STORAGE_EVENTS: dict[str, tuple[Registration, ...]] = {
    "VolumeBinding": (
        (STORAGE_CLASS, _UPDATE_OR_ADD, _binding_class),
        (PVC, _UPDATE_OR_ADD, _binding_claim),
        (PV, _UPDATE_OR_ADD, None),
        (CSI_NODE, _UPDATE_OR_ADD, _binding_csi_node),
        (CSI_DRIVER, UPDATE, _binding_csi_driver),
        (CSI_CAPACITY, _UPDATE_OR_ADD, _binding_capacity),
    ),
    "VolumeZone": (
        (STORAGE_CLASS, ADD, _zone_class),
        (PVC, _UPDATE_OR_ADD, _zone_claim),
        (PV, _UPDATE_OR_ADD, _zone_volume),
    ),
    "VolumeRestrictions": ((PVC, ADD, _restrictions_claim),),
    "NodeVolumeLimits": (
        (CSI_NODE, ADD, None),
        (PVC, ADD, _limits_claim),
        (VOLUME_ATTACHMENT, DELETE, None),
    ),
}
# v1.33: CSINode updates are hinted, and VolumeAttachment deletions get a hint.
_LIMITS_V2: tuple[Registration, ...] = (
    (CSI_NODE, ADD, None),
    (CSI_NODE, UPDATE, _limits_csi_node),
    (PVC, ADD, _limits_claim),
    (VOLUME_ATTACHMENT, DELETE, _limits_attachment),
)


def registrations(
    name: str, features: Features, known: Callable[[str], bool]
) -> tuple[Registration, ...] | None:
    """The storage events ``name`` registers; None when it has no EnqueueExtensions
    (``known`` says which plugins have them), so every event queues it."""
    if name == "NodeVolumeLimits" and features.csi_limits_hints_v2:
        return _LIMITS_V2
    found = STORAGE_EVENTS.get(name)
    if found is not None:
        return found
    return () if known(name) else None


def _matching(
    registered: tuple[Registration, ...], event: StorageEvent
) -> list[StorageHint | None]:
    return [
        hint
        for resource, actions, hint in registered
        if resource == event.resource and actions & event.action
    ]


def plugin_says_queue(
    name: str, pod: Pod, event: StorageEvent, features: Features, known: Callable[[str], bool]
) -> bool | None:
    """True/False from the hints of ``name`` for ``event``; None when none matches."""
    registered = registrations(name, features, known)
    if registered is None:
        return True
    matched = _matching(registered, event)
    if not matched:
        return None
    return any(hint is None or hint(pod, event) for hint in matched)


def interested(
    name: str, event: StorageEvent, features: Features, known: Callable[[str], bool]
) -> bool:
    registered = registrations(name, features, known)
    return registered is None or bool(_matching(registered, event))
