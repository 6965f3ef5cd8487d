"""Objects whose selectors PodTopologySpread's System default constraints use."""

from __future__ import annotations

from dataclasses import dataclass

from .fields import Raw, mapping, string_map
from .meta import ObjectMeta, parse_meta
from .selectors import LabelSelector, Requirement, parse_label_selector

SELECTOR_KINDS = ("Service", "ReplicaSet", "StatefulSet", "ReplicationController")


@dataclass(slots=True, eq=False)
class Workload:
    """A Service, ReplicaSet, StatefulSet or ReplicationController with its pod selector.

    ``selector`` is None when the object selects nothing. Services and
    ReplicationControllers carry plain maps, kept in ``selector_map`` as well.
    """

    kind: str
    meta: ObjectMeta
    selector: LabelSelector | None
    selector_map: dict[str, str] | None = None

    @property
    def namespace(self) -> str:
        return self.meta.namespace


def _map_selector(values: dict[str, str]) -> LabelSelector:
    return LabelSelector(tuple(Requirement(k, "In", (v,)) for k, v in sorted(values.items())))


def parse_workload(kind: str, raw: Raw) -> Workload:
    meta = parse_meta(raw)
    spec = mapping(raw, "spec", "")
    if kind in ("Service", "ReplicationController"):
        if spec.get("selector") is None:
            return Workload(kind, meta, None, None)
        values = string_map(spec, "selector", "spec")
        return Workload(kind, meta, _map_selector(values), values)
    sel = spec.get("selector")
    return Workload(
        kind, meta, parse_label_selector(sel, "spec.selector") if sel is not None else None
    )
