"""YAML/JSON reading: fast decoding for manifests, positioned decoding for errors and configs.

Manifests are decoded with PyYAML's C loader when available (speed matters for
large snapshots); when something in them is wrong, the file is decoded again
with ruamel.yaml to find the line and column of the offending field. ruamel.yaml is
imported only then (and for configuration files), not on a plan's fast path.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from . import readers
from .errors import KschedError, Location
from .gotyping import GO_BOOLEANS, NullKey, go_keys

_BASE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def number_too_long(value: str) -> str:
    """Why an integer literal past Python's conversion limit is refused (its conversion
    would take time quadratic in its length; no Kubernetes field holds one)."""
    digits = sum(ch.isdigit() for ch in value)
    return (
        f"an integer of {digits} digits: ksched reads at most "
        f"{sys.get_int_max_str_digits()} (no Kubernetes field holds more than 20)"
    )


def _bounded_int(loader: Any, node: Any) -> Any:
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    except ValueError:
        raise yaml.constructor.ConstructorError(
            None, None, number_too_long(node.value), node.start_mark
        ) from None


class _Loader(_BASE_LOADER):  # type: ignore[misc]
    """The safe loader, with an over-long integer a positioned YAML error."""


_Loader.add_constructor("tag:yaml.org,2002:int", _bounded_int)


def _go_bool(loader: Any, node: Any) -> Any:
    if node.value in GO_BOOLEANS:
        return GO_BOOLEANS[node.value]
    return yaml.constructor.SafeConstructor.construct_yaml_bool(loader, node)


# go-yaml v2 (YAML 1.1, as kubectl and kube-scheduler read YAML) takes y/Y/n/N as booleans.
_Loader.add_constructor("tag:yaml.org,2002:bool", _go_bool)
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:y|Y|n|N)$"), list("yYnN"))

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
        return [go_keys(d) for d in yaml.load_all(text, Loader=FAST_LOADER)]
    except NullKey as exc:
        raise KschedError(f"invalid YAML: {exc}", Location(str(path))) from None
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
        message = str(exc)
        where = Location(str(path))
        value = _long_integer(text) if isinstance(exc, ValueError) else ""
        if value:
            message = number_too_long(value)
            line, column = locate_scalar(text, value)
            where = Location(str(path), line or None, column or None)
        raise KschedError(f"invalid YAML: {message}", where) from None


def _long_integer(text: str) -> str:
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
