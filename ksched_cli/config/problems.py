"""Configuration problems, worded like apimachinery's field.Error, as kube-scheduler prints them."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from ..errors import printable
from ..record import record

ERROR = "error"
WARNING = "warning"


@record(frozen=True)
class Problem:
    """One problem at ``field`` (the path kube-scheduler reports).

    ``at`` is where to point in the file when that differs from ``field``: a few
    v1.30 paths skip a level (e.g. ``scoringStrategy.shape`` for
    ``scoringStrategy.requestedToCapacityRatio.shape``) and defaults have no line.
    """

    field: str
    message: str
    at: str | None = None
    severity: str = ERROR

    @property
    def locate(self) -> str:
        return self.field if self.at is None else self.at


@record(frozen=True)
class GoRepr:
    """A value already rendered the way Go's ``%#v`` would print it."""

    text: str


def go_quote(text: str) -> str:
    """Go's ``%q`` (strconv.Quote): printable text as is, everything else escaped."""
    return '"' + printable(text.replace("\\", "\\\\").replace('"', '\\"')) + '"'


def go_value(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, GoRepr):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return go_string_slice(value)
    return json.dumps(value, sort_keys=True, default=str)


def go_string_slice(values: Sequence[str]) -> str:
    return "[]string{" + ", ".join(go_quote(v) for v in values) + "}"


def _with_detail(text: str, detail: str) -> str:
    return f"{text}: {detail}" if detail else text


def invalid(field: str, value: object, detail: str, at: str | None = None) -> Problem:
    return Problem(field, _with_detail(f"Invalid value: {go_value(value)}", detail), at)


def required(field: str, detail: str = "", at: str | None = None) -> Problem:
    return Problem(field, _with_detail("Required value", detail), at)


def duplicate(field: str, value: object, at: str | None = None) -> Problem:
    return Problem(field, f"Duplicate value: {go_value(value)}", at)


def forbidden(field: str, detail: str, at: str | None = None) -> Problem:
    return Problem(field, _with_detail("Forbidden", detail), at)


def not_supported(
    field: str, value: object, supported: Iterable[str], at: str | None = None
) -> Problem:
    detail = "supported values: " + ", ".join(go_quote(v) for v in supported)
    return Problem(field, f"Unsupported value: {go_value(value)}: {detail}", at)


def plain(field: str, message: str, at: str | None = None) -> Problem:
    """A framework error: kube-scheduler prints these without a field.Error prefix."""
    return Problem(field, message, at)


def warning(field: str, message: str, at: str | None = None) -> Problem:
    return Problem(field, message, at, WARNING)


def child(path: str, *names: str | int) -> str:
    """``child("a", "b", 0)`` -> ``a.b[0]``; an empty path yields a relative one."""
    for name in names:
        if isinstance(name, int):
            path = f"{path}[{name}]"
        elif path:
            path = f"{path}.{name}"
        else:
            path = name
    return path
