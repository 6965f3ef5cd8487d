"""YAML/JSON reading: fast decoding for manifests, positioned decoding for errors and configs.

Manifests are decoded with PyYAML's C loader when available (speed matters for
large snapshots); when something in them is wrong, the file is decoded again
with ruamel.yaml to find the line and column of the offending field. ruamel.yaml is
imported only then (and for configuration files), not on a plan's fast path.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from . import readers
from .errors import KschedError, Location

# PyYAML's C loader when it is built in (every reader of plain data uses it).
FAST_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

if TYPE_CHECKING:
    from ruamel.yaml import YAML


def read_text(path: Path) -> str:
    """A regular file's text, within the input size limit (see ``readers``)."""
    return readers.read_text(path)


def load_documents(path: Path, text: str | None = None) -> list[Any]:
    """Every document of a YAML or JSON file, as plain Python values (fast path)."""
    text = read_text(path) if text is None else text
    try:
        return [d for d in yaml.load_all(text, Loader=FAST_LOADER)]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Location(str(path), mark.line + 1, mark.column + 1) if mark else Location(str(path))
        problem = exc.problem or exc.context or "invalid YAML"
        raise KschedError(f"invalid YAML: {problem}", loc) from None
    except yaml.YAMLError as exc:
        raise KschedError(f"invalid YAML: {exc}", Location(str(path))) from None


def _positioned_loader() -> YAML:
    from ruamel.yaml import YAML

    loader = YAML(typ="rt")
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
        raise KschedError(f"invalid YAML: {exc}", Location(str(path))) from None


def split_path(field: str) -> Iterator[str | int]:
    """``spec.containers[0].resources`` -> 'spec', 'containers', 0, 'resources'."""
    for part in field.replace("]", "").split("."):
        if not part:
            continue
        name, *indexes = part.split("[")
        if name:
            yield name
        for index in indexes:
            yield int(index)


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
