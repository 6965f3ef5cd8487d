"""A faster PyYAML safe load for the YAML that manifests are made of.

PyYAML's CSafeLoader parses in C but builds nodes and values in Python through a
generic two-phase constructor; on a 150,000-pod snapshot that is most of the load
time. Here the C parser's events are turned into dicts and lists directly, and the
type of each distinct plain scalar is resolved once (names, label values and keys
repeat a lot), by go-yaml v2's rules (``goresolve``). The result equals
``yaml.load_all(text, yamlio.FAST_LOADER)``.

Anything outside that common subset (anchors and aliases, explicit tags, ``<<``
merge keys, complex keys) and every syntax error raise ``Unsupported`` / YAMLError,
and the caller reads the file again with the standard loader, which then either
produces the same values or reports the error at its position.

Two things the safe loader lets pass are noted on the way, as the API server's strict
decoding rejects them: a key repeated in one mapping (recorded in ``duplicates``; the
last value wins in the result, as in the safe loader) and nesting deeper than
``MAX_DEPTH`` (``TooDeep``, raised at once, so the reading stays bounded).
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.events import (
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)

from ..yamlcore import (
    MAX_DEPTH,
    Duplicate,
    Scalars,
    TooDeep,
    Unsupported,
    duplicate_at,
    plain_key,
)

_Parser: Any
try:
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - pure-Python PyYAML build
    _Parser = None

STR_TAG = "tag:yaml.org,2002:str"
_MISSING = object()
def available() -> bool:
    return _Parser is not None


def load_all(text: str, duplicates: list[Duplicate] | None = None) -> list[Any]:
    """Every document of ``text``; raises Unsupported, TooDeep or yaml.YAMLError.

    Keys repeated within a mapping are appended to ``duplicates`` when it is given.
    """
    if _Parser is None:  # pragma: no cover
        raise Unsupported("no C parser")
    parser = _Parser(text)
    try:
        return _build(parser.get_event, Scalars(), [] if duplicates is None else duplicates)
    except yaml.YAMLError as exc:
        raise as_too_deep(exc) or exc from None
    finally:
        parser.dispose()


# libyaml's own nesting limit (0.2.6, in PyYAML 6.0.4's wheels) also stops at 1,000 levels:
# reported as ksched's own limit, so a release of PyYAML does not change the message.
LIBYAML_TOO_DEEP = "exceeded maximum nesting depth"


def as_too_deep(exc: yaml.YAMLError) -> TooDeep | None:
    """libyaml's nesting-limit error as TooDeep at its position; None for any other error."""
    mark = getattr(exc, "problem_mark", None)
    if getattr(exc, "problem", None) != LIBYAML_TOO_DEEP or mark is None:
        return None
    return TooDeep(mark.line + 1, mark.column + 1)


def _scalar(event: ScalarEvent, scalars: Scalars) -> Any:
    if event.anchor is not None:
        raise Unsupported("anchor")
    tag = event.tag
    if tag is None or tag == "!":
        return scalars.plain(event.value) if event.implicit[0] else event.value
    if tag == STR_TAG:
        return event.value
    raise Unsupported(tag)


def _build(get_event: Any, scalars: Scalars, duplicates: list[Duplicate]) -> list[Any]:
    documents: list[Any] = []
    # The innermost open container and, for a mapping, its pending key live in locals
    # (this loop runs per event); the enclosing ones wait on the stacks.
    top: Any = None  # None: no container open (at the document's top)
    key: Any = _MISSING
    in_list = False
    stack: list[Any] = []
    keys: list[Any] = []
    root: Any = None
    cache_get = scalars.cache.get
    while True:
        event = get_event()
        cls = type(event)
        if cls is ScalarEvent:
            # Inlined common case (untagged, unanchored): this line runs per scalar.
            if event.tag is None and event.anchor is None:
                value = event.value
                if event.implicit[0]:
                    value = cache_get(value, _MISSING)
                    if value is _MISSING:
                        value = scalars.plain(event.value)
            else:
                value = _scalar(event, scalars)
            if in_list:
                top.append(value)
            elif key is not _MISSING:
                top[key] = value
                key = _MISSING
            elif top is None:
                root = value
            else:  # a key
                if type(value) is not str:  # a JSON key, as sigs.k8s.io/yaml makes it
                    value = plain_key(event.value)
                if value in top:
                    mark = event.start_mark
                    duplicates.append(
                        duplicate_at(
                            len(documents), [*stack[1:], top], value, mark.line + 1, mark.column + 1
                        )
                    )
                key = value
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            top = stack.pop()
            key = keys.pop()
            in_list = type(top) is list
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            if event.anchor is not None or (not event.implicit and event.tag is not None):
                raise Unsupported("anchor or tag on a collection")
            if len(stack) >= MAX_DEPTH:
                raise TooDeep(event.start_mark.line + 1, event.start_mark.column + 1)
            value = {} if cls is MappingStartEvent else []
            if in_list:
                top.append(value)
            elif key is not _MISSING:
                top[key] = value
            elif top is None:
                root = value
            else:
                raise Unsupported("complex key")
            stack.append(top)
            keys.append(_MISSING)  # the enclosing mapping's key is used up
            top, key, in_list = value, _MISSING, cls is SequenceStartEvent
        elif cls is DocumentStartEvent or cls is StreamStartEvent:
            root = None
        elif cls is DocumentEndEvent:
            documents.append(root)
        elif cls is StreamEndEvent:
            return documents
        else:  # AliasEvent
            raise Unsupported(cls.__name__)
