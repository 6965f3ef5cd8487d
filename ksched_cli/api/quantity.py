"""Exact parsing of Kubernetes resource quantities (k8s.io/apimachinery resource.Quantity)."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from functools import lru_cache

_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {
    "n": Fraction(1, 10**9),
    "u": Fraction(1, 10**6),
    "m": Fraction(1, 10**3),
    "": Fraction(1),
    "k": Fraction(10**3),
    "M": Fraction(10**6),
    "G": Fraction(10**9),
    "T": Fraction(10**12),
    "P": Fraction(10**15),
    "E": Fraction(10**18),
}
_QUANTITY = re.compile(
    r"^([+-]?)(\d+\.?\d*|\.\d+)(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$"
)


# resource.ErrFormatWrong
_FORMAT_WRONG = (
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)


class QuantityError(ValueError):
    pass


def parse_quantity(text: str | int | float) -> Fraction:
    """The exact value of a quantity string such as ``100m``, ``1.5Gi`` or ``1e3``."""
    if not isinstance(text, (str, int, float)):  # a list or an object: not even hashable
        raise QuantityError(f"expected a quantity (a string or a number), got {_kind(text)}")
    return _parse_quantity(text)


def _kind(value: object) -> str:
    return "null" if value is None else "list" if isinstance(value, list) else "object"


@lru_cache(maxsize=4096)
def _parse_quantity(text: str | int | float) -> Fraction:
    if isinstance(text, bool):
        raise QuantityError(f"quantities must match the regular expression: {text!r}")
    if isinstance(text, int):
        return Fraction(text)
    if isinstance(text, float):
        if not math.isfinite(text):  # YAML .nan / .inf, JSON NaN / Infinity
            raise QuantityError(f"{_FORMAT_WRONG}: {text!r}")
        return Fraction(repr(text))
    match = _QUANTITY.match(text.strip()) if isinstance(text, str) else None
    if match is None or text != text.strip():
        raise QuantityError(f"{_FORMAT_WRONG}: {text!r}")
    sign, number, exponent, suffix = match.groups()
    value = Fraction(number)
    if exponent:
        value *= Fraction(10) ** int(exponent[1:])
    elif suffix in _BINARY:
        value *= _BINARY[suffix]
    elif suffix:
        value *= _DECIMAL[suffix]
    return -value if sign == "-" else value


def ceil_int(value: Fraction) -> int:
    """Quantity.Value(): rounded up to the next integer."""
    return -((-value.numerator) // value.denominator)


def milli_value(value: Fraction) -> int:
    """Quantity.MilliValue(): thousandths, rounded up."""
    return ceil_int(value * 1000)


def scheduler_amount(resource: str, value: Fraction) -> int:
    """How kube-scheduler reads a resource: milli-units for cpu, units for the rest."""
    return milli_value(value) if resource == "cpu" else ceil_int(value)


def format_cpu(milli: int) -> str:
    return f"{milli // 1000}" if milli % 1000 == 0 else f"{milli}m"


def format_bytes(value: int) -> str:
    for suffix, size in (
        ("Ei", 2**60),
        ("Pi", 2**50),
        ("Ti", 2**40),
        ("Gi", 2**30),
        ("Mi", 2**20),
        ("Ki", 2**10),
    ):
        if value and value % size == 0:
            return f"{value // size}{suffix}"
    return str(value)
