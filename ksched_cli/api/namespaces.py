"""Namespace (its labels feed namespaceSelector) and LimitRange (LimitRanger's defaults)."""

from __future__ import annotations

from ..errors import ObjectError
from ..record import record
from .fields import Raw, mapping, objects, string
from .meta import ObjectMeta, parse_meta
from .resources import ExactList, parse_resource_list

NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"
LIMIT_TYPES = ("Pod", "Container", "PersistentVolumeClaim")


@record(slots=True)
class Namespace:
    meta: ObjectMeta
    labels: dict[str, str]


def parse_namespace(raw: Raw) -> Namespace:
    meta = parse_meta(raw, namespaced=False)
    # The API server sets the name label on every namespace, overriding any other value.
    return Namespace(meta, {**meta.labels, NAMESPACE_NAME_LABEL: meta.name})


@record(frozen=True, slots=True)
class LimitRange:
    """The Container items' request defaults, after SetDefaults_LimitRangeItem.

    Only requests matter to scheduling: limits LimitRanger adds come after the API
    server already defaulted requests from limits, so they do not change requests.
    """

    meta: ObjectMeta
    default_requests: tuple[ExactList, ...]

    @property
    def name(self) -> str:
        return self.meta.name


def parse_limit_range(raw: Raw) -> LimitRange:
    meta = parse_meta(raw)
    spec = mapping(raw, "spec", "")
    defaults = []
    for path, item in objects(spec, "limits", "spec"):
        kind = string(item, "type", path)
        if kind not in LIMIT_TYPES:
            supported = ", ".join(f'"{t}"' for t in LIMIT_TYPES)
            raise ObjectError(f"{path}.type",
                              f'Unsupported value: "{kind}": supported values: {supported}')
        lists = {key: parse_resource_list(item, key, path)
                 for key in ("default", "defaultRequest", "max", "min")}
        if kind == "Container":
            defaults.append(_default_request(lists))
    return LimitRange(meta, tuple(defaults))


def _default_request(lists: dict[str, ExactList]) -> ExactList:
    """SetDefaults_LimitRangeItem: default limit from max, request from default, then min."""
    default = {**lists["max"], **lists["default"]}
    return {**lists["min"], **default, **lists["defaultRequest"]}
