"""What the API server would refuse in an object ksched reads, as (field, message) problems.

Strict field validation against the kind's published schema, by apiVersion and kind so
every kind the loader reads is covered, with the value rules of each API type run in the
same walk (``strict``, ``validation``). Kinds without a published schema (CRDs such as
PodGroup) get the kind-level rules only (name, namespace). Schemas load on the first
object, never on paths that read none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import KUBE_SCHEDULER_VERSION
from ..api.validation import go_quote
from ..errors import ObjectError
from ..versions.releases import features_for, minor_version
from ..yamlcore import Duplicate
from . import strict
from .validation import ANNOTATIONS_LIMIT, ANNOTATIONS_TOO_LONG, object_rule, too_long


def check_object(
    kind: str,
    api_version: str,
    raw: Mapping[str, Any],
    namespaced: bool,
    version: str = KUBE_SCHEDULER_VERSION,
) -> list[ObjectError]:
    """Every problem found in ``raw``, in field order within each check; [] if none."""
    problems = object_rule(kind, raw, namespaced)
    shape = strict.kind_shape(api_version, kind, version)
    if shape is not None:
        problems.extend(strict.field_problems(raw, shape))
    return [ObjectError(printable(path), _in_release_words(message, version))
            for path, message in problems]


def _in_release_words(message: str, version: str) -> str:
    """A message whose wording changed between releases, as ``version`` words it."""
    if message is ANNOTATIONS_TOO_LONG:
        omitted = features_for(minor_version(version)).too_long_value_omitted
        return too_long(ANNOTATIONS_LIMIT, omitted)
    return message


def printable(path: str) -> str:
    """A field path fit for one output line: control characters escaped as Go would."""
    return path if path.isprintable() else go_quote(path)[1:-1]


def duplicate_problem(duplicate: Duplicate, in_list: bool) -> tuple[int | None, ObjectError]:
    """A repeated key as the API server reports it, relative to its object.

    Returns the ``items`` index when the document is a List, and the problem whose
    field is the path inside that object.
    """
    path = duplicate.field
    item = None
    if in_list and path.startswith("items["):
        index, _, rest = path[len("items["):].partition("]")
        if index.isdigit() and rest.startswith("."):
            item, path = int(index), rest[1:]
    return item, ObjectError(printable(path), strict.duplicate_field_message(path))
