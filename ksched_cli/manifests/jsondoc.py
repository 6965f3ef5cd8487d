"""A JSON manifest decoded by the json module, with repeated keys and deep nesting caught.

The json module keeps the last of repeated keys silently; a pairs hook (one C-built
list per object, the cheapest place the module offers) notices them, and only then is
the text scanned again for their field paths and positions. The module's own nesting
limit (the interpreter's recursion limit) ends in ``TooDeep`` rather than a traceback.
PyYAML is imported on those two paths only, so reading JSON does without it.
"""

from __future__ import annotations

import json
from typing import Any

from ..yamlcore import Duplicate, NumberTooLong, TooDeep
from ..yamlio import locate_scalar, long_integer


def json_document(text: str, duplicates: list[Duplicate]) -> Any:
    """The one JSON value of ``text``; raises ValueError when it is not JSON."""
    repeated: list[str] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        value = dict(pairs)
        if len(value) != len(pairs):
            repeated.extend(_repeated(pairs))
        return value

    try:
        document = json.JSONDecoder(object_pairs_hook=pairs_hook).decode(text)
    except RecursionError:
        raise _too_deep(text) from None
    except json.JSONDecodeError:
        raise
    except ValueError:
        # An integer past Python's conversion limit: refused here, at its position (read
        # as YAML it would be a string, as go-yaml v2 reads it, which JSON input is not).
        value = long_integer(text)
        if not value:
            raise
        raise NumberTooLong(value, *locate_scalar(text, value)) from None
    if repeated:
        duplicates.extend(_locate(text, repeated))
    return document


def _repeated(pairs: list[tuple[str, Any]]) -> list[str]:
    seen: set[str] = set()
    out = []
    for key, _ in pairs:
        if key in seen:
            out.append(key)
        seen.add(key)
    return out


def _locate(text: str, repeated: list[str]) -> list[Duplicate]:
    """Paths and positions from the YAML parser (JSON is YAML's flow style); bare keys if not."""
    import yaml  # PyYAML: only once a key is found repeated

    from .yamlscan import scan_events

    try:
        found = scan_events(text)
    except (yaml.YAMLError, TooDeep):
        found = []
    if len(found) == len(repeated):
        return found
    return [Duplicate(0, key, 0, 0) for key in repeated]


def _too_deep(text: str) -> TooDeep:
    import yaml  # PyYAML: only for a document too deep for the json module

    from .yamlscan import scan_events

    try:
        scan_events(text)
    except TooDeep as exc:
        return exc
    except yaml.YAMLError:
        pass
    return TooDeep(0, 0, "nested too deeply for Python's JSON decoder")
