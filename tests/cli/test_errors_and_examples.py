"""Errors that say what to do (an unreachable extender), and examples after a plain install."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksched_cli.bundled import example_names
from ksched_cli.cli.main import _register, cli

from .helpers import REPO

CLUSTER = str(REPO / "examples" / "extender" / "cluster.yaml")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port  # nothing listens once the socket is closed


def _config(tmp_path: Path, ignorable: bool = False) -> str:
    path = tmp_path / "config.yaml"
    path.write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
        f"extenders:\n- urlPrefix: http://127.0.0.1:{_closed_port()}\n  filterVerb: filter\n"
        f"  ignorable: {'true' if ignorable else 'false'}\n",
        encoding="utf-8",
    )
    return str(path)


@pytest.fixture(autouse=True)
def _commands() -> None:
    _register()


@pytest.mark.parametrize("command", ["plan", "diff"])
def test_unreachable_extender_is_an_error_with_a_hint(tmp_path: Path, command: str) -> None:
    config = _config(tmp_path)
    args = ["plan", CLUSTER, "--config", config]
    if command == "diff":
        args = ["diff", "--config", config, CLUSTER]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    assert "cannot be reached" in result.stderr and "connection refused" in result.stderr
    assert "--extender-mode stub=FILE" in result.stderr and "--extender-mode skip" in result.stderr
    assert result.stdout == ""


def test_unreachable_ignorable_extender_is_skipped_with_a_warning(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["plan", CLUSTER, "--config", _config(tmp_path, True)])
    assert result.exit_code in (0, 2)
    assert "skipped as ignorable" in result.stderr


def test_unreachable_extender_still_writes_the_recording(tmp_path: Path) -> None:
    record = tmp_path / "replies.json"
    args = ["plan", CLUSTER, "--config", _config(tmp_path), "--record-extenders", str(record)]
    assert CliRunner().invoke(cli, args).exit_code == 1
    assert "connection refused" in record.read_text(encoding="utf-8")


# --- examples -------------------------------------------------------------------------


def test_examples_lists_every_example_with_its_summary() -> None:
    result = CliRunner().invoke(cli, ["examples"])
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.stdout.splitlines()]
    # Every example directory has a README (the summary comes from its first line).
    assert listed == sorted(p.parent.name for p in (REPO / "examples").glob("*/README.md"))
    assert "basic           where do a few web pods and a batch job land?" in result.stdout


def test_examples_copies_one_and_it_plans(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["examples", "basic", "mine"]).exit_code == 0
    assert (tmp_path / "mine" / "README.md").is_file()
    assert CliRunner().invoke(cli, ["plan", "mine"]).exit_code == 0


def test_examples_all_gives_the_paths_help_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["examples", "all", "examples"]).exit_code == 0
    help_text = CliRunner().invoke(cli, ["plan", "--help"]).stdout
    result = CliRunner().invoke(cli, ["plan", "examples/preemption", "-o", "wide"])
    assert "ksched plan examples/preemption -o wide" in help_text
    assert result.exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["examples", "nope", "x"], "no example 'nope'"),
        (["examples", "basic", "."], "already exists"),
        (["examples", "basic"], "DIRECTORY"),
    ],
)
def test_examples_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    assert message in result.output


def test_the_build_puts_the_examples_in_the_package(tmp_path: Path) -> None:
    # A wheel holds what build_py leaves in build/lib: a plain `pip install` of it must
    # carry examples/ as package data, for `ksched examples` outside a checkout.
    build = tmp_path / "lib"
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(build)],
        cwd=REPO, check=True, capture_output=True, timeout=300,
    )
    for example in example_names():
        assert (build / "ksched_cli" / "examples" / example / "README.md").is_file()
    assert (build / "ksched_cli" / "bundled.py").is_file()
    assert not list(build.rglob("__pycache__"))


def test_an_installed_copy_of_the_examples_comes_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ksched_cli import bundled

    package = tmp_path / "site" / "ksched_cli"
    (package / "examples" / "demo").mkdir(parents=True)
    (package / "examples" / "demo" / "README.md").write_text("# demo: a demo\n")
    monkeypatch.setattr(bundled, "_PACKAGE", package)
    assert bundled.examples_root() == package / "examples"
    assert bundled.example_names() == ["demo"]
    assert bundled.summary("demo") == "a demo"
