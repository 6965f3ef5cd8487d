"""Repeated keys and nesting depth from the YAML parser's events, without building values.

The fast reader (``fastyaml``) notes both while it builds; this scan serves the texts it
leaves to the standard loader (anchors, tags, merge keys) and locates the repeated keys
of a JSON file. It never recurses, so a hostile nesting depth costs no stack.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    DocumentStartEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from ..goloader import FAST_LOADER
from ..goresolve import resolve_plain
from ..gotyping import go_key
from ..yamlcore import MAX_DEPTH, Duplicate, TooDeep, field_path
from .fastyaml import as_too_deep

MERGE_KEY = "<<"


class _Frame:
    """An open mapping or sequence and where the walk is in it."""

    __slots__ = ("index", "is_map", "is_value", "key", "seen", "want_key")

    def __init__(self, is_map: bool, is_value: bool) -> None:
        self.is_map = is_map
        self.is_value = is_value  # the value of its parent mapping's key (not a key itself)
        self.seen: set[str] = set()
        self.key: str | None = None
        self.want_key = True
        self.index = 0


def scan_events(text: str) -> list[Duplicate]:
    """Every key repeated within one mapping; raises TooDeep, or yaml.YAMLError on bad syntax."""
    loader = FAST_LOADER(text)
    try:
        return _scan(loader.get_event)
    except yaml.YAMLError as exc:
        raise as_too_deep(exc) or exc from None
    finally:
        loader.dispose()


def _scan(get_event: Any) -> list[Duplicate]:
    found: list[Duplicate] = []
    stack: list[_Frame] = []
    document = -1
    while True:
        event = get_event()
        if isinstance(event, StreamEndEvent):
            return found
        if isinstance(event, DocumentStartEvent):
            document += 1
            stack.clear()
        elif isinstance(event, (MappingStartEvent, SequenceStartEvent)):
            if len(stack) >= MAX_DEPTH:
                mark: Any = event.start_mark
                raise TooDeep(mark.line + 1, mark.column + 1)
            is_value = _begin_node(stack, None, event, document, found)
            stack.append(_Frame(isinstance(event, MappingStartEvent), is_value))
        elif isinstance(event, CollectionEndEvent):
            frame = stack.pop()
            _end_node(stack, frame.is_value)
        elif isinstance(event, (ScalarEvent, AliasEvent)):
            key = _json_key(event) if isinstance(event, ScalarEvent) else None
            _end_node(stack, _begin_node(stack, key, event, document, found))


def _json_key(event: ScalarEvent) -> str:
    """A key as sigs.k8s.io/yaml writes it (``on`` and ``y`` are both ``true``)."""
    if event.tag is None and event.implicit[0] and event.value != MERGE_KEY:
        try:
            return go_key(resolve_plain(event.value)[1])
        except ValueError:  # a null or uint64 key: the loader refuses it
            return event.value
    return event.value


def _begin_node(
    stack: list[_Frame], key: str | None, event: Any, document: int, found: list[Duplicate]
) -> bool:
    """Account for a node starting in the innermost collection; True if it is a value."""
    if not stack or not stack[-1].is_map:
        return False
    frame = stack[-1]
    if not frame.want_key:
        return True
    frame.want_key = False
    frame.key = key
    if key is not None and key != MERGE_KEY:
        if key in frame.seen:
            mark = event.start_mark
            path = field_path([*_parts(stack[:-1]), key])
            found.append(Duplicate(document, path, mark.line + 1, mark.column + 1))
        frame.seen.add(key)
    return False


def _end_node(stack: list[_Frame], was_value: bool) -> None:
    if not stack:
        return
    frame = stack[-1]
    if not frame.is_map:
        frame.index += 1
    elif was_value:
        frame.want_key = True


def _parts(stack: list[_Frame]) -> list[Any]:
    return [frame.key if frame.is_map else frame.index for frame in stack]
