"""Every problem of a load, kept in input order and capped, then raised together.

Looking up a problem's line and column costs a parse of its document, so past
``MAX_REPORTED`` problems only their number is kept: a snapshot with the same typo in
150,000 pods still ends in bounded time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..errors import KschedError, KschedErrors, Location
from ..yamlcore import Duplicate
from .checks import duplicate_problem

MAX_REPORTED = 100


class ProblemList:
    def __init__(self) -> None:
        self.errors: list[KschedError] = []
        self.hidden = 0  # problems found beyond MAX_REPORTED

    def full(self) -> bool:
        """True (and the problem counted) once the list holds MAX_REPORTED problems."""
        if len(self.errors) < MAX_REPORTED:
            return False
        self.hidden += 1
        return True

    def record(self, error: KschedError) -> None:
        if not self.full():
            self.errors.append(error)

    def report(self, build: Callable[[], KschedError]) -> None:
        """Record the error ``build`` makes, calling it only while the list is not full."""
        if not self.full():
            self.errors.append(build())

    def raise_any(self) -> None:
        if not self.errors:
            return
        if len(self.errors) == 1 and not self.hidden:
            raise self.errors[0]
        raise KschedErrors(self.errors, self.hidden)


def duplicate_error(
    duplicate: Duplicate,
    document: Any,
    path: Path,
    describe: Callable[[Any], str],
) -> tuple[int | None, str, KschedError | None]:
    """A repeated key as one line at its own position.

    Returns the List item index (or None), the object's description and the error; the
    error is None when the decoder could not place the key (the caller then looks the
    field up as for any other problem).
    """
    in_list = isinstance(document, Mapping) and is_list(document)
    item, problem = duplicate_problem(duplicate, in_list)
    raw = document
    if item is not None and isinstance(document, Mapping):
        items = document.get("items")
        raw = items[item] if isinstance(items, list) and item < len(items) else None
    what = describe(raw)
    if not duplicate.line:
        return item, what, None
    number = duplicate.document + 1
    shown = f"items[{item}].{problem.field}" if item is not None else problem.field
    location = Location(str(path), duplicate.line, duplicate.column, number)
    label = f"{what} (document {number}): {shown}"
    return item, what, KschedError(problem.message, location, label)


def is_list(document: Mapping[str, Any]) -> bool:
    """``kind: List``, or a typed list (``PodList``) with ``items``."""
    kind = document.get("kind")
    if not isinstance(kind, str):
        return False
    return kind == "List" or (kind.endswith("List") and "items" in document)
