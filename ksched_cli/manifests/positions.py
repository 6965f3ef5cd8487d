"""Line and column of a field in a manifest file, looked up only when reporting an error.

``yamlio.locate`` re-reads the whole file with ruamel.yaml, which takes minutes on a
150,000-pod snapshot; composing node trees with PyYAML's C parser takes seconds, and
its marks give the same positions (a key's first character, a list item's value).
"""

from __future__ import annotations

from typing import Any

import yaml

from ..yamlio import split_path

try:
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - pure-Python PyYAML build
    _Loader = yaml.SafeLoader


def field_position(text: str, document: int, field: str) -> tuple[int, int] | None:
    """1-based (line, column) of ``field`` in 0-based ``document``, or of its nearest parent."""
    try:
        for index, node in enumerate(yaml.compose_all(text, Loader=_Loader)):
            if index == document:
                return _position(node, field) if node is not None else None
    except yaml.YAMLError:
        return None
    return None


def _position(root: yaml.Node, field: str) -> tuple[int, int]:
    mark = root.start_mark
    current: yaml.Node = root
    for part in split_path(field):
        child = _child(current, part)
        if child is None:
            break
        mark, current = child
    return mark.line + 1, mark.column + 1


def _child(node: yaml.Node, part: str | int) -> tuple[Any, yaml.Node] | None:
    """The mark to report for ``part`` of ``node`` (a key's, or an item's) and the child node."""
    if isinstance(node, yaml.MappingNode) and isinstance(part, str):
        # Reversed: with a duplicated key the loader keeps the last value.
        for key, value in reversed(node.value):
            if isinstance(key, yaml.ScalarNode) and key.value == part:
                return key.start_mark, value
    elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
        item = node.value[part]
        return item.start_mark, item
    return None
