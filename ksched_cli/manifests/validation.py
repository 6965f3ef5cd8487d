"""API-server validation of the values ksched reads, as rules per API type.

A subset of ``pkg/apis/core/validation`` and apimachinery's ObjectMeta rules, with
their messages: names, namespaces, label keys and values, annotation keys, node
selectors, taints, tolerations and resource quantities (not negative, requests within
limits; a container's resource names and units: container_resources.py). On top,
ksched's own bound: amounts as kube-scheduler counts them (millicores for cpu, units
otherwise) must fit int64, the type the scheduler and ksched's arrays compute in.

``RULES`` maps an OpenAPI definition name to a rule; ``strict`` runs each rule where
its type appears. A rule gets the decoded mapping and returns (field suffix, message)
problems, empty almost always: values met before are remembered as good, so a map of
known-good entries costs one C-level ``issuperset``. ``object_rule`` judges what depends
on the kind (the name) or lies in ``status``, which the schema walk skips.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..api.quantity import QuantityError, parse_quantity, scheduler_amount
from ..api.validation import (
    dns1123_subdomain_ok,
    go_quote,
    is_dns1035_label,
    is_dns1123_label,
    is_dns1123_subdomain,
    is_qualified_name,
    is_valid_label_value,
)
from .container_resources import container_resource_problems

INT64_MAX = 2**63 - 1
NEGATIVE = "must be greater than or equal to 0"
# Names per kind where they are not DNS subdomains (ValidateServiceName, ValidateNamespaceName).
NAME_RULES: Mapping[str, Callable[[str], list[str]]] = {
    "Service": is_dns1035_label,
    "Namespace": is_dns1123_label,
}

Found = list[tuple[str, str]]
Rule = Callable[[dict[str, Any]], Sequence[tuple[str, str]]]
_NONE: tuple[tuple[str, str], ...] = ()
_MEMO_MAX = 1 << 16


def invalid(value: object, message: str) -> str:
    """field.Invalid's text: ``Invalid value: "x": message`` (strings as Go's %q quotes)."""
    shown = go_quote(value) if isinstance(value, str) else str(value)
    return f"Invalid value: {shown}: {message}"


# Checks of single strings: few distinct values (label keys, namespaces), met very often.
_CHECKED: dict[tuple[Callable[[str], list[str]], str], list[str]] = {}


def _check(rule: Callable[[str], list[str]], value: str) -> list[str]:
    found = _CHECKED.get((rule, value))
    if found is None:
        if len(_CHECKED) >= _MEMO_MAX:
            _CHECKED.clear()
        found = _CHECKED[(rule, value)] = rule(value)
    return found


def _remember(good: set[Any], item: Any) -> None:
    if len(good) >= _MEMO_MAX:
        good.clear()
    good.add(item)


_GOOD_LABELS: set[tuple[str, str]] = set()


def _known_good(good: set[Any], entries: Any) -> bool:
    """All of ``entries`` (a map's keys or items) were judged good before."""
    try:
        return good.issuperset(entries)
    except TypeError:  # a list or map among them, which the parser reports
        return False

_GOOD_ANNOTATION_KEYS: set[str] = set()
_GOOD_CONTAINER_NAMES: set[str] = set()


def labels(raw: Any, field: str, out: Found) -> None:
    """ValidateLabels: keys qualified names, values label values; the path is the map's."""
    if type(raw) is not dict or _known_good(_GOOD_LABELS, raw.items()):
        return
    for key, value in raw.items():
        found = len(out)
        if type(key) is str:
            out.extend((field, invalid(key, m)) for m in _check(is_qualified_name, key))
        if type(value) is str:
            out.extend((field, invalid(value, m)) for m in _check(is_valid_label_value, value))
        if len(out) == found and type(key) is str and type(value) is str:
            _remember(_GOOD_LABELS, (key, value))


# TotalAnnotationSizeLimitB: keys and values together, in bytes (UTF-8).
ANNOTATIONS_LIMIT = 256 * (1 << 10)
# Written in v1.30's words by the rule (rules are shared by every release);
# ``checks.check_object`` rewrites it in the selected release's (``too_long``).
ANNOTATIONS_TOO_LONG = f"Too long: must have at most {ANNOTATIONS_LIMIT} bytes"


def too_long(limit: int, value_omitted: bool) -> str:
    """field.TooLong's text: apimachinery v0.32 reworded it (and, from v0.34, writes
    "1 byte"; no limit ksched checks is 1)."""
    if not value_omitted:
        return f"Too long: must have at most {limit} bytes"
    return f"Too long: may not be more than {limit} {'byte' if limit == 1 else 'bytes'}"


def _annotations_too_long(annotations: dict[Any, Any]) -> bool:
    """ValidateAnnotationsSize; characters counted first, as a UTF-8 byte is at most 4 of them."""
    texts = [t for pair in annotations.items() for t in pair if type(t) is str]
    if sum(map(len, texts)) * 4 <= ANNOTATIONS_LIMIT:
        return False
    return sum(len(t.encode("utf-8", "surrogatepass")) for t in texts) > ANNOTATIONS_LIMIT


def object_meta(meta: dict[str, Any]) -> Sequence[tuple[str, str]]:
    """ObjectMeta wherever it appears: labels, annotation keys and the annotations' size."""
    annotations = meta.get("annotations")
    if type(annotations) is dict and annotations and _annotations_too_long(annotations):
        return [*_object_meta(meta), ("annotations", ANNOTATIONS_TOO_LONG)]
    return _object_meta(meta)


def _object_meta(meta: dict[str, Any]) -> Sequence[tuple[str, str]]:
    annotations = meta.get("annotations")
    labels_ = meta.get("labels")
    if (labels_ is None or (type(labels_) is dict and _known_good(_GOOD_LABELS, labels_.items()))) \
            and (annotations is None or (type(annotations) is dict
                                         and _known_good(_GOOD_ANNOTATION_KEYS, annotations))):
        return _NONE
    out: Found = []
    labels(labels_, "labels", out)
    if type(annotations) is dict:
        for key in annotations:
            if type(key) is str:
                found = _check(is_qualified_name, key.lower())
                out.extend(("annotations", invalid(key, m)) for m in found)
                if not found:
                    _remember(_GOOD_ANNOTATION_KEYS, key)
    return out


def container(raw: dict[str, Any]) -> Sequence[tuple[str, str]]:
    name = raw.get("name")
    if type(name) is not str or name in _GOOD_CONTAINER_NAMES:
        return _NONE
    if not name:
        return [("name", "Required value")]
    found = is_dns1123_label(name)
    if not found:
        _remember(_GOOD_CONTAINER_NAMES, name)
    return [("name", invalid(name, m)) for m in found]


# (requests items, limits items) -> problems: pods stamped from one template share their
# resources, and exact quantity arithmetic is the costly part.
_RESOURCES: dict[Any, tuple[tuple[str, str], ...]] = {}


def resource_requirements(raw: dict[str, Any]) -> Sequence[tuple[str, str]]:
    """ValidateResourceRequirements: quantities usable, requests within limits, and a
    container's resource names and units (container_resources.py; a pod's
    ``spec.resources`` has the same type, and its own checks after these)."""
    return _memo(raw.get("requests"), raw.get("limits"), _requirements)


def resource_list(raw: dict[str, Any], field: str) -> Sequence[tuple[str, str]]:
    """One resource list (node capacity, pod overhead), problems relative to its parent."""
    return [(f"{field}.{suffix}", m) for suffix, m in _memo(raw, None, _quantity_list)]


def _memo(
    first: Any, second: Any, judge: Callable[[Any, Any], Found]
) -> Sequence[tuple[str, str]]:
    key: Any = (_items(first), _items(second), judge)
    try:
        found = _RESOURCES.get(key)
    except TypeError:  # an unhashable value, which the parser reports: judged uncached
        return judge(first, second)
    if found is None:
        if len(_RESOURCES) >= _MEMO_MAX:
            _RESOURCES.clear()
        found = _RESOURCES[key] = tuple(judge(first, second))
    return found


def _items(raw: Any) -> Any:
    return tuple(raw.items()) if type(raw) is dict else raw


def _quantity_list(raw: Any, _unused: Any) -> Found:
    out: Found = []
    if type(raw) is dict:
        _quantities(raw, "", out)
    return out


def _requirements(requests: Any, limits: Any) -> Found:
    out: Found = []
    parsed_limits = _quantities(limits, "limits", out) if type(limits) is dict else {}
    parsed = _quantities(requests, "requests", out) if type(requests) is dict else {}
    for name, value in parsed.items():
        limit = parsed_limits.get(name)
        if limit is not None and value > limit and type(limits) is dict:
            message = f"must be less than or equal to {name} limit of {limits[name]}"
            out.append((f"requests.{name}", invalid(str(requests[name]), message)))
    out += container_resource_problems(requests, limits)
    return out


def _quantities(raw: dict[Any, Any], prefix: str, out: Found) -> dict[str, Fraction]:
    """The usable quantities of a resource list; a problem for each other one."""
    parsed: dict[str, Fraction] = {}
    for name, value in raw.items():
        suffix = f"{prefix}.{name}" if prefix else str(name)
        try:
            amount = parse_quantity(value)
        except (QuantityError, TypeError) as exc:
            out.append((suffix, str(exc)))
            continue
        shown = value if isinstance(value, str) else str(value)
        if amount < 0:
            out.append((suffix, invalid(shown, NEGATIVE)))
        elif scheduler_amount(str(name), amount) > INT64_MAX:
            unit = "m (int64 millicores" if name == "cpu" else " (int64"
            bound = f"must be no more than {INT64_MAX}{unit}, as kube-scheduler counts {name})"
            out.append((suffix, invalid(shown, bound)))
        else:
            parsed[str(name)] = amount
    return parsed


def pod_spec(spec: dict[str, Any]) -> Sequence[tuple[str, str]]:
    selector, overhead = spec.get("nodeSelector"), spec.get("overhead")
    if overhead is None and (
        selector is None or (type(selector) is dict and _known_good(_GOOD_LABELS, selector.items()))
    ):
        return _NONE
    out: Found = []
    labels(selector, "nodeSelector", out)
    if type(overhead) is dict:
        out.extend(resource_list(overhead, "overhead"))
    return out


def toleration(raw: dict[str, Any]) -> Sequence[tuple[str, str]]:
    out: Found = []
    key = raw.get("key")
    if type(key) is str and key:
        out.extend(("key", invalid(key, m)) for m in _check(is_qualified_name, key))
    value = raw.get("value")
    if type(value) is str and raw.get("operator") in (None, "", "Equal"):
        out.extend(("value", invalid(value, m)) for m in _check(is_valid_label_value, value))
    return out


def taint(raw: dict[str, Any]) -> Sequence[tuple[str, str]]:
    out: Found = []
    key = raw.get("key")
    if type(key) is str:
        if not key:
            out.append(("key", "Required value"))
        else:
            out.extend(("key", invalid(key, m)) for m in _check(is_qualified_name, key))
    value = raw.get("value")
    if type(value) is str:
        out.extend(("value", invalid(value, m)) for m in _check(is_valid_label_value, value))
    return out


def node_selector(raw: dict[str, Any]) -> Sequence[tuple[str, str]]:
    """ValidateNodeSelector: at least one term (required node affinity, a volume's)."""
    terms = raw.get("nodeSelectorTerms")
    if terms is None or (type(terms) is list and not terms):
        return [("nodeSelectorTerms", "Required value: must have at least one node selector term")]
    return _NONE


RULES: Mapping[str, Rule] = {
    "io.k8s.api.core.v1.NodeSelector": node_selector,
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": object_meta,
    "io.k8s.api.core.v1.Container": container,
    "io.k8s.api.core.v1.ResourceRequirements": resource_requirements,
    "io.k8s.api.core.v1.PodSpec": pod_spec,
    "io.k8s.api.core.v1.Toleration": toleration,
    "io.k8s.api.core.v1.Taint": taint,
}


def object_rule(kind: str, raw: Mapping[str, Any], namespaced: bool) -> Found:
    """What depends on the kind: the object's name and namespace; a Node's status amounts."""
    out: Found = []
    meta = raw.get("metadata")
    if type(meta) is dict:
        name = meta.get("name")
        rule = NAME_RULES.get(kind)
        if type(name) is str and name and (rule is not None or not dns1123_subdomain_ok(name)):
            found = (rule or is_dns1123_subdomain)(name)
            out.extend(("metadata.name", invalid(name, m)) for m in found)
        namespace = meta.get("namespace")
        if namespaced and type(namespace) is str and namespace:
            found = _check(is_dns1123_label, namespace)
            out.extend(("metadata.namespace", invalid(namespace, m)) for m in found)
    status = raw.get("status")
    if kind == "Node" and type(status) is dict:
        for field in ("capacity", "allocatable"):
            amounts = status.get(field)
            if type(amounts) is dict:
                out.extend(resource_list(amounts, f"status.{field}"))
    return out
