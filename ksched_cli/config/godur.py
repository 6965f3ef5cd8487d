"""Go ``time.Duration`` text (``1m30s``), as metav1.Duration fields in the config use it."""

from __future__ import annotations

import re
from decimal import Decimal

_UNITS_NS = {
    "ns": 1,
    "us": 1_000,
    "µs": 1_000,  # U+00B5 micro sign
    "μs": 1_000,  # U+03BC greek mu
    "ms": 1_000_000,
    "s": 1_000_000_000,
    "m": 60_000_000_000,
    "h": 3_600_000_000_000,
}
# Compiled on first use (re caches them): a configuration rarely gives a duration.
_NUMBER = r"\d+\.?\d*|\.\d+"
_UNIT = r"[^\d.]*"
_MAX_NS = 2**63 - 1


def parse_duration(text: str) -> int:
    """Nanoseconds in ``text``; raises ValueError with Go's message when malformed."""
    error = ValueError(f'time: invalid duration "{text}"')
    body = text
    sign = 1
    if body[:1] in "+-" and body:
        sign = -1 if body[0] == "-" else 1
        body = body[1:]
    if body == "0":
        return 0
    if not body:
        raise error
    total = Decimal(0)
    pos = 0
    while pos < len(body):
        number = re.compile(_NUMBER).match(body, pos)
        if number is None:
            raise error
        unit = re.compile(_UNIT).match(body, number.end())
        name = unit.group() if unit else ""
        if not name:
            raise ValueError(f'time: missing unit in duration "{text}"')
        if name not in _UNITS_NS:
            raise ValueError(f'time: unknown unit "{name}" in duration "{text}"')
        total += Decimal(number.group()) * _UNITS_NS[name]
        pos = number.end() + len(name)
    if total > _MAX_NS:
        raise error
    return sign * int(total)


def format_duration(ns: int) -> str:
    """Go's Duration.String(): ``0s``, ``1.5s``, ``2m0s``, ``1h0m0s``, ``300ms``."""
    if ns == 0:
        return "0s"
    sign = "-" if ns < 0 else ""
    ns = abs(ns)
    if ns < 1_000_000_000:
        for unit, size in (("ms", 1_000_000), ("µs", 1_000), ("ns", 1)):
            if ns >= size:
                return sign + _fraction(ns, size) + unit
    hours, rest = divmod(ns, 3_600_000_000_000)
    minutes, rest = divmod(rest, 60_000_000_000)
    seconds = _fraction(rest, 1_000_000_000) + "s"
    if hours:
        return f"{sign}{hours}h{minutes}m{seconds}"
    if minutes:
        return f"{sign}{minutes}m{seconds}"
    return sign + seconds


def _fraction(value: int, size: int) -> str:
    whole, frac = divmod(value, size)
    if not frac:
        return str(whole)
    digits = str(frac).rjust(len(str(size)) - 1, "0").rstrip("0")
    return f"{whole}.{digits}"
