"""``--print-effective`` of every built-in profile against golden files.

Regenerate with ``KSCHED_UPDATE_GOLDEN=1 pytest tests/config/test_golden.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksched_cli.cli.validate_cmd import validate
from ksched_cli.config.builtin import builtin_names
from ksched_cli.config.load import check_config, load_config
from ksched_cli.versions.releases import DEFAULT_VERSION, release

GOLDEN = Path(__file__).parent / "golden"


def _effective(name: str) -> str:
    result = CliRunner().invoke(validate, ["--print-effective", name])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("name", builtin_names())
def test_print_effective_matches_golden(name: str) -> None:
    golden = GOLDEN / f"{name}.yaml"
    text = _effective(name)
    if os.environ.get("KSCHED_UPDATE_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert golden.is_file(), f"missing {golden}; run with KSCHED_UPDATE_GOLDEN=1"
    assert text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", builtin_names())
def test_effective_output_loads_back_to_the_same_configuration(name: str) -> None:
    golden = GOLDEN / f"{name}.yaml"
    features = release(DEFAULT_VERSION).features  # the release the goldens print
    original, reloaded = load_config(name, features), load_config(str(golden), features)
    assert reloaded.profiles == original.profiles
    assert check_config(str(golden), features).effective == check_config(name, features).effective


def test_golden_set_is_complete() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.yaml")) == sorted(builtin_names())
