"""Line and column of a field in a manifest file, looked up only when reporting an error.

``yamlio.locate`` re-reads the whole file with ruamel.yaml, which takes minutes on a
150,000-pod snapshot. Here PyYAML's C parser streams events and the walk follows
only the field's path, skipping everything else, so no tree is built; when the
``---`` lines agree with the number of documents loaded, only the document in
question is parsed. The positions are the ones ruamel reports: a key's first
character, a list item's first character.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import yaml
from yaml.events import (
    CollectionEndEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from ..goloader import FAST_LOADER
from ..yamlio import split_path

GetEvent = Callable[[], Any]
# Compiled on first use (re caches it): only a faulty input is located.
_MARKER = r"^---(?=[ \t\r\n]|$)"


def field_position(
    text: str, document: int, field: str, documents: int | None = None
) -> tuple[int, int] | None:
    """1-based (line, column) of ``field`` in 0-based ``document``, or of its nearest parent.

    ``documents`` is how many documents the file was loaded as, if known.
    """
    span = document_span(text, document, documents) if documents is not None else None
    if span is not None:
        start, end = span
        found = _position(text[start:end], 0, field)
        if found is not None:
            return found[0] + text.count("\n", 0, start), found[1]
    return _position(text, document, field)


def document_span(text: str, document: int, documents: int) -> tuple[int, int] | None:
    """Start and end offsets of 0-based ``document``, found by its ``---`` line.

    None unless the ``---`` lines (plus a document before the first, if it has
    content) account for exactly ``documents`` documents: anything unusual
    (directives, ``...`` then content) falls back to parsing from the top.
    """
    starts = [m.start() for m in re.finditer(_MARKER, text, re.MULTILINE)]
    head = text[: starts[0]] if starts else text
    implicit = any(
        line.strip() and not line.lstrip().startswith(("#", "%")) for line in head.splitlines()
    )
    if implicit:
        starts.insert(0, 0)
    if len(starts) != documents or not 0 <= document < documents:
        return None
    end = starts[document + 1] if document + 1 < len(starts) else len(text)
    return starts[document], end


def _position(text: str, document: int, field: str) -> tuple[int, int] | None:
    loader = FAST_LOADER(text)
    try:
        get = loader.get_event
        if not _skip_documents(get, document):
            return None
        mark = _walk(get, get(), list(split_path(field)))
        return mark.line + 1, mark.column + 1
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()


def _skip_documents(get: GetEvent, count: int) -> bool:
    """Advance to just after document ``count``'s start; False if there are fewer documents."""
    seen = -1
    while True:
        event = get()
        if isinstance(event, StreamEndEvent):
            return False
        if isinstance(event, DocumentStartEvent):
            seen += 1
            if seen == count:
                return True


def _walk(get: GetEvent, event: Any, parts: list[str | int]) -> Any:
    """The mark of the deepest part of ``parts`` found from the node starting at ``event``."""
    mark = event.start_mark
    for part in parts:
        if isinstance(event, MappingStartEvent) and isinstance(part, str):
            found = _find_key(get, part)
        elif isinstance(event, SequenceStartEvent) and isinstance(part, int):
            found = _find_item(get, part)
        else:
            found = None
        if found is None:
            break
        mark, event = found
    return mark


def _find_key(get: GetEvent, key: str) -> tuple[Any, Any] | None:
    """After a mapping's start: the key's mark and the first event of its value.

    The last occurrence would win in the loader; a duplicated key is rare enough that
    the first is reported.
    """
    while True:
        key_event = get()
        if isinstance(key_event, CollectionEndEvent):
            return None
        if isinstance(key_event, ScalarEvent) and key_event.value == key:
            return key_event.start_mark, get()
        _skip_node(get, key_event)
        _skip_node(get, get())


def _find_item(get: GetEvent, index: int) -> tuple[Any, Any] | None:
    for _ in range(index):
        event = get()
        if isinstance(event, CollectionEndEvent):
            return None
        _skip_node(get, event)
    event = get()
    if isinstance(event, CollectionEndEvent):
        return None
    return event.start_mark, event


def _skip_node(get: GetEvent, event: Any) -> None:
    """Consume the rest of the node that starts with ``event``."""
    if not isinstance(event, CollectionStartEvent):
        return
    depth = 1
    while depth:
        event = get()
        if isinstance(event, CollectionStartEvent):
            depth += 1
        elif isinstance(event, CollectionEndEvent):
            depth -= 1
