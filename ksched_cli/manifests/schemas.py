"""The published Kubernetes OpenAPI schemas, as the ``kubernetes-validate`` package ships them.

Only the package's data files are read (its Python module, which pulls in a general
JSON Schema validator, is never imported): one ``_definitions.json`` per Kubernetes
minor version, whose definitions carry ``x-kubernetes-group-version-kind``. Loaded on
first use, never on ``--help`` or other paths that read no manifest.
"""

from __future__ import annotations

import importlib.util
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from .. import KUBE_SCHEDULER_VERSION

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


@cache
def definitions(version: str = KUBE_SCHEDULER_VERSION) -> dict[str, Any]:
    """Definition name -> schema (``$ref`` values point at ``#/$defs/<name>``)."""
    path = schema_directory(version) / "_definitions.json"
    with path.open(encoding="utf-8") as handle:
        defs: dict[str, Any] = json.load(handle)["$defs"]
    return defs


@cache
def kinds(version: str = KUBE_SCHEDULER_VERSION) -> dict[tuple[str, str], str]:
    """(apiVersion, kind) -> definition name, from each definition's group-version-kind."""
    out: dict[tuple[str, str], str] = {}
    for name, schema in definitions(version).items():
        for gvk in schema.get("x-kubernetes-group-version-kind", ()):
            group, api_version = gvk.get("group", ""), gvk.get("version", "")
            key = (f"{group}/{api_version}" if group else api_version, gvk.get("kind", ""))
            out.setdefault(key, name)
    return out
