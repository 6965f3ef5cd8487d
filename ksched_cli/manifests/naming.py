"""How errors name an object (``Pod default/web-1``) and the API server's key for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api.fields import Raw
from .kinds import KINDS


def describe(kind: str, raw: Any, namespaced: bool) -> str:
    """``Pod default/web-1``, ``Node n1``, or just the kind when the name is unusable."""
    meta = raw.get("metadata") if isinstance(raw, Mapping) else None
    name = meta.get("name") if isinstance(meta, Mapping) else None
    if not isinstance(name, str) or not name:
        return kind
    if not namespaced:
        return f"{kind} {name}"
    assert isinstance(meta, Mapping)
    namespace = meta.get("namespace")
    return f"{kind} {namespace if isinstance(namespace, str) and namespace else 'default'}/{name}"


def describe_any(raw: Any) -> str:
    """``describe`` for a decoded document of any kind (read or not)."""
    kind = raw.get("kind") if isinstance(raw, Mapping) else None
    if not isinstance(kind, str) or not kind:
        return "object"
    spec = KINDS.get(kind)
    return describe(kind, raw, spec.namespaced if spec else True)


def object_key(raw: Raw, namespaced: bool) -> str:
    """The API server's key: ``ns/name`` or ``name`` (call after a successful parse)."""
    meta = raw["metadata"]
    return f"{meta.get('namespace') or 'default'}/{meta['name']}" if namespaced else meta["name"]
