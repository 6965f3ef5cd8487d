"""PodGroup (scheduling.x-k8s.io/v1alpha1), the gang object Coscheduling reads."""

from __future__ import annotations

from dataclasses import field

from ..errors import ObjectError
from ..record import record
from .fields import Raw, integer, mapping
from .meta import DEFAULT_TIME, ObjectMeta, parse_meta
from .resources import parse_resource_list, to_scheduler_units

POD_GROUP_API_VERSION = "scheduling.x-k8s.io/v1alpha1"
# The pod label naming a pod's group (scheduler-plugins v0.30).
POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group"


@record(slots=True, eq=False)
class PodGroup:
    meta: ObjectMeta
    min_member: int
    # spec.minResources in scheduler units (cpu in millicores, the rest in units).
    min_resources: dict[str, int] = field(default_factory=dict)
    schedule_timeout_seconds: int | None = None
    # metadata.creationTimestamp, or semantics.md's default instant.
    creation_timestamp: float = DEFAULT_TIME
    # spec.minResources as written (quantity text per resource), None when the field is
    # absent: Coscheduling tells a missing map from an empty one and quotes Go quantities.
    min_resources_text: dict[str, str] | None = None

    @property
    def name(self) -> str:
        return self.meta.name

    @property
    def namespace(self) -> str:
        return self.meta.namespace

    @property
    def key(self) -> str:
        return f"{self.meta.namespace}/{self.meta.name}"


def parse_pod_group(raw: Raw) -> PodGroup:
    meta = parse_meta(raw)
    spec = mapping(raw, "spec", "")
    min_member = integer(spec, "minMember", "spec", 0) or 0
    if min_member < 0:
        raise ObjectError("spec.minMember", f"Invalid value: {min_member}: must be non-negative")
    timeout = integer(spec, "scheduleTimeoutSeconds", "spec")
    created = meta.creation_timestamp
    raw_min = spec.get("minResources")
    return PodGroup(
        meta=meta,
        min_member=min_member,
        min_resources=to_scheduler_units(parse_resource_list(spec, "minResources", "spec")),
        schedule_timeout_seconds=timeout,
        creation_timestamp=DEFAULT_TIME if created is None else created,
        min_resources_text=None if raw_min is None else {
            str(name): _quantity_text(value) for name, value in raw_min.items()
        },
    )


def _quantity_text(value: object) -> str:
    """A YAML scalar as the JSON text the API server would hand a Go client."""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        text = repr(value)
        # encoding/json writes exponents without a leading zero (1e-7, not 1e-07).
        return text.replace("e-0", "e-").replace("e+0", "e+")
    return str(value)
