"""YAML/JSON reading: fast decoding for manifests, positioned decoding for errors and configs.

Manifests are decoded with PyYAML's C loader when available (speed matters for
large snapshots); when something in them is wrong, the file is decoded again
with ruamel.yaml to find the line and column of the offending field. ruamel.yaml is
imported only then (and for configuration files), not on a plan's fast path.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from . import goresolve, readers
from .errors import KschedError, Location
from .gotyping import go_key

_BASE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# The tag of every plain scalar, resolved by go-yaml v2's rules when it is constructed.
GO_PLAIN = "tag:ksched,2026:go-plain"


def number_too_long(value: str) -> str:
    """Why an integer literal past Python's conversion limit is refused (its conversion
    would take time quadratic in its length; no Kubernetes field holds one)."""
    digits = sum(ch.isdigit() for ch in value)
    return (
        f"an integer of {digits} digits: ksched reads at most "
        f"{sys.get_int_max_str_digits()} (no Kubernetes field holds more than 20)"
    )


class _Loader(_BASE_LOADER):  # type: ignore[misc]
    """The safe loader with go-yaml v2's typing (as kubectl and kube-scheduler read YAML):
    every plain scalar is resolved by ``goresolve``, not by PyYAML's YAML 1.1 patterns,
    values read back as sigs.k8s.io/yaml's JSON has them and keys are JSON strings."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is yaml.ScalarNode and implicit[0]:
            return goresolve.MERGE if value == "<<" else GO_PLAIN
        return super().resolve(kind, value, implicit)

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, yaml.MappingNode):
            self.flatten_mapping(node)
        mapping: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            mapping[self._key(node, key_node, deep)] = self.construct_object(value_node, deep)
        return mapping

    def _key(self, node: Any, key_node: Any, deep: bool) -> Any:
        """A scalar key as sigs.k8s.io/yaml writes it (from its Go value, not its JSON one)."""
        if not isinstance(key_node, yaml.ScalarNode):
            key = self.construct_object(key_node, deep)
            if not isinstance(key, Hashable):
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping", node.start_mark, "found unhashable key",
                    key_node.start_mark)
            return key
        try:
            if key_node.tag == GO_PLAIN:
                return go_key(goresolve.resolve_plain(key_node.value)[1])
            if key_node.tag == goresolve.STR:
                return key_node.value
            return go_key(goresolve.resolve_tagged(key_node.tag, key_node.value))
        except ValueError as exc:  # a null or uint64 key, or a tag its text cannot have
            raise yaml.constructor.ConstructorError(
                None, None, str(exc), key_node.start_mark) from None


def _go_plain(loader: Any, node: Any) -> Any:
    try:
        return goresolve.plain_value(node.value)
    except goresolve.NonFinite as exc:
        raise yaml.constructor.ConstructorError(None, None, str(exc), node.start_mark) from None


def _go_tagged(loader: Any, node: Any) -> Any:
    """A node with an explicit tag: go-yaml v2 ignores tags on collections, types a scalar
    by its tag when it is one of the core types and keeps the text for any other tag."""
    if isinstance(node, yaml.ScalarNode):
        if node.tag == goresolve.STR:
            return node.value
        try:
            return goresolve.json_value(goresolve.resolve_tagged(node.tag, node.value))
        except ValueError as exc:
            raise yaml.constructor.ConstructorError(
                None, None, str(exc), node.start_mark) from None
    if isinstance(node, yaml.MappingNode):
        return loader.construct_yaml_map(node)
    return loader.construct_yaml_seq(node)


_Loader.add_constructor(GO_PLAIN, _go_plain)
# A "<<" that is not a mapping key is the string "<<" to go-yaml v2.
_Loader.add_constructor(goresolve.MERGE, lambda loader, node: node.value)
for _tag in ("str", "int", "float", "bool", "null", "binary", "timestamp",
             "set", "omap", "pairs", "seq", "map"):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _go_tagged)
_Loader.add_constructor(None, _go_tagged)

# PyYAML's C loader when it is built in (every reader of plain data uses it).
FAST_LOADER: Any = _Loader

if TYPE_CHECKING:
    from ruamel.yaml import YAML


def read_text(path: Path) -> str:
    """A regular file's text, within the input size limit (see ``readers``)."""
    return readers.read_text(path)


def load_documents(path: Path, text: str | None = None) -> list[Any]:
    """Every document of a YAML or JSON file, as plain Python values (fast path)."""
    text = read_text(path) if text is None else text
    try:
        return list(yaml.load_all(text, Loader=FAST_LOADER))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Location(str(path), mark.line + 1, mark.column + 1) if mark else Location(str(path))
        problem = exc.problem or exc.context or "invalid YAML"
        raise KschedError(f"invalid YAML: {problem}", loc) from None
    except yaml.YAMLError as exc:
        raise KschedError(f"invalid YAML: {exc}", Location(str(path))) from None


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
