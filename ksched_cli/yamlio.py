"""YAML/JSON reading shared by every reader: a file's text, and positioned decoding.

Manifests are decoded on fast paths (``blockyaml``, ``fastyaml``, ``goloader``); when
something in them is wrong, the file is decoded again with ruamel.yaml to find the
line and column of the offending field. ruamel.yaml is imported only then (and for
configuration files), not on a plan's fast path; nor is PyYAML imported here.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import goresolve, readers
from .errors import KschedError, Location
from .yamlcore import number_too_long

# The tag of every plain scalar, resolved by go-yaml v2's rules when it is constructed.
GO_PLAIN = "tag:ksched,2026:go-plain"

if TYPE_CHECKING:
    from ruamel.yaml import YAML


def read_text(path: Path) -> str:
    """A regular file's text, within the input size limit (see ``readers``)."""
    return readers.read_text(path)


def _positioned_loader() -> YAML:
    """ruamel's round-trip loader (it keeps positions), typing plain scalars as go-yaml v2
    does; its keys keep the value's type (``go_key`` makes them strings when read)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.constructor import ConstructorError, RoundTripConstructor
    from ruamel.yaml.nodes import ScalarNode
    from ruamel.yaml.resolver import VersionedResolver
    from ruamel.yaml.tag import Tag

    class GoResolver(VersionedResolver):
        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
            if kind is ScalarNode and implicit[0] and value != "<<":
                return Tag(suffix=GO_PLAIN)
            return super().resolve(kind, value, implicit)

    class GoConstructor(RoundTripConstructor):
        def construct_go_plain(self, node: Any) -> Any:
            try:
                return goresolve.plain_value(node.value)
            except goresolve.NonFinite as exc:
                raise ConstructorError(None, None, str(exc), node.start_mark) from None

    GoConstructor.add_constructor(GO_PLAIN, GoConstructor.construct_go_plain)
    loader = YAML(typ="rt")
    loader.Resolver = GoResolver
    loader.Constructor = GoConstructor
    loader.allow_duplicate_keys = False
    return loader


def load_positioned(path: Path, text: str | None = None) -> list[Any]:
    """Every document as ruamel round-trip nodes, which remember line and column."""
    from ruamel.yaml.error import MarkedYAMLError

    text = read_text(path) if text is None else text
    try:
        return list(_positioned_loader().load_all(text))
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Location(str(path), mark.line + 1, mark.column + 1) if mark else Location(str(path))
        problem = exc.problem or exc.context or "invalid YAML"
        raise KschedError(f"invalid YAML: {problem}", loc) from None
    except Exception as exc:  # ruamel raises several unrelated types for bad input
        message = str(exc)
        where = Location(str(path))
        value = long_integer(text) if isinstance(exc, ValueError) else ""
        if value:
            message = number_too_long(value)
            line, column = locate_scalar(text, value)
            where = Location(str(path), line or None, column or None)
        raise KschedError(f"invalid YAML: {message}", where) from None


def long_integer(text: str) -> str:
    """The first run of digits longer than Python converts, if any."""
    found = re.search(rf"[-+]?\d{{{sys.get_int_max_str_digits() + 1},}}", text)
    return found[0] if found else ""


def locate_scalar(text: str, value: str) -> tuple[int, int]:
    """1-based position of the first scalar ``value`` in ``text`` ((0, 0) if none)."""
    import yaml  # an error path: PyYAML is imported only now

    loader: Any = yaml.SafeLoader(text)
    try:
        while (event := loader.get_event()) is not None:
            if isinstance(event, yaml.ScalarEvent) and event.value == value:
                mark = event.start_mark
                return (mark.line + 1, mark.column + 1) if mark else (0, 0)
    except yaml.YAMLError:
        pass
    finally:
        loader.dispose()
    return 0, 0


_PART = re.compile(r"(?P<name>.*?)(?P<indexes>(?:\[[^\[\]]*\])*)")
_INDEX = re.compile(r"\[([^\[\]]*)\]")


def split_path(field: str) -> Iterator[str | int]:
    """``spec.containers[0].resources`` -> 'spec', 'containers', 0, 'resources'.

    A key that holds a bracket of its own (``x[r``) stays one name: only whole
    trailing ``[...]`` groups are indexes (map keys when not digits).
    """
    for part in field.split("."):
        match = _PART.fullmatch(part)
        name, indexes = (match["name"], match["indexes"]) if match else (part, "")
        if name:
            yield name
        for index in _INDEX.findall(indexes):
            yield int(index) if index.isdigit() and index.isascii() else index


def position_of(node: Any, field: str) -> tuple[int, int] | None:
    """1-based (line, column) of ``field`` inside a ruamel document, or of its nearest parent."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    best: tuple[int, int] | None = None
    current = node
    for part in split_path(field):
        if isinstance(current, CommentedMap) and isinstance(part, str) and part in current:
            line, col = current.lc.key(part)
            best = (line + 1, col + 1)
            current = current[part]
        elif isinstance(current, CommentedSeq) and isinstance(part, int) and part < len(current):
            line, col = current.lc.item(part)
            best = (line + 1, col + 1)
            current = current[part]
        else:
            break
    if best is None and isinstance(node, (CommentedMap, CommentedSeq)):
        best = (node.lc.line + 1, node.lc.col + 1)
    return best


def locate(path: Path, document: int, field: str, item: int | None = None) -> Location:
    """The position of ``field`` in document ``document`` (and ``kind: List`` item ``item``)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    try:
        docs = load_positioned(path)
    except KschedError:
        return Location(str(path), document=document)
    if document >= len(docs):
        return Location(str(path), document=document)
    node = docs[document]
    if item is not None and isinstance(node, CommentedMap):
        items = node.get("items")
        if isinstance(items, CommentedSeq) and item < len(items):
            node = items[item]
    pos = position_of(node, field)
    if pos is None:
        return Location(str(path), document=document)
    return Location(str(path), pos[0], pos[1], document)
