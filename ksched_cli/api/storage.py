"""PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode: what volume plugins read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from ..errors import ObjectError
from ..record import record
from .fields import Raw, integer, mapping, objects, string, string_map, strings
from .meta import ObjectMeta, parse_meta
from .quantity import QuantityError, ceil_int, parse_quantity
from .selectors import (
    LabelSelector,
    NodeSelector,
    Requirement,
    parse_label_selector,
    parse_node_selector,
)

ACCESS_MODES = ("ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod")
VOLUME_MODES = ("Filesystem", "Block")
BINDING_IMMEDIATE = "Immediate"
BINDING_WAIT = "WaitForFirstConsumer"

# Annotations the PV controller and the scheduler's volume binder write.
ANN_SELECTED_NODE = "volume.kubernetes.io/selected-node"
ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed"
ANN_BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller"
ANN_STORAGE_PROVISIONER = "volume.kubernetes.io/storage-provisioner"
ANN_BETA_STORAGE_PROVISIONER = "volume.beta.kubernetes.io/storage-provisioner"
# storagehelpers.GetPersistentVolume(Claim)Class: the beta annotation wins over the field.
ANN_BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class"
ANN_DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class"
ANN_BETA_DEFAULT_CLASS = "storageclass.beta.kubernetes.io/is-default-class"
# PV and PVC spec field of the VolumeAttributesClass gate (GA and on from v1.34).
ATTRIBUTES_CLASS_FIELD = "volumeAttributesClassName"

# PersistentVolumeSource members, and the field naming each one's unique volume.
VOLUME_SOURCES: Mapping[str, str] = {
    "csi": "volumeHandle",
    "awsElasticBlockStore": "volumeID",
    "gcePersistentDisk": "pdName",
    "azureDisk": "diskName",
    "cinder": "volumeID",
    "azureFile": "shareName",
    "hostPath": "path",
    "local": "path",
    "nfs": "path",
    "iscsi": "iqn",
    "rbd": "image",
    "fc": "lun",
    "cephfs": "path",
    "flexVolume": "driver",
    "flocker": "datasetName",
    "glusterfs": "path",
    "portworxVolume": "volumeID",
    "quobyte": "volume",
    "scaleIO": "volumeName",
    "storageos": "volumeName",
    "vsphereVolume": "volumePath",
    "photonPersistentDisk": "pdID",
}


@record(frozen=True, slots=True)
class VolumeSource:
    """Which PersistentVolumeSource member is set, its identifying value, and the raw member."""

    kind: str = ""
    driver: str = ""  # csi.driver ("" for in-tree sources)
    # The member's VOLUME_SOURCES field: csi.volumeHandle, awsElasticBlockStore.volumeID, ...
    handle: str = ""
    raw: Mapping[str, Any] = field(default_factory=dict)


@record(frozen=True, slots=True)
class ClaimRef:
    namespace: str
    name: str
    uid: str = ""

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@record(slots=True, eq=False)
class PersistentVolume:
    meta: ObjectMeta
    capacity: int  # spec.capacity.storage in bytes (Quantity.Value())
    access_modes: tuple[str, ...]
    storage_class_name: str
    claim_ref: ClaimRef | None
    node_affinity: NodeSelector | None  # spec.nodeAffinity.required
    source: VolumeSource
    volume_mode: str = "Filesystem"
    reclaim_policy: str = "Retain"
    phase: str = "Pending"
    # spec.volumeAttributesClassName; None: absent (or dropped by a release without the gate).
    attributes_class: str | None = None

    @property
    def name(self) -> str:
        return self.meta.name

    @property
    def labels(self) -> dict[str, str]:
        return self.meta.labels


@record(slots=True, eq=False)
class PersistentVolumeClaim:
    meta: ObjectMeta
    # None: the field is absent (the default class may apply); "": explicitly no class.
    storage_class_name: str | None
    volume_name: str
    access_modes: tuple[str, ...]
    requested: int  # spec.resources.requests.storage in bytes
    selector: LabelSelector | None
    volume_mode: str = "Filesystem"
    phase: str = "Pending"
    # spec.storageClassName as written, when the beta annotation also names a class.
    spec_storage_class_name: str | None = None
    # spec.volumeAttributesClassName; None: absent (or dropped by a release without the gate).
    attributes_class: str | None = None

    @property
    def name(self) -> str:
        return self.meta.name

    @property
    def spec_class(self) -> str | None:
        """spec.storageClassName alone (after admission), ignoring the beta annotation."""
        if ANN_BETA_STORAGE_CLASS in self.meta.annotations:
            return self.spec_storage_class_name
        return self.storage_class_name

    @property
    def namespace(self) -> str:
        return self.meta.namespace

    @property
    def key(self) -> str:
        return f"{self.meta.namespace}/{self.meta.name}"

    @property
    def annotations(self) -> dict[str, str]:
        return self.meta.annotations

    @property
    def class_name(self) -> str:
        """storagehelpers.GetPersistentVolumeClaimClass: "" when no class is set."""
        return self.storage_class_name or ""

    @property
    def selected_node(self) -> str:
        return self.meta.annotations.get(ANN_SELECTED_NODE, "")

    @property
    def bind_completed(self) -> bool:
        return ANN_BIND_COMPLETED in self.meta.annotations


@record(frozen=True, slots=True)
class TopologySelectorTerm:
    """One allowedTopologies term; its requirements (operator In) are ANDed."""

    requirements: tuple[Requirement, ...] = ()


def match_topology_terms(
    terms: tuple[TopologySelectorTerm, ...], labels: Mapping[str, str]
) -> bool:
    """v1helper.MatchTopologySelectorTerms: no terms match all; an empty term matches nothing."""
    if not terms:
        return True
    return any(t.requirements and all(r.matches(labels) for r in t.requirements) for t in terms)


@record(slots=True, eq=False)
class StorageClass:
    meta: ObjectMeta
    provisioner: str
    volume_binding_mode: str = BINDING_IMMEDIATE
    allowed_topologies: tuple[TopologySelectorTerm, ...] = ()
    parameters: dict[str, str] = field(default_factory=dict)
    reclaim_policy: str = "Delete"

    @property
    def name(self) -> str:
        return self.meta.name

    @property
    def is_default(self) -> bool:
        ann = self.meta.annotations
        return ann.get(ANN_DEFAULT_CLASS) == "true" or ann.get(ANN_BETA_DEFAULT_CLASS) == "true"


@record(frozen=True, slots=True)
class CSINodeDriver:
    name: str
    node_id: str
    allocatable: int | None  # allocatable.count; None: no limit reported
    topology_keys: tuple[str, ...] = ()


@record(slots=True, eq=False)
class CSINode:
    meta: ObjectMeta
    drivers: tuple[CSINodeDriver, ...] = ()

    @property
    def name(self) -> str:
        return self.meta.name

    def driver(self, name: str) -> CSINodeDriver | None:
        return next((d for d in self.drivers if d.name == name), None)


def _storage_bytes(raw: Raw, key: str, path: str, required: bool) -> int:
    values = mapping(raw, key, path)
    value = values.get("storage")
    if value is None:
        if required:
            raise ObjectError(f"{path}.{key}.storage", "Required value")
        return 0
    try:
        return ceil_int(parse_quantity(value))
    except (QuantityError, TypeError) as exc:
        raise ObjectError(f"{path}.{key}.storage", str(exc)) from None


def _enum(raw: Raw, key: str, path: str, allowed: tuple[str, ...], default: str) -> str:
    value = string(raw, key, path) or default
    if value not in allowed:
        raise _unsupported(f"{path}.{key}", value, allowed)
    return value


def _unsupported(path: str, value: str, allowed: tuple[str, ...]) -> ObjectError:
    supported = ", ".join(f'"{a}"' for a in allowed)
    return ObjectError(path, f'Unsupported value: "{value}": supported values: {supported}')


def _access_modes(raw: Raw, path: str) -> tuple[str, ...]:
    modes = strings(raw, "accessModes", path)
    for i, mode in enumerate(modes):
        if mode not in ACCESS_MODES:
            raise _unsupported(f"{path}.accessModes[{i}]", mode, ACCESS_MODES)
    return tuple(modes)


def _optional_string(spec: Raw, key: str) -> str | None:
    """A string field that may be absent (None) or set, even to ""."""
    return None if spec.get(key) is None else string(spec, key, "spec")


def _volume_source(spec: Raw) -> VolumeSource:
    for kind, id_field in VOLUME_SOURCES.items():
        if spec.get(kind) is None:
            continue
        member = mapping(spec, kind, "spec")
        handle = member.get(id_field, "")
        driver = string(member, "driver", f"spec.{kind}") if kind == "csi" else ""
        return VolumeSource(kind, driver, str(handle), dict(member))
    return VolumeSource()


def _claim_ref(spec: Raw) -> ClaimRef | None:
    if spec.get("claimRef") is None:
        return None
    ref, path = mapping(spec, "claimRef", "spec"), "spec.claimRef"
    return ClaimRef(
        string(ref, "namespace", path), string(ref, "name", path), string(ref, "uid", path)
    )


def parse_persistent_volume(raw: Raw) -> PersistentVolume:
    meta = parse_meta(raw, namespaced=False)
    spec = mapping(raw, "spec", "")
    affinity = mapping(spec, "nodeAffinity", "spec")
    required = affinity.get("required")
    return PersistentVolume(
        meta=meta,
        capacity=_storage_bytes(spec, "capacity", "spec", required=True),
        access_modes=_access_modes(spec, "spec"),
        storage_class_name=meta.annotations.get(ANN_BETA_STORAGE_CLASS)
        or string(spec, "storageClassName", "spec"),
        claim_ref=_claim_ref(spec),
        node_affinity=parse_node_selector(
            mapping(affinity, "required", "spec.nodeAffinity") if required is not None else None,
            "spec.nodeAffinity.required",
        ),
        source=_volume_source(spec),
        volume_mode=_enum(spec, "volumeMode", "spec", VOLUME_MODES, "Filesystem"),
        reclaim_policy=string(spec, "persistentVolumeReclaimPolicy", "spec") or "Retain",
        phase=string(mapping(raw, "status", ""), "phase", "status") or "Pending",
        attributes_class=_optional_string(spec, ATTRIBUTES_CLASS_FIELD),
    )


def parse_persistent_volume_claim(raw: Raw) -> PersistentVolumeClaim:
    meta = parse_meta(raw)
    spec = mapping(raw, "spec", "")
    class_name: str | None = meta.annotations.get(ANN_BETA_STORAGE_CLASS)
    spec_class: str | None = None
    if spec.get("storageClassName") is not None:
        spec_class = string(spec, "storageClassName", "spec")
    if class_name is None:
        class_name = spec_class
    selector = spec.get("selector")
    return PersistentVolumeClaim(
        meta=meta,
        storage_class_name=class_name,
        volume_name=string(spec, "volumeName", "spec"),
        access_modes=_access_modes(spec, "spec"),
        requested=_storage_bytes(mapping(spec, "resources", "spec"), "requests", "spec.resources",
                                 required=True),
        selector=parse_label_selector(selector, "spec.selector") if selector is not None else None,
        volume_mode=_enum(spec, "volumeMode", "spec", VOLUME_MODES, "Filesystem"),
        phase=string(mapping(raw, "status", ""), "phase", "status") or "Pending",
        spec_storage_class_name=spec_class,
        attributes_class=_optional_string(spec, ATTRIBUTES_CLASS_FIELD),
    )


def _topology_term(raw: Raw, path: str) -> TopologySelectorTerm:
    reqs = []
    for p, expr in objects(raw, "matchLabelExpressions", path):
        values = tuple(strings(expr, "values", p))
        if not values:
            raise ObjectError(f"{p}.values", "Required value: must specify as least one value")
        reqs.append(Requirement(string(expr, "key", p), "In", values))
    return TopologySelectorTerm(tuple(reqs))


def parse_storage_class(raw: Raw) -> StorageClass:
    meta = parse_meta(raw, namespaced=False)
    provisioner = string(raw, "provisioner", "")
    if not provisioner:
        raise ObjectError("provisioner", "Required value")
    return StorageClass(
        meta=meta,
        provisioner=provisioner,
        volume_binding_mode=_enum(raw, "volumeBindingMode", "", (BINDING_IMMEDIATE, BINDING_WAIT),
                                  BINDING_IMMEDIATE),
        allowed_topologies=tuple(
            _topology_term(t, p) for p, t in objects(raw, "allowedTopologies", "")
        ),
        parameters=string_map(raw, "parameters", ""),
        reclaim_policy=string(raw, "reclaimPolicy", "") or "Delete",
    )


def parse_csi_node(raw: Raw) -> CSINode:
    meta = parse_meta(raw, namespaced=False)
    spec = mapping(raw, "spec", "")
    drivers = []
    for p, d in objects(spec, "drivers", "spec"):
        count = integer(mapping(d, "allocatable", p), "count", f"{p}.allocatable")
        drivers.append(CSINodeDriver(
            name=string(d, "name", p),
            node_id=string(d, "nodeID", p),
            allocatable=count,
            topology_keys=tuple(strings(d, "topologyKeys", p)),
        ))
    return CSINode(meta=meta, drivers=tuple(drivers))
