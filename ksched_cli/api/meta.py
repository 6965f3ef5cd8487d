"""ObjectMeta and timestamps."""

from __future__ import annotations

from dataclasses import field
from datetime import UTC, datetime

from ..errors import ObjectError
from ..record import record
from .fields import Raw, boolean, mapping, objects, string, string_map

# semantics.md: instants not given in the input default to this one.
DEFAULT_TIME = datetime(2024, 1, 1, tzinfo=UTC).timestamp()


@record(frozen=True, slots=True)
class OwnerReference:
    """metadata.ownerReferences[]: the owning object's kind and name."""

    kind: str
    name: str
    controller: bool


@record(slots=True)
class ObjectMeta:
    """The metadata the scheduler and the controllers read."""

    name: str
    namespace: str = ""
    uid: str = ""
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    creation_timestamp: float | None = None
    deletion_timestamp: float | None = None
    owner_references: tuple[OwnerReference, ...] = ()

    def controller_ref(self) -> OwnerReference | None:
        return next((o for o in self.owner_references if o.controller), None)


def parse_time(value: object, path: str) -> float:
    """RFC 3339 time to POSIX seconds."""
    if isinstance(value, datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=UTC)
        return moment.timestamp()
    if not isinstance(value, str):
        raise ObjectError(path, f"expected an RFC 3339 time, got {value!r}")
    text = value.strip().replace("Z", "+00:00").replace("z", "+00:00")
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ObjectError(path, f"expected an RFC 3339 time, got {value!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def parse_meta(raw: Raw, namespaced: bool = True) -> ObjectMeta:
    meta = mapping(raw, "metadata", "")
    name = string(meta, "name", "metadata")
    if not name:
        raise ObjectError("metadata.name", "Required value: name or generateName is required")
    owners = tuple(
        OwnerReference(string(o, "kind", p), string(o, "name", p), boolean(o, "controller", p))
        for p, o in objects(meta, "ownerReferences", "metadata")
    )
    created = meta.get("creationTimestamp")
    deleted = meta.get("deletionTimestamp")
    return ObjectMeta(
        name=name,
        namespace=(string(meta, "namespace", "metadata") or "default") if namespaced else "",
        uid=string(meta, "uid", "metadata"),
        labels=string_map(meta, "labels", "metadata"),
        annotations=string_map(meta, "annotations", "metadata"),
        creation_timestamp=parse_time(created, "metadata.creationTimestamp") if created else None,
        deletion_timestamp=parse_time(deleted, "metadata.deletionTimestamp") if deleted else None,
        owner_references=owners,
    )
