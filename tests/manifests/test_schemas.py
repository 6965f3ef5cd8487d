"""Definitions decoded one by one (manifests/schemas.py) equal the file decoded whole."""

from __future__ import annotations

import json
import marshal
import sys
from pathlib import Path

import pytest

from ksched_cli import KUBE_SCHEDULER_VERSION, codecache
from ksched_cli.manifests import schemas
from ksched_cli.manifests.schemas import Definitions


def _shipped() -> list[str]:
    root = schemas._schema_root()
    return sorted(p.name for p in root.iterdir() if schemas._DIR.match(p.name))


@pytest.mark.parametrize("directory", _shipped())
def test_lazy_definitions_equal_the_whole_file(directory: str) -> None:
    data = (schemas._schema_root() / directory / "_definitions.json").read_bytes()
    whole = json.loads(data)["$defs"]
    lazy = Definitions(data)
    assert lazy._index  # read definition by definition, not whole
    assert list(lazy) == list(whole)
    expected_kinds = schemas._kinds(whole.items())
    assert lazy.kinds() == expected_kinds
    assert ("v1", "Pod") in expected_kinds
    assert {name: lazy[name] for name in whole} == whole


def test_a_file_laid_out_otherwise_is_decoded_whole() -> None:
    document = {
        "$defs": {
            "a.v1.Kind": {
                "x-kubernetes-group-version-kind": [
                    {"group": "a", "kind": "Kind", "version": "v1"}
                ],
                "type": "object",
            }
        }
    }
    lazy = Definitions(json.dumps(document).encode())
    assert not lazy._index
    assert dict(lazy) == document["$defs"]
    assert lazy.kinds() == {("a/v1", "Kind"): "a.v1.Kind"}
    with pytest.raises(KeyError):
        lazy["missing"]


def test_a_kept_layout_gives_the_same_definitions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The layout kept beside the bytecode stands for the scan: same names, same kinds;
    a cache file that holds something else is scanned afresh and rewritten."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(schemas, "cache_path", lambda module, suffix: str(tmp_path / suffix))
    version = KUBE_SCHEDULER_VERSION
    schemas.definitions.cache_clear()
    scanned = schemas.definitions(version)
    files = list(tmp_path.iterdir())
    assert len(files) == 1
    schemas.definitions.cache_clear()
    again = schemas.definitions(version)
    assert list(again) == list(scanned) and again.kinds() == scanned.kinds()
    assert again["io.k8s.api.core.v1.Pod"] == scanned["io.k8s.api.core.v1.Pod"]
    magic = codecache._magic()
    key, layout = marshal.loads(files[0].read_bytes()[len(magic):])
    for stale in (("wrong key", None), (key, ("not", "a", "layout"))):
        files[0].write_bytes(magic + marshal.dumps(stale))
        schemas.definitions.cache_clear()
        assert list(schemas.definitions(version)) == list(scanned)
        assert marshal.loads(files[0].read_bytes()[len(magic):]) == (key, layout)  # rewritten
    schemas.definitions.cache_clear()


@pytest.mark.parametrize(
    "value",
    [
        (("a",), (1, 2), {}),  # lengths differ
        ((1,), (1,), {}),  # a name that is not a string
        (("a",), ("1",), {}),  # a start that is not a number
        (("a",), (1,)),
        ["a"],
    ],
)
def test_a_stored_layout_of_the_wrong_shape_is_refused(value: object) -> None:
    with pytest.raises(ValueError, match="not a layout"):
        schemas._stored_layout(value)


def test_a_stored_layout_reads_back() -> None:
    assert schemas._stored_layout(None) is None  # a file laid out otherwise
    assert schemas._stored_layout((("a",), (1,), {})) == (("a",), (1,), {})
