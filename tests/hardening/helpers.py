"""Running any ksched command in-process, and small manifests for hostile-input tests."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from ksched_cli.cli.main import _register, cli

REPO = Path(__file__).resolve().parents[2]
NODE = (
    "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
    "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n"
)
POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n"


def ksched(*args: str) -> Result:
    """``ksched ARGS``; never a traceback (an exception other than SystemExit fails)."""
    _register()
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def write(directory: Path, name: str, text: str) -> str:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def one_error(result: Result) -> str:
    """The single error line of a failed run (exit code 1, nothing on standard output)."""
    assert (result.exit_code, result.stdout) == (1, ""), result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]
