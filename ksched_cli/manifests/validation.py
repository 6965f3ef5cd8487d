"""API-server validation of the values ksched reads, before an object is parsed.

A subset of ``pkg/apis/core/validation`` and apimachinery's ObjectMeta rules, with
their messages: names, namespaces, label keys and values, annotation keys, node
selectors, taints and tolerations, and resource quantities (not negative, requests
within limits). On top, ksched's own bound: amounts as kube-scheduler counts them
(millicores for cpu, units otherwise) must fit int64, the type the scheduler and
ksched's arrays compute in. Every problem of an object is returned, in field order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from ..api.quantity import QuantityError, parse_quantity, scheduler_amount
from ..api.validation import (
    is_dns1035_label,
    is_dns1123_label,
    is_dns1123_subdomain,
    is_qualified_name,
    is_valid_label_value,
)
from ..errors import ObjectError
from .strict import go_quote

INT64_MAX = 2**63 - 1
NEGATIVE = "must be greater than or equal to 0"
# Names per kind where they are not DNS subdomains (ValidateServiceName, ValidateNamespaceName).
NAME_RULES: Mapping[str, Callable[[str], list[str]]] = {
    "Service": is_dns1035_label,
    "Namespace": is_dns1123_label,
}

Problems = list[ObjectError]


def invalid(path: str, value: object, message: str) -> ObjectError:
    """field.Invalid: ``Invalid value: "x": message`` (strings quoted as Go's %q does)."""
    shown = go_quote(value) if isinstance(value, str) else str(value)
    return ObjectError(path, f"Invalid value: {shown}: {message}")


def validate_object(kind: str, raw: Mapping[str, Any], namespaced: bool) -> Problems:
    """Every problem the checks above find in one decoded object of a kind ksched reads."""
    out: Problems = []
    meta = raw.get("metadata")
    if isinstance(meta, Mapping):
        _metadata(kind, meta, namespaced, out)
    spec, status = raw.get("spec"), raw.get("status")
    check = _KIND_CHECKS.get(kind)
    if check is not None:
        check(spec if isinstance(spec, Mapping) else {},
              status if isinstance(status, Mapping) else {}, out)
    return out


def _metadata(kind: str, meta: Mapping[str, Any], namespaced: bool, out: Problems) -> None:
    name = meta.get("name")
    if isinstance(name, str) and name:
        rule = NAME_RULES.get(kind, is_dns1123_subdomain)
        out.extend(invalid("metadata.name", name, m) for m in rule(name))
    namespace = meta.get("namespace")
    if namespaced and isinstance(namespace, str) and namespace:
        out.extend(invalid("metadata.namespace", namespace, m)
                   for m in is_dns1123_label(namespace))
    labels(meta.get("labels"), "metadata.labels", out)
    annotations = meta.get("annotations")
    if isinstance(annotations, Mapping):
        for key in annotations:
            if isinstance(key, str):
                out.extend(invalid("metadata.annotations", key, m)
                           for m in is_qualified_name(key.lower()))


def labels(raw: Any, path: str, out: Problems) -> None:
    """ValidateLabels: each key a qualified name, each value a label value; path is the map's."""
    if not isinstance(raw, Mapping):
        return
    for key, value in raw.items():
        if isinstance(key, str):
            out.extend(invalid(path, key, m) for m in is_qualified_name(key))
        if isinstance(value, str):
            out.extend(invalid(path, value, m) for m in is_valid_label_value(value))


def _pod(spec: Mapping[str, Any], _status: Mapping[str, Any], out: Problems) -> None:
    for field in ("initContainers", "containers"):
        items = spec.get(field)
        for index, container in enumerate(items if isinstance(items, list) else ()):
            if isinstance(container, Mapping):
                _container(container, f"spec.{field}[{index}]", out)
    overhead = spec.get("overhead")
    if isinstance(overhead, Mapping):
        quantities(overhead, "spec.overhead", out)
    labels(spec.get("nodeSelector"), "spec.nodeSelector", out)
    tolerations = spec.get("tolerations")
    for index, toleration in enumerate(tolerations if isinstance(tolerations, list) else ()):
        if isinstance(toleration, Mapping):
            _toleration(toleration, f"spec.tolerations[{index}]", out)


def _container(container: Mapping[str, Any], path: str, out: Problems) -> None:
    name = container.get("name")
    if isinstance(name, str):
        if not name:
            out.append(ObjectError(f"{path}.name", "Required value"))
        out.extend(invalid(f"{path}.name", name, m) for m in is_dns1123_label(name) if name)
    resources = container.get("resources")
    if not isinstance(resources, Mapping):
        return
    path = f"{path}.resources"
    limits = resources.get("limits")
    requests = resources.get("requests")
    parsed_limits = quantities(limits, f"{path}.limits", out) if isinstance(limits, Mapping) else {}
    if not isinstance(requests, Mapping):
        return
    for name, value in quantities(requests, f"{path}.requests", out).items():
        limit = parsed_limits.get(name)
        if limit is not None and value > limit and isinstance(limits, Mapping):
            message = f"must be less than or equal to {name} limit of {limits[name]}"
            out.append(invalid(f"{path}.requests.{name}", str(requests[name]), message))


def quantities(raw: Mapping[str, Any], path: str, out: Problems) -> dict[str, Fraction]:
    """The valid quantities of a resource list; a problem for each unusable one."""
    parsed: dict[str, Fraction] = {}
    for name, value in raw.items():
        here = f"{path}.{name}"
        try:
            amount = parse_quantity(value)
        except (QuantityError, TypeError) as exc:
            out.append(ObjectError(here, str(exc)))
            continue
        shown = value if isinstance(value, str) else str(value)
        if amount < 0:
            out.append(invalid(here, shown, NEGATIVE))
            continue
        if scheduler_amount(str(name), amount) > INT64_MAX:
            unit = "m (int64 millicores" if name == "cpu" else " (int64"
            bound = f"must be no more than {INT64_MAX}{unit}, as kube-scheduler counts {name})"
            out.append(invalid(here, shown, bound))
            continue
        parsed[str(name)] = amount
    return parsed


def _toleration(raw: Mapping[str, Any], path: str, out: Problems) -> None:
    key = raw.get("key")
    if isinstance(key, str) and key:
        out.extend(invalid(f"{path}.key", key, m) for m in is_qualified_name(key))
    value = raw.get("value")
    if isinstance(value, str) and raw.get("operator") in (None, "", "Equal"):
        out.extend(invalid(f"{path}.value", value, m) for m in is_valid_label_value(value))


def _node(spec: Mapping[str, Any], status: Mapping[str, Any], out: Problems) -> None:
    taints = spec.get("taints")
    for index, taint in enumerate(taints if isinstance(taints, list) else ()):
        if not isinstance(taint, Mapping):
            continue
        path = f"spec.taints[{index}]"
        key = taint.get("key")
        if isinstance(key, str):
            if not key:
                out.append(ObjectError(f"{path}.key", "Required value"))
            out.extend(invalid(f"{path}.key", key, m) for m in is_qualified_name(key) if key)
        value = taint.get("value")
        if isinstance(value, str):
            out.extend(invalid(f"{path}.value", value, m) for m in is_valid_label_value(value))
    for field in ("capacity", "allocatable"):
        amounts = status.get(field)
        if isinstance(amounts, Mapping):
            quantities(amounts, f"status.{field}", out)


_KIND_CHECKS: Mapping[str, Callable[[Mapping[str, Any], Mapping[str, Any], Problems], None]] = {
    "Pod": _pod,
    "Node": _node,
}
