"""``ksched examples``: list the bundled examples, or copy one to try it anywhere."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import click

from ..bundled import example_names, examples_root, summary

EXIT_ERROR = 1


@click.command("examples", short_help="List the bundled examples, or copy one.")
@click.argument("name", required=False)
@click.argument("directory", required=False, type=click.Path(file_okay=False))
def examples(name: str | None, directory: str | None) -> None:
    """Without arguments, list the examples shipped with ksched. With NAME and
    DIRECTORY, copy example NAME into DIRECTORY (created; it must not exist yet, so
    nothing is ever overwritten); NAME `all` copies every example, one sub-directory
    each. Each example has a README saying what to run and what to look for.

    \b
    Examples:
      ksched examples                             # what is there
      ksched examples basic basic && ksched plan basic
      ksched examples all examples                # the paths used in `ksched --help`
    """
    names = example_names()
    root = examples_root()
    if name is None:
        for found in names:
            click.echo(f"{found:<15} {summary(found)}")
        return
    if name != "all" and name not in names:
        _fail(f"no example {name!r}; `ksched examples` lists them ({', '.join(names)})")
    if directory is None:
        raise click.UsageError("give the DIRECTORY to copy the example into")
    target = Path(directory)
    if target.exists():
        _fail(f"{directory}: already exists; name a new directory (nothing is overwritten)")
    assert root is not None
    if name == "all":
        for found in names:
            _copy(root / found, target / found)
    else:
        _copy(root / name, target)
    readme = target / "README.md" if name != "all" else target / "*" / "README.md"
    click.echo(f"copied {name} to {directory}; see {readme}")


def _copy(source: Path, target: Path) -> None:
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_ERROR)
