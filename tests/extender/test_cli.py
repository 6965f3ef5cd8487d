"""``ksched plan --extender-mode`` and ``--record-extenders``: record live, replay offline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from ksched_cli.cli.plan_cmd import plan

from .helpers import config_text, extender, three_nodes
from .server import FakeExtender, node_names, serving


def _prefer_a(body: Any) -> Any:
    return [{"Host": n, "Score": 10 if n == "a" else 0} for n in node_names(body)]


def _plan(*args: str) -> Any:
    return CliRunner().invoke(plan, [*args, "-o", "json", "--explain"])


def test_recorded_replies_replay_as_a_stub(tmp_path: Path) -> None:
    cluster = three_nodes(tmp_path)
    stub = tmp_path / "stub.json"
    config = tmp_path / "config.yaml"
    with serving(FakeExtender({"prioritize": _prefer_a})) as fake:
        config.write_text(config_text(extender(fake.url, prioritizeVerb="prioritize", weight=1)))
        live = _plan(str(cluster), "--config", str(config), "--record-extenders", str(stub))
    assert live.exit_code == 0, live.output
    assert json.loads(live.stdout)["pods"][0]["node"] == "a"
    recorded = json.loads(stub.read_text())
    assert list(recorded) == [f"{fake.url}/prioritize"]
    # The server is gone: the stub alone reproduces the plan byte for byte.
    replay = _plan(str(cluster), "--config", str(config), "--extender-mode", f"stub={stub}")
    assert replay.exit_code == 0, replay.output
    assert replay.stdout == live.stdout


def test_a_stub_without_the_request_fails_like_an_extender(tmp_path: Path) -> None:
    stub = tmp_path / "stub.json"
    stub.write_text("{}")
    config = tmp_path / "config.yaml"
    config.write_text(config_text(extender("http://127.0.0.1:9", filterVerb="filter")))
    result = _plan(
        str(three_nodes(tmp_path)), "--config", str(config), "--extender-mode", f"stub={stub}"
    )
    assert result.exit_code == 2
    message = json.loads(result.stdout)["pods"][0]["message"]
    assert message == f"{stub}: no recorded reply for filter at http://127.0.0.1:9/filter"


def test_an_unreadable_stub_is_an_input_error(tmp_path: Path) -> None:
    result = _plan(str(three_nodes(tmp_path)), "--extender-mode", f"stub={tmp_path}/none.json")
    assert result.exit_code == 1
    assert result.stderr == f"{tmp_path}/none.json: error: extender stub: no such file\n"


def test_diff_replays_extender_stubs_on_both_sides() -> None:
    from ksched_cli.cli.main import _register, cli

    _register()
    ex = "examples/extender/"
    args = [
        "diff",
        "--base",
        ex + "config.yaml",
        "--head",
        "default",
        ex + "cluster.yaml",
        "--extender-mode",
        "stub=" + ex + "stub.json",
        "-o",
        "json",
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 3, result.stderr
    assert '"default/web-0"' in result.stdout and "filtered by Extender" in result.stdout


def test_diff_skip_mode_says_so() -> None:
    from ksched_cli.cli.main import _register, cli

    _register()
    ex = "examples/extender/"
    args = [
        "diff",
        "--base",
        ex + "config.yaml",
        "--head",
        ex + "config.yaml",
        ex + "cluster.yaml",
        "--extender-mode",
        "skip",
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0
    assert "extenders skipped (--extender-mode skip)" in result.stderr
