"""Hashes and generated names of controller-created objects (see docs/semantics.md).

Upstream hashes Go's printed form of the API-defaulted template (hashutil.DeepHashObject);
ksched hashes the template as given, in canonical JSON, with the same FNV functions, the
same collision-count bytes and the same SafeEncodeString rendering.
"""

from __future__ import annotations

import json
from typing import Any

# k8s.io/apimachinery/pkg/util/rand: consonants and digits that spell no words.
ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789"
GENERATED_SUFFIX = 5
# names.SimpleNameGenerator: a generateName prefix longer than this is cut.
MAX_GENERATED_PREFIX = 63 - GENERATED_SUFFIX
_FNV_OFFSET = 0x811C9DC5
_FNV_PRIME = 0x01000193
_MASK = 0xFFFFFFFF


def fnv32a(data: bytes, value: int = _FNV_OFFSET) -> int:
    for byte in data:
        value = ((value ^ byte) * _FNV_PRIME) & _MASK
    return value


def fnv32(data: bytes, value: int = _FNV_OFFSET) -> int:
    for byte in data:
        value = ((value * _FNV_PRIME) & _MASK) ^ byte
    return value


def safe_encode(text: str) -> str:
    """rand.SafeEncodeString: each character mapped into ALPHANUMS."""
    return "".join(ALPHANUMS[ord(c) % len(ALPHANUMS)] for c in text)


def canonical(raw: Any) -> bytes:
    """The template as compact JSON with sorted keys (what ksched hashes)."""
    return json.dumps(raw, sort_keys=True, separators=(",", ":"), default=str).encode()


def compute_hash(template_raw: Any, collision_count: int | None) -> str:
    """controller.ComputeHash: pod-template-hash (Deployments) and DaemonSet revisions."""
    value = fnv32a(canonical(template_raw))
    if collision_count is not None:
        value = fnv32a((collision_count & _MASK).to_bytes(8, "little"), value)
    return safe_encode(str(value))


def revision_hash(template_raw: Any, collision_count: int | None) -> str:
    """history.HashControllerRevision of a StatefulSet's revision (FNV-32 over its patch)."""
    patch = {"spec": {"template": {**template_raw, "$patch": "replace"}}}
    value = fnv32(canonical(patch))
    if collision_count is not None:
        value = fnv32(str(collision_count).encode(), value)
    return safe_encode(str(value))


def generate_name_prefix(base: str) -> str:
    return base[:MAX_GENERATED_PREFIX]


def name_suffix(seed: str) -> str:
    """Five ALPHANUMS characters standing for the random ones of generateName: FNV-32a of
    the seed, written in base 27."""
    value = fnv32a(seed.encode())
    out = []
    for _ in range(GENERATED_SUFFIX):
        value, digit = divmod(value, len(ALPHANUMS))
        out.append(ALPHANUMS[digit])
    return "".join(out)
