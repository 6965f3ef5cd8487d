"""Definitions decoded one by one (manifests/schemas.py) equal the file decoded whole."""

from __future__ import annotations

import json

import pytest

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
