"""``ksched profiles``: the built-in scheduler profiles usable as ``--config NAME``."""

from __future__ import annotations

import json

import click

from ..config.builtin import builtin_profiles


@click.command("profiles")
@click.option(
    "-o", "--output", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def profiles(output: str) -> None:
    """List the built-in KubeSchedulerConfiguration profiles.

    Use a profile by name wherever a configuration file is expected.

    \b
    Examples:
      ksched profiles
      ksched validate --print-effective bin-packing
      ksched plan examples/basic --config gang
    """
    found = builtin_profiles()
    if output == "json":
        rows = [{"name": p.name, "description": p.description, "path": str(p.path)} for p in found]
        click.echo(json.dumps(rows, indent=2))
        return
    width = max((len(p.name) for p in found), default=0)
    for profile in found:
        click.echo(f"{profile.name.ljust(width)}  {profile.description}")
