"""FNV, SafeEncodeString and the deterministic generateName suffixes."""

from __future__ import annotations

import re

import pytest

from ksched_cli.controllers.hashing import (
    compute_hash,
    fnv32,
    fnv32a,
    name_suffix,
    revision_hash,
    safe_encode,
)


@pytest.mark.parametrize(
    ("data", "fnv1", "fnv1a"),
    [
        # The reference vectors of the FNV specification.
        (b"", 0x811C9DC5, 0x811C9DC5),
        (b"a", 0x050C5D7E, 0xE40C292C),
        (b"foobar", 0x31F0B262, 0xBF9CF968),
    ],
)
def test_fnv_matches_the_reference_vectors(data: bytes, fnv1: int, fnv1a: int) -> None:
    assert fnv32(data) == fnv1
    assert fnv32a(data) == fnv1a


def test_safe_encode_maps_digits_into_the_alphabet() -> None:
    # '0' is 48 and 48 % 27 = 21: the 22nd character of the alphabet, "4".
    assert safe_encode("0123456789") == "456789bcdf"


def test_compute_hash_depends_on_template_and_collision_count() -> None:
    raw = {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c"}]}}
    first = compute_hash(raw, None)
    assert first == compute_hash(dict(raw), None)
    assert first != compute_hash(raw, 1)
    assert first != compute_hash({**raw, "metadata": {"labels": {"app": "api"}}}, None)
    assert re.fullmatch(r"[bcdfghjklmnpqrstvwxz2456789]+", first)
    assert revision_hash(raw, None) != revision_hash(raw, 2)


@pytest.mark.parametrize("seed", ["default/web-0", "default/web-1", "x" * 300])
def test_name_suffix_is_five_safe_characters(seed: str) -> None:
    suffix = name_suffix(seed)
    assert re.fullmatch(r"[bcdfghjklmnpqrstvwxz2456789]{5}", suffix)
    assert name_suffix(seed) == suffix
