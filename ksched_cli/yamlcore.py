"""What ksched's YAML readers share, without PyYAML: limits, errors, repeated keys and
scalars typed as go-yaml v2 types them (``goresolve``).

Kept apart from the readers so that a plan whose manifests ``blockyaml`` reads never
imports PyYAML (a sixth of a small plan's start-up).
"""

from __future__ import annotations

import itertools
import sys
from typing import Any, NamedTuple

from .goresolve import NonFinite, plain_value, resolve_plain
from .gotyping import go_key

_MISSING = object()
# Objects and lists inside one another; Kubernetes objects use fewer than 30 levels.
MAX_DEPTH = 1000


class Unsupported(Exception):
    """The text uses YAML features this reader leaves to the standard loader."""


class TooDeep(Exception):
    """Collections nested deeper than MAX_DEPTH; line and column are 1-based (0: unknown)."""

    def __init__(self, line: int, column: int, message: str = "") -> None:
        super().__init__(message or f"nested more than {MAX_DEPTH} levels deep")
        self.line = line
        self.column = column


class NumberTooLong(TooDeep):
    """An integer literal past Python's conversion limit (see number_too_long)."""

    def __init__(self, value: str, line: int = 0, column: int = 0) -> None:
        super().__init__(line, column, number_too_long(value))
        self.value = value


class Duplicate(NamedTuple):
    """A key given twice in one mapping: 0-based document, field path, 1-based position."""

    document: int
    field: str
    line: int
    column: int


def field_path(parts: list[Any]) -> str:
    """``['spec', 'containers', 0, 'image']`` -> ``spec.containers[0].image``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


class Scalars:
    """Plain scalars typed as go-yaml v2 types them (``goresolve``), memoized."""

    def __init__(self) -> None:
        self.cache: dict[str, Any] = {}

    def plain(self, value: str) -> Any:
        cached = self.cache.get(value, _MISSING)
        if cached is _MISSING:
            if value == "<<":
                raise Unsupported("merge key")  # the standard loader merges it
            try:
                cached = self.cache[value] = plain_value(value)
            except NonFinite:
                raise Unsupported("NaN or infinity") from None  # the loader reports it
        return cached


def number_too_long(value: str) -> str:
    """Why an integer literal past Python's conversion limit is refused (its conversion
    would take time quadratic in its length; no Kubernetes field holds one)."""
    digits = sum(ch.isdigit() for ch in value)
    return (
        f"an integer of {digits} digits: ksched reads at most "
        f"{sys.get_int_max_str_digits()} (no Kubernetes field holds more than 20)"
    )


def duplicate_at(document: int, path: list[Any], key: Any, line: int, column: int) -> Duplicate:
    """``key`` repeated in ``path[-1]``, the innermost of the open containers ``path``
    (from the document's root), at 1-based ``line`` and ``column``."""
    parts: list[Any] = []
    for container, child in itertools.pairwise(path):
        if type(container) is list:
            parts.append(len(container) - 1)  # the child is the item being read: the last
        else:
            parts.append(next(k for k, v in container.items() if v is child))
    parts.append(key)
    return Duplicate(document, field_path(parts), line, column)


def plain_key(text: str) -> str:
    """A plain key that is not a string to go-yaml, as sigs.k8s.io/yaml writes it."""
    try:
        return go_key(resolve_plain(text)[1])
    except ValueError:  # a null or uint64 key: the standard loader reports it
        raise Unsupported("key") from None
