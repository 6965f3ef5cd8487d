"""The published Kubernetes OpenAPI schemas, as the ``kubernetes-validate`` package ships them.

Only the package's data files are read (its Python module, which pulls in a general
JSON Schema validator, is never imported): one ``_definitions.json`` per Kubernetes
minor version, whose definitions carry ``x-kubernetes-group-version-kind``. Loaded on
first use, never on ``--help`` or other paths that read no manifest; each definition is
decoded when first asked for (``Definitions``).
"""

from __future__ import annotations

import bisect
import importlib.util
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from .. import KUBE_SCHEDULER_VERSION
from ..codecache import cache_path, kept

PACKAGE = "kubernetes_validate"
SCHEMA_ROOT = "kubernetes-json-schema"
_DIR = re.compile(r"^v(\d+)\.(\d+)\.\d+-local-strict$")


class SchemasMissing(RuntimeError):
    """kubernetes-validate is not installed, or ships no schema up to the wanted version."""


def _minor(version: str) -> tuple[int, int]:
    match = re.match(r"^v?(\d+)\.(\d+)", version)
    if match is None:
        raise ValueError(f"not a Kubernetes version: {version!r}")
    return int(match[1]), int(match[2])


def _schema_root() -> Path:
    spec = importlib.util.find_spec(PACKAGE)
    locations = spec.submodule_search_locations if spec else None
    if not locations:
        raise SchemasMissing(f"the {PACKAGE} package is not installed")
    return Path(next(iter(locations))) / SCHEMA_ROOT


def schema_directory(version: str) -> Path:
    """The newest shipped schema directory not newer than ``version`` (as the package picks)."""
    wanted = _minor(version)
    root = _schema_root()
    found: list[tuple[tuple[int, int], Path]] = []
    for entry in root.iterdir() if root.is_dir() else ():
        match = _DIR.match(entry.name)
        if match and (int(match[1]), int(match[2])) <= wanted:
            found.append(((int(match[1]), int(match[2])), entry))
    if not found:
        raise SchemasMissing(f"{PACKAGE} ships no schema for Kubernetes {version} or older")
    return max(found)[1]


# The package's files are pretty-printed, two spaces per level: each definition starts a
# line indented by four spaces, and its own keys are indented by six. A line break never
# occurs inside a JSON string, so these anchors cannot match inside a value.
_HEADER = b'{\n  "$defs": {\n'
_DEFINITION = re.compile(rb'\n    "([^"\\]+)": ')
_GVK = b'\n      "x-kubernetes-group-version-kind": '
_DECODER = json.JSONDecoder()


class Definitions(Mapping[str, Any]):
    """``$defs`` of one ``_definitions.json``, each definition decoded when first read.

    A kind's check needs a few dozen of the file's ~600 definitions: decoding just those
    spares a short plan most of the file's decoding. A file not laid out as expected is
    decoded whole, with the same result.
    """

    def __init__(
        self, data: bytes, layout: Layout | None = None, source: str = "", tag: str = ""
    ) -> None:
        self._data = data
        # For values derived from the file and kept between runs (codecache.kept): a key
        # naming the file (path, size, mtime) and its directory's name for file names;
        # "" when there is no file.
        self.source, self.tag = source, tag
        self._decoded: dict[str, Any] = {}
        # Where each definition's value starts, in file order, and name -> position there.
        layout = layout or _layout(data)
        self._starts: list[int] = []
        self._index: dict[str, int] = {}
        self._kinds: dict[tuple[str, str], str] | None = None
        if layout:
            names, starts, self._kinds = layout
            self._index = {name: i for i, name in enumerate(names)}
            self._starts = list(starts)
        else:
            self._decoded = json.loads(data)["$defs"]

    def __getitem__(self, name: str) -> Any:
        if name in self._decoded or not self._index:
            return self._decoded[name]
        i = self._index[name]
        decoded = self._decoded[name] = self._decode(self._starts[i], i)
        return decoded

    def _decode(self, start: int, i: int) -> Any:
        return _value_at(self._data, self._starts, start, i)

    def __iter__(self) -> Iterator[str]:
        return iter(self._index or self._decoded)

    def __len__(self) -> int:
        return len(self._index or self._decoded)

    def kinds(self) -> dict[tuple[str, str], str]:
        """(apiVersion, kind) -> the first definition that declares it."""
        if self._kinds is not None:
            return dict(self._kinds)
        return _kinds(self._decoded.items())


