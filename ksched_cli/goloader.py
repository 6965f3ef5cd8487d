"""PyYAML's safe loader typing scalars as go-yaml v2 does: the standard reader of YAML.

Manifests and built-in profiles are read by ``blockyaml`` and ``fastyaml`` first; this
loader reads what those leave, and is the reference they are tested against. Importing
it imports PyYAML, which a plan of plain manifests does without.
"""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path
from typing import Any

import yaml

from . import goresolve
from .errors import KschedError, Location
from .gotyping import go_key
from .yamlio import GO_PLAIN, read_text

_BASE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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
