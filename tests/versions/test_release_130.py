"""Every 1.30 conformance case passes unchanged when 1.30 is asked for explicitly."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ksched_cli.cli.main import cli
from ksched_cli.cli.version_opts import resolve_kubernetes_version
from ksched_cli.config.load import load_config
from ksched_cli.engine.engine import Engine
from ksched_cli.render.document import plan_document
from ksched_cli.versions.features import V130
from ksched_cli.whatif.inputs import load_cluster
from tests.conformance.test_conformance import CASES, _attempt, _case_names, _pods


@pytest.mark.parametrize("name", _case_names())
def test_case_under_explicit_130(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KSCHED_KUBERNETES_VERSION", "1.30")
    release = resolve_kubernetes_version(None)
    assert release.features == V130
    case = CASES / name
    config = load_config(str(case / "profile.yaml"), release.features)
    loaded = load_cluster([str(case / "cluster.yaml")])
    actual = plan_document(Engine(config, loaded.cluster).run(), explain=True)
    expected = json.loads((case / "expected.json").read_text())
    assert _pods(actual) == _pods(expected)
    assert [_attempt(a) for a in actual["attempts"]] == [
        _attempt(a) for a in expected["attempts"]
    ]


@pytest.mark.parametrize("name", _case_names()[::20])
def test_cli_flag_130_equals_env_130(name: str) -> None:
    """Every way of choosing 1.30 plans the same (the default release is 1.36)."""
    case = CASES / name
    args = ["plan", str(case / "cluster.yaml"), "-c", str(case / "profile.yaml"), "-o", "json"]
    runner = CliRunner()
    default = runner.invoke(cli, args, env={"KSCHED_KUBERNETES_VERSION": "1.30"})
    explicit = runner.invoke(cli, [*args, "--kubernetes-version", "1.30"])
    assert explicit.exit_code == default.exit_code
    assert explicit.stdout == default.stdout


