"""The built-in profiles are read without jsonschema and ruamel.yaml at run time.

That is exact only because of what these tests prove for every built-in profile: the
JSON Schema pass finds nothing, PyYAML reads the file as ruamel.yaml does, and the
configuration loaded on the fast path equals the one the full check gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ksched_cli.config import load, schema
from ksched_cli.config.builtin import builtin_names, builtin_path
from ksched_cli.config.load import check_config, to_plain
from ksched_cli.versions.releases import RELEASES
from ksched_cli.yamlio import load_positioned

NAMES = builtin_names()


def _positioned(name: str) -> object:
    path = builtin_path(name)
    assert path is not None
    (doc,) = load_positioned(path)
    return doc


def test_there_are_built_in_profiles() -> None:
    assert {"default", "bin-packing", "spread", "gang"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_built_in_profile_passes_the_schema(name: str) -> None:
    assert schema.check(to_plain(_positioned(name))) == []


@pytest.mark.parametrize("name", NAMES)
def test_pyyaml_reads_the_built_in_profile_as_ruamel_does(name: str) -> None:
    path = builtin_path(name)
    assert path is not None
    fast = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    assert fast == to_plain(_positioned(name))


@pytest.mark.parametrize("version", sorted(RELEASES))
@pytest.mark.parametrize("name", NAMES)
def test_fast_load_equals_the_full_check(
    name: str, version: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    features = RELEASES[version].features
    monkeypatch.chdir(tmp_path)  # no file shadows the name
    fast = check_config(name, features)
    monkeypatch.setattr(load, "_builtin_document", lambda _name: None)  # the full check
    full = check_config(name, features)
    assert fast.findings == full.findings
    assert fast.config == full.config
    assert fast.effective == full.effective


def test_a_file_named_like_a_profile_is_checked_as_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("default").write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: Nope\n")
    checked = check_config("default")
    assert not checked.ok
    assert checked.findings[0].error.location is not None
    assert checked.findings[0].error.location.line == 2
