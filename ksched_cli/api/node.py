"""The Node as kube-scheduler sees it."""

from __future__ import annotations

from dataclasses import field

from ..errors import ObjectError
from ..record import record
from .fields import Raw, boolean, integer, mapping, objects, string, strings
from .meta import ObjectMeta, parse_meta
from .resources import parse_resource_list, to_scheduler_units

TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")


@record(frozen=True, slots=True)
class Taint:
    """spec.taints[] of a Node."""

    key: str
    value: str
    effect: str

    def __str__(self) -> str:
        # v1.Taint.ToString(), used in "untolerated taint {key: value}" reasons.
        if not self.value:
            return f"{self.key}:{self.effect}" if self.effect else self.key
        return f"{self.key}={self.value}:{self.effect}"


@record(frozen=True, slots=True)
class ContainerImage:
    """status.images[] of a Node: the names of one image and its size."""

    names: tuple[str, ...]
    size_bytes: int


@record(slots=True, eq=False)
class Node:
    """A Node as the scheduler reads it; ``allocatable`` in scheduler units."""

    meta: ObjectMeta
    allocatable: dict[str, int]
    taints: tuple[Taint, ...] = ()
    unschedulable: bool = False
    images: tuple[ContainerImage, ...] = ()
    load_index: int = 0
    labels: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.meta.name


def parse_node(raw: Raw) -> Node:
    meta = parse_meta(raw, namespaced=False)
    spec = mapping(raw, "spec", "")
    status = mapping(raw, "status", "")
    taints = []
    for p, t in objects(spec, "taints", "spec"):
        effect = string(t, "effect", p)
        if effect not in TAINT_EFFECTS:
            raise ObjectError(
                f"{p}.effect",
                f'Unsupported value: "{effect}": supported values: '
                '"NoSchedule", "PreferNoSchedule", "NoExecute"',
            )
        taints.append(Taint(string(t, "key", p), string(t, "value", p), effect))
    exact = parse_resource_list(status, "allocatable", "status")
    if not exact:
        exact = parse_resource_list(status, "capacity", "status")
    images = tuple(
        ContainerImage(tuple(strings(i, "names", p)), integer(i, "sizeBytes", p, 0) or 0)
        for p, i in objects(status, "images", "status")
    )
    return Node(
        meta=meta,
        allocatable=to_scheduler_units(exact),
        taints=tuple(taints),
        unschedulable=boolean(spec, "unschedulable", "spec"),
        images=images,
        labels=meta.labels,
    )
