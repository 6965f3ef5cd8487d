"""A container's resources as ValidateResourceRequirements judges them (v1.30.6
``pkg/apis/core/validation``, with ``pkg/apis/core/helper``'s resource-name sets):
resource names (``validateContainerResourceName``), whole amounts of integer and
extended resources, and whole hugepages. Negative amounts and requests above limits are
the type-level rule's (``validation.resource_requirements``).

Not enforced, on purpose: the limits of resources that cannot be overcommitted (an
extended resource or hugepages with a request needs an equal limit) and `HugePages
require cpu or memory`. The conformance inputs, like kube-scheduler's own unit tests,
write extended resources as requests alone, so ksched plans such pods as the scheduler
does rather than refusing them as the API server would (docs/security.md).

Go lists a map's problems in map order; here they come in the manifest's order. Where Go
prints a ``resource.Quantity`` struct (the integer check), the quantity is quoted instead.
"""

from __future__ import annotations

from typing import Any

from ..api.go_quantity import Quantity, format_of
from ..api.quantity import QuantityError, parse_quantity
from ..api.resource_names import HUGEPAGES, is_extended, is_native, whole_hugepages
from ..api.validation import is_qualified_name

_REQUESTS = "requests."
_CONTAINER = frozenset({"cpu", "memory", "ephemeral-storage"})
_STANDARD = _CONTAINER | {
    "requests.cpu", "requests.memory", "requests.ephemeral-storage", "limits.cpu",
    "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas", "services",
    "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "storage",
    "requests.storage", "services.nodeports", "services.loadbalancers",
}
_INTEGER = frozenset({
    "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
    "persistentvolumeclaims", "services.nodeports", "services.loadbalancers",
})

Found = list[tuple[str, str]]


def container_resource_problems(requests: Any, limits: Any) -> Found:
    """(suffix under ``resources``, message) for each problem, in Go's order of checks."""
    out: Found = []
    for key, listed in (("limits", limits), ("requests", requests)):
        for name, text in listed.items() if type(listed) is dict else ():
            amount = _amount(name, text)
            if amount is not None:
                out += _name_and_value(f"{key}.{name}", name, amount)
    return out


def _amount(name: object, text: object) -> Quantity | None:
    """The quantity, or None where the type-level rule reports the entry instead."""
    if type(name) is not str:
        return None
    try:
        value = parse_quantity(text)  # type: ignore[arg-type]
    except (QuantityError, TypeError):
        return None
    return None if value < 0 else Quantity(value, format_of(text))


def _name_and_value(path: str, name: str, amount: Quantity) -> Found:
    out = [(path, f"Invalid value: {name}: {m}") for m in _name_problems(name)]
    if (name in _INTEGER or is_extended(name)) and amount.value.denominator != 1:
        out.append((path, f"Invalid value: {amount.go_quote()}: must be an integer"))
    return out + _pages(path, name, amount)


def _name_problems(name: str) -> list[str]:
    """validateContainerResourceName (validateResourceName first)."""
    found = is_qualified_name(name)
    if not found and "/" not in name and name not in _STANDARD and not _quota_pages(name):
        found = ["must be a standard resource type or fully qualified"]
    if "/" not in name:
        if name not in _CONTAINER and not name.startswith(HUGEPAGES):
            found.append("must be a standard resource for containers")
    elif not is_native(name) and not is_extended(name):
        found.append("doesn't follow extended resource name standard")
    return found


def _quota_pages(name: str) -> bool:
    return name.startswith((HUGEPAGES, _REQUESTS + HUGEPAGES))


def _pages(path: str, name: str, amount: Quantity) -> Found:
    """validateResourceQuantityHugePageValue for a new pod."""
    if not name.startswith(HUGEPAGES) or whole_hugepages(name, amount.value):
        return []
    return [(path, f"Invalid value: {amount.go_quote()}: {amount} is not positive integer "
                   f"multiple of {name}")]
