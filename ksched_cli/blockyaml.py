"""Block-style YAML read line by line, without a parser's events.

Manifests as kubectl, Helm and most editors write them use a small part of YAML:
block mappings and sequences by indentation, one scalar per line (plain, or quoted
without escapes), ``{}`` and ``[]``, comments and ``---`` between documents. For that
part a line tells its own structure, and reading lines with string methods is about
twice as fast as turning libyaml's events into Python objects (each event is a
Python object with two marks). Scalars are typed as go-yaml v2 types them
(``yamlcore.Scalars``). It imports no YAML library.

A document with anything outside that part (flow collections with content, block
scalars, anchors, tags, escapes, a scalar over several lines, tabs, an unusual
indentation) is given whole to the caller's reader of one document (for manifests,
``fastyaml``); the other documents of the file stay on the fast path. When that
reader refuses such a document too, or there is none, ``Unsupported`` sends the whole
text back to the caller, whose slower readers report the error with its position. So
when this returns, the documents and the repeated keys are what the standard loader
(``goloader``) and ``fastyaml`` give for the whole text (tests hold it to that on
generated and mutated manifests).
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable
from typing import Any

from .yamlcore import MAX_DEPTH, Duplicate, Scalars, Unsupported, duplicate_at, plain_key

# Reads one document's text that blockyaml leaves (with its repeated keys), or raises
# Unsupported; manifests pass fastyaml's reader (ksched_cli/manifests/files.py).
ReadDocument = Callable[[str, list[Duplicate]], list[Any]]

_MISSING: Any = object()
# Characters the fast reader leaves alone, wherever they are: tabs, carriage returns,
# YAML's other line breaks, the byte-order mark and what YAML calls non-printable.
# Compiled only for text that is not plain ASCII (its astral ranges take milliseconds).
_AWKWARD = "[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
_PLAIN_ASCII = bytes(range(0x20, 0x7F)) + b"\n"
# A plain scalar may not start with these (``-`` only when no space follows: ``-1``).
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_EMPTY_FLOW = {"{}": dict, "[]": list}
# Items opened on one line (``- - - x``): each level slices the rest of the line, so a
# deeper line is fastyaml's, which reads it in linear time.
MAX_ITEMS_ON_A_LINE = 16


def load_all(
    text: str, duplicates: list[Duplicate], read_document: ReadDocument | None = None
) -> list[Any]:
    """Every document of ``text``; ``Unsupported`` (with ``duplicates`` cleared) when
    some document is one neither this reader nor ``read_document`` reads on its own."""
    if "\r" in text and text.count("\r") == text.count("\r\n"):
        text = text.replace("\r\n", "\n")  # a line break all the same, at the same places
    reader = _Reader(text.split("\n"), duplicates, _awkward_lines(text), read_document)
    try:
        start = 0
        while start < len(reader.lines):
            start = reader.document(start)
    except Unsupported:
        duplicates.clear()
        raise
    return reader.documents


def _awkward_lines(text: str) -> list[int]:
    """The 0-based lines holding a character ``_AWKWARD`` matches, in order (usually none)."""
    if text.isascii() and not text.encode("ascii").translate(None, _PLAIN_ASCII):
        return []
    lines: list[int] = []
    line = at = 0
    for found in _awkward().finditer(text):
        line += text.count("\n", at, found.start())
        at = found.start()
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


@functools.cache
def _awkward() -> re.Pattern[str]:
    return re.compile(_AWKWARD)


def _is_marker(line: str) -> bool:
    """A ``---`` line: the start of a document (in column 0, YAML has no other meaning)."""
    return line.startswith("---") and (len(line) == 3 or line[3] == " ")


class _Reader:
    """The documents read so far, and what repeats across them: typed keys and values."""

    def __init__(
        self,
        lines: list[str],
        duplicates: list[Duplicate],
        awkward: list[int],
        read_document: ReadDocument | None,
    ) -> None:
        self.lines = lines
        self.read_document = read_document
        self.duplicates = duplicates
        self.awkward = awkward
        self.documents: list[Any] = []
        self.scalars = Scalars()
        self.keys: dict[str, Any] = {}  # a key's text before ": " -> the key
        self.values: dict[str, Any] = {}  # the text after a key's ": " -> its scalar
        # A whole line "key: scalar" -> (column, key, value): manifests repeat most of
        # their lines word for word (cpu: 100m, kind: Pod), and a mapping's next key is the
        # common case, so such a line is one lookup.
        self.entries: dict[str, tuple[int, Any, Any]] = {}

    def document(self, start: int) -> int:
        """Read the document at line ``start`` (its ``---``, or the stream's first line)
        and return the line where the next one starts; a document this reader does not
        read is given whole to ``read_document``."""
        noted = len(self.duplicates)
        try:
            awkward = self.awkward
            if awkward:
                first = bisect.bisect_left(awkward, start)
                if first < len(awkward) and awkward[first] < self._end(start):
                    raise Unsupported("character")
            return self._read(start)
        except Unsupported:
            del self.duplicates[noted:]
            return self._read_elsewhere(start)

    def _end(self, start: int) -> int:
        lines = self.lines
        for number in range(start + 1, len(lines)):
            if lines[number][:3] == "---" and _is_marker(lines[number]):
                return number
        return len(lines)

    def _read_elsewhere(self, start: int) -> int:
        if self.read_document is None:
            raise Unsupported("document")
        end = self._end(start)
        found: list[Duplicate] = []
        documents = self.read_document("\n".join(self.lines[start:end]), found)
        first = len(self.documents)
        self.duplicates.extend(
            dup._replace(document=dup.document + first, line=dup.line + start) for dup in found
        )
        self.documents.extend(documents)
        return end

    def _read(self, start: int) -> int:
        # One loop with its state in locals: it runs per line, and calls cost. The open
        # collections wait on ``stack`` as (container, column, indentless); ``top`` is the
        # innermost, its entries at column ``indent``. ``pending`` is a slot (the root, a
        # key's value, an item) whose value starts on a later line or further right, past
        # ``pending_col``; a sequence at its key's own column is ``indentless``.
        lines = self.lines
        scalars = self.scalars
        keys = self.keys
        keys_get = keys.get
        values = self.values
        values_get = values.get
        entries = self.entries
        entries_get = entries.get
        started = False
        root: Any = None
        top: Any = None
        indent = -1
        indentless = False
        stack: list[tuple[Any, int, bool]] = []
        pending = True
        pending_col = -1
        key: Any = None
        number = start
        if _is_marker(lines[start]):
            if lines[start][3:].lstrip(" ")[:1] not in ("", "#"):
                raise Unsupported("content after ---")
            started = True
            number += 1
        end = len(lines)
        while number < end:
            line = lines[number]
            number += 1
            entry = entries_get(line)
            if (
                entry is not None
                and not pending
                and entry[0] == indent
                and type(top) is dict
                and entry[1] not in top
            ):
                top[entry[1]] = entry[2]
                continue
            if not line:
                continue
            inner_levels = 0  # items opened on this line so far (``- - x``, ``- a: 1``)
            first = line[0]
            if first == " ":
                rest = line.lstrip(" ")
                if not rest or rest[0] == "#":
                    continue
                col = len(line) - len(rest)
            elif first == "#":
                continue
            elif first == "-" and _is_marker(line):
                number -= 1
                break
            elif first == "." and line.startswith("..."):
                raise Unsupported("document end marker")
            else:
                rest, col = line, 0
            started = True
            while True:
                dash = rest[0] == "-" and (len(rest) == 1 or rest[1] == " ")
                if pending:
                    pending = False
                    if col > pending_col or (dash and col == indent and type(top) is dict):
                        value: Any = [] if dash else {}
                        if top is None:
                            root = value
                        elif type(top) is list:
                            top.append(value)
                        else:
                            top[key] = value
                        if len(stack) >= MAX_DEPTH:
                            raise Unsupported("depth")  # fastyaml reports it at its position
                        stack.append((top, indent, indentless))
                        indentless = col == indent
                        top, indent = value, col
                    elif type(top) is list:
                        top.append(None)  # an empty item (an empty key's value is None already)
                if col != indent:
                    while col < indent:
                        top, indent, indentless = stack.pop()
                    if col != indent:
                        raise Unsupported("indentation")
                if dash:
                    if type(top) is not list:
                        raise Unsupported("item in a mapping")
                    inner = rest[1:].lstrip(" ")
                    if not inner or inner[0] == "#":
                        pending, pending_col = True, col
                        break
                    if (inner[0] == "-" and (len(inner) == 1 or inner[1] == " ")) or _is_key(inner):
                        pending, pending_col = True, col
                        col += len(rest) - len(inner)
                        rest = inner
                        inner_levels += 1
                        if inner_levels > MAX_ITEMS_ON_A_LINE:
                            raise Unsupported("items nested on one line")  # slicing per level
                        continue
                    top.append(_value(_value_text(inner), scalars))
                    break
                if type(top) is list:
                    if not indentless:
                        raise Unsupported("key in a sequence")
                    top, indent, indentless = stack.pop()
                colon = rest.find(": ")
                if colon < 0:
                    if rest[-1] != ":":
                        raise Unsupported("scalar where a key was expected")
                    colon = len(rest) - 1
                word = rest[:colon]
                key = keys_get(word, _MISSING)
                if key is _MISSING:
                    key, text = _key_and_value(rest, word, scalars)
                    if word[0] != '"' and word[0] != "'":
                        keys[word] = key  # a plain key on its own, as read: the same next time
                else:
                    text = rest[colon + 2 :]
                if key in top:
                    path = [frame[0] for frame in stack[1:]]
                    path.append(top)
                    self.duplicates.append(
                        duplicate_at(len(self.documents), path, key, number, col + 1)
                    )
                value = values_get(text, _MISSING)
                if value is _MISSING:
                    cleaned = _value_text(text.lstrip(" "))
                    if not cleaned:
                        top[key] = None  # replaced if a nested collection follows
                        pending, pending_col = True, col
                        break
                    value = _value(cleaned, scalars)
                    if cleaned in _EMPTY_FLOW:
                        top[key] = value  # a new container each time
                        break
                    values[text] = value  # the same text after a key is the same value
                top[key] = value
                if not inner_levels:  # the whole line is this entry
                    entries[line] = (col, key, value)
                break
        if started:
            if pending and type(top) is list:
                top.append(None)
            self.documents.append(root)
        return number


def _key_and_value(rest: str, word: str, scalars: Scalars) -> tuple[Any, str]:
    """A key line's key and the text after its ``: ``; ``word`` is the line up to its
    first ``: `` (the key, when it is plain)."""
    if rest[0] == '"' or rest[0] == "'":
        key, end = _quoted(rest)
        tail = rest[end:]
        if tail[:1] != ":" or (len(tail) > 1 and tail[1] != " "):
            raise Unsupported("quoted scalar without a key")
        return key, tail[2:]
    if not word or word[0] in _INDICATORS or word[-1] == " " or " #" in word:
        raise Unsupported("key")
    key = scalars.plain(word)
    if type(key) is not str:
        key = plain_key(word)
    return key, rest[len(word) + 2 :]


def _value(text: str, scalars: Scalars) -> Any:
    """A scalar, ``{}`` or ``[]`` (comment and surrounding spaces already removed)."""
    first = text[0]
    if first in _INDICATORS:
        if first == '"' or first == "'":
            value, end = _quoted(text)
            tail = text[end:]
            if tail and (tail[0] != " " or tail.lstrip(" ")[0] != "#"):
                raise Unsupported("text after a quoted scalar")
            return value
        empty = _EMPTY_FLOW.get(text)
        if empty is not None:
            return empty()
        if first != "-" or text[1:2] in ("", " "):
            raise Unsupported("indicator")
    if ": " in text or text[-1] == ":":
        raise Unsupported("mapping value in a scalar")
    return scalars.plain(text)


def _is_key(rest: str) -> bool:
    """Whether an item's content starts a mapping (``- a: 1``, ``- "a": 1``)."""
    if rest[0] == '"' or rest[0] == "'":
        tail = rest[_quoted(rest)[1] :]
        return tail[:1] == ":" and (len(tail) == 1 or tail[1] == " ")
    colon = rest.find(": ")
    if colon < 0:
        colon = len(rest) - 1 if rest[-1] == ":" else -1
    return colon >= 0 and " #" not in rest[:colon]


def _value_text(text: str) -> str:
    """A value's text (spaces before it removed) without a trailing comment and spaces;
    a quoted scalar keeps its tail, which ``_value`` checks."""
    if not text or text[0] == "#":
        return ""
    if text[0] == '"' or text[0] == "'":
        return text.rstrip(" ")
    hash_at = text.find(" #")
    if hash_at >= 0:
        text = text[:hash_at]
    return text.rstrip(" ")


def _quoted(text: str) -> tuple[str, int]:
    """A quoted scalar that ends on its line, and the index just past its closing quote."""
    if text[0] == '"':
        end = text.find('"', 1)
        if end < 0 or "\\" in text[1:end]:
            raise Unsupported("escape or line break in a double-quoted scalar")
        return text[1:end], end + 1
    start = 1
    while True:
        end = text.find("'", start)
        if end < 0:
            raise Unsupported("line break in a single-quoted scalar")
        if text[end + 1 : end + 2] != "'":
            return text[1:end].replace("''", "'"), end + 1
        start = end + 2