# The definitions' names and starts, and the kinds they declare: what a file laid out as
# expected needs before any definition is read (None for a file laid out otherwise).
Layout = tuple[tuple[str, ...], tuple[int, ...], dict[tuple[str, str], str]]


def _layout(data: bytes) -> Layout | None:
    if not data.startswith(_HEADER):
        return None
    names: dict[str, int] = {}
    starts: list[int] = []
    for match in _DEFINITION.finditer(data):
        names.setdefault(match[1].decode(), len(starts))
        starts.append(match.end())
    if not starts or len(names) != len(starts):
        return None
    order = list(names)
    declared: list[tuple[str, Any]] = []
    at = data.find(_GVK)
    while at >= 0:  # only the declarations are decoded, not their definitions
        i = bisect.bisect_right(starts, at) - 1
        gvks = _value_at(data, starts, at + len(_GVK), i)
        declared.append((order[i], {"x-kubernetes-group-version-kind": gvks}))
        at = data.find(_GVK, at + len(_GVK))
    return tuple(order), tuple(starts), _kinds(declared)


def _value_at(data: bytes, starts: Sequence[int], start: int, i: int) -> Any:
    """The JSON value at ``start``, inside the ``i``-th definition."""
    end = starts[i + 1] if i + 1 < len(starts) else len(data)
    return _DECODER.raw_decode(data[start:end].decode("utf-8"))[0]


def _stored_layout(value: Any) -> Layout | None:
    """A layout read back from the cache file (None: a file laid out otherwise); a
    ValueError for a value without the shape of one."""
    if value is None:
        return None
    if not (isinstance(value, tuple) and len(value) == 3):
        raise ValueError("not a layout")
    names, starts, kinds = value
    if not (isinstance(names, tuple) and isinstance(starts, tuple) and isinstance(kinds, dict)
            and len(names) == len(starts) and all(type(n) is str for n in names)
            and all(type(at) is int for at in starts)):
        raise ValueError("not a layout")
    return names, starts, kinds


def _kinds(definitions: Iterable[tuple[str, Any]]) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for name, schema in definitions:
        for gvk in schema.get("x-kubernetes-group-version-kind", ()):
            group, api_version = gvk.get("group", ""), gvk.get("version", "")
            key = (f"{group}/{api_version}" if group else api_version, gvk.get("kind", ""))
            out.setdefault(key, name)
    return out


@cache
def definitions(version: str = KUBE_SCHEDULER_VERSION) -> Definitions:
    """Definition name -> schema (``$ref`` values point at ``#/$defs/<name>``). The file's
    layout is kept between runs beside this module's bytecode (``codecache.kept``), for
    as long as the file and this module are unchanged."""
    path = schema_directory(version) / "_definitions.json"
    with path.open("rb") as stream:
        found = os.fstat(stream.fileno())
        data = stream.read()
    key = repr((str(path), found.st_size, found.st_mtime_ns, os.stat(__file__).st_mtime_ns))
    layout = kept(cache_path(__file__, f".{path.parent.name}.layout"), key,
                  lambda: _layout(data), _stored_layout)
    return Definitions(data, layout, key, path.parent.name)


@cache
def kinds(version: str = KUBE_SCHEDULER_VERSION) -> dict[tuple[str, str], str]:
    """(apiVersion, kind) -> definition name, from each definition's group-version-kind."""
    return definitions(version).kinds()
