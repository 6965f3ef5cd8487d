"""Start-up: listing commands imports none of them, and lists what they would say."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from ksched_cli.cli.main import COMMANDS, SHORT_HELP, VERBATIM_SHORT_HELP, LazyGroup, cli


def _real(name: str) -> click.Command:
    command = getattr(importlib.import_module(f"ksched_cli.cli.{COMMANDS[name]}"), name)
    assert isinstance(command, click.Command)
    return command


def test_every_command_has_a_static_short_help() -> None:
    assert set(SHORT_HELP) == set(COMMANDS)
    assert set(COMMANDS) >= VERBATIM_SHORT_HELP


@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize("limit", [20, 36, 45, 64, 86, 200])
def test_static_short_help_lists_what_the_command_would(name: str, limit: int) -> None:
    real = _real(name)
    assert (name in VERBATIM_SHORT_HELP) == bool(real.short_help)
    group = LazyGroup(name="probe")
    ctx = click.Context(group)
    assert group._short_help(ctx, name, limit) == real.get_short_help_str(limit)


@pytest.mark.parametrize("columns", ["50", "80", "200"])
def test_help_listing_equals_the_eagerly_loaded_one(columns: str) -> None:
    lazy = CliRunner().invoke(cli, ["--help"], env={"COLUMNS": columns})
    eager_group = LazyGroup(name="ksched", help=cli.help, params=cli.params)
    for name in COMMANDS:
        eager_group.add_command(_real(name))
    eager = CliRunner().invoke(eager_group, ["--help"], env={"COLUMNS": columns})
    assert lazy.exit_code == eager.exit_code == 0
    lazy_list = lazy.stdout.split("Commands:")[1]
    assert lazy_list == eager.stdout.split("Commands:")[1]


# Modules `ksched --help` must not import: every sub-command and the heavy libraries.
HEAVY = ["numpy", "jsonschema", "yaml", "ksched_cli.engine", "ksched_cli.config"] + [
    f"ksched_cli.cli.{module}" for module in COMMANDS.values()
]


def test_help_imports_no_command_and_no_heavy_module() -> None:
    probe = (
        "import sys, json\n"
        "sys.argv = ['ksched', '--help']\n"
        "from ksched_cli.cli.main import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        f"heavy = {HEAVY!r}\n"
        "print(json.dumps(sorted(m for m in sys.modules if any(\n"
        "    m == h or m.startswith(h + '.') for h in heavy))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out.strip().splitlines()[-1]) == []
