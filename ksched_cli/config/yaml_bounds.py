"""Bounds a configuration's YAML must keep before it becomes plain data.

kube-scheduler decodes its configuration with sigs.k8s.io/yaml, whose go-yaml decoder
counts every node it decodes and stops a document whose decoding is mostly alias
expansion ("document contains excessive aliasing", the billion-laughs guard), and
rejects an anchor whose value holds an alias to itself. ksched applies the same rule on
the parser's events, before any alias is expanded, so a few hundred bytes cannot cost
minutes and gigabytes. Nesting is capped too: no configuration field is deep, and
Python's stack is shallower than Go's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from typing import Any

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from ..errors import KschedError, Location
from ..goloader import FAST_LOADER
from ..record import record

# go-yaml's allowedAliasRatio: 99% of small documents may come from aliases, sliding
# down to 10% between 400,000 and 4,000,000 decoded nodes.
ALIAS_RATIO_RANGE_LOW = 400_000
ALIAS_RATIO_RANGE_HIGH = 4_000_000
# The ratio is only checked past these counts, as go-yaml does.
MIN_ALIASES, MIN_DECODES = 100, 1000
MAX_DEPTH = 100  # ksched's own limit on nested collections in a configuration file


def allowed_alias_ratio(decodes: int) -> float:
    if decodes <= ALIAS_RATIO_RANGE_LOW:
        return 0.99
    if decodes >= ALIAS_RATIO_RANGE_HIGH:
        return 0.10
    span = ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW
    return 0.99 - 0.89 * ((decodes - ALIAS_RATIO_RANGE_LOW) / span)


@record(eq=False)
class _Node:
    kind: str  # "scalar", "seq", "map", "alias"
    line: int
    column: int
    value: str = ""  # a scalar's text, an alias's anchor name
    plain: bool = False  # an unquoted scalar (a merge key must be one)
    children: list[_Node] = field(default_factory=list)
    target: _Node | None = None


def check_config_yaml(source: str, text: str) -> None:
    """Raise the positioned KschedError go-yaml's limits (and ksched's depth) give ``text``.

    Syntax errors are left to the positioned loader, which words them.
    """
    try:
        # PyYAML's C parser gives the same events ten times faster than ruamel's.
        documents = _compose(source, yaml.parse(text, Loader=FAST_LOADER))
    except yaml.YAMLError:
        try:
            documents = _compose(source, YAML(typ="rt").parse(text))
        except YAMLError:
            return
    for document in documents:
        _Decode(source).run(document)


def _error(source: str, node: _Node, message: str) -> KschedError:
    return KschedError(f"invalid YAML: {message}", Location(source, node.line, node.column))


def _compose(source: str, events: Iterable[Any]) -> list[_Node]:
    """Documents as light trees; an alias keeps a reference to its anchor's node."""
    documents: list[_Node] = []
    anchors: dict[str, _Node] = {}
    stack: list[_Node] = []
    for event in events:
        name = type(event).__name__
        line, column = event.start_mark.line + 1, event.start_mark.column + 1
        if name == "DocumentStartEvent":
            anchors = {}
            stack = [_Node("document", line, column)]
            documents.append(stack[0])
            continue
        if name in ("SequenceEndEvent", "MappingEndEvent"):
            stack.pop()
            continue
        if name == "AliasEvent":
            node = _Node("alias", line, column, str(event.anchor), target=anchors.get(event.anchor))
        elif name == "ScalarEvent":
            plain = not event.style and event.tag is None
            node = _Node("scalar", line, column, str(event.value), plain)
        elif name in ("SequenceStartEvent", "MappingStartEvent"):
            node = _Node("seq" if name == "SequenceStartEvent" else "map", line, column)
        else:
            continue
        if stack:
            stack[-1].children.append(node)
        anchor = getattr(event, "anchor", None)
        if anchor is not None and node.kind != "alias":
            anchors[str(anchor)] = node
        if node.kind in ("seq", "map"):
            if len(stack) > MAX_DEPTH:
                raise _error(source, node, f"nesting deeper than {MAX_DEPTH} levels")
            stack.append(node)
    return documents


class _Decode:
    """go-yaml's decoder bookkeeping (decodeCount, aliasCount, aliasDepth), without values."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.decodes = 0
        self.aliased = 0
        self.active: list[_Node] = []  # aliases being expanded, outermost first

    def run(self, document: _Node) -> None:
        # Depth-first in document order, with an explicit stack: alias chains may be long.
        todo: list[tuple[_Node, bool]] = [(document, False)]
        while todo:
            node, leaving = todo.pop()
            if leaving:
                self.active.pop()
                continue
            self._count(node)
            if node.kind == "alias":
                if node in self.active:
                    raise _error(self.source, node, f"anchor '{node.value}' value contains itself")
                if node.target is None:
                    continue  # an unknown anchor: the positioned loader reports it
                self.active.append(node)
                todo.append((node, True))
                todo.append((node.target, False))
            elif node.kind == "map":
                todo.extend((child, False) for child in reversed(self._map_items(node)))
            else:
                todo.extend((child, False) for child in reversed(node.children))

    @staticmethod
    def _map_items(node: _Node) -> list[_Node]:
        """Keys and values in order; a merge key is not decoded, nor a merged sequence."""
        items: list[_Node] = []
        pairs = zip(node.children[::2], node.children[1::2], strict=False)
        for key, value in pairs:
            if key.kind == "scalar" and key.plain and key.value == "<<":
                items.extend(value.children if value.kind == "seq" else [value])
            else:
                items.extend((key, value))
        return items

    def _count(self, node: _Node) -> None:
        self.decodes += 1
        if self.active:
            self.aliased += 1
        if (
            self.aliased > MIN_ALIASES
            and self.decodes > MIN_DECODES
            and self.aliased / self.decodes > allowed_alias_ratio(self.decodes)
        ):
            where = self.active[0] if self.active else node
            raise _error(self.source, where, "document contains excessive aliasing")
