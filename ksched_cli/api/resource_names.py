"""Resource names as ``pkg/apis/core/helper`` classifies them, shared by the container
and pod-level checks: native or extended, overcommitable, hugepages and their sizes."""

from __future__ import annotations

import math
from fractions import Fraction

from .quantity import QuantityError, parse_quantity
from .validation import is_qualified_name

HUGEPAGES = "hugepages-"
_REQUESTS = "requests."


def is_native(name: str) -> bool:
    """IsNativeResource: no domain, or kubernetes.io's."""
    return "/" not in name or "kubernetes.io/" in name


def is_extended(name: str) -> bool:
    """IsExtendedResourceName: another domain, and a qualified name once quota-prefixed."""
    if is_native(name) or name.startswith(_REQUESTS):
        return False
    return not is_qualified_name(_REQUESTS + name)


def overcommit_allowed(name: str) -> bool:
    """IsOvercommitAllowed: native and not hugepages."""
    return is_native(name) and not name.startswith(HUGEPAGES)


def whole_hugepages(name: str, value: Fraction) -> bool:
    """IsHugePageResourceValueDivisible: a whole multiple of the page size in the name
    (Value() rounds up; a size that is no positive whole number divides nothing)."""
    try:
        size = parse_quantity(name[len(HUGEPAGES):])
    except QuantityError:
        return False
    if size <= 0 or size.denominator != 1:
        return False
    return math.ceil(value) % int(size) == 0
