"""``ksched plugins``: every plugin ksched knows, with its extension points and default weight."""

from __future__ import annotations

import json
from typing import Any

import click

from ..config.catalog import CATALOG, PluginInfo


def _row(info: PluginInfo) -> dict[str, Any]:
    return {
        "name": info.name,
        "extensionPoints": list(info.points),
        "defaultWeight": info.default_weight,
        "inDefaultProfile": info.in_defaults,
        "argsKind": info.args_kind,
        "origin": info.origin,
        "summary": info.summary,
    }


def _weight(info: PluginInfo) -> str:
    if info.default_weight is not None:
        return str(info.default_weight)
    return "1" if info.implements("score") else "-"


@click.command("plugins")
@click.option(
    "-o", "--output", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def plugins(output: str) -> None:
    """List the plugins a profile can enable.

    All kube-scheduler v1.30 in-tree plugins plus scheduler-plugins' Coscheduling,
    each with the extension points it implements (where multiPoint enables it),
    its score weight in the default profile, and its args type. A `*` marks the
    plugins of v1.30's default profile.

    \b
    Examples:
      ksched plugins
      ksched plugins -o json | jq '.[] | select(.extensionPoints | index("score"))'
    """
    infos = list(CATALOG.values())
    if output == "json":
        click.echo(json.dumps([_row(i) for i in infos], indent=2))
        return
    name_width = max(len(i.name) for i in infos) + 2
    points_width = max(len(",".join(i.points)) for i in infos)
    click.echo(f"{'NAME'.ljust(name_width)}{'EXTENSION POINTS'.ljust(points_width)}  WEIGHT  ARGS")
    for info in infos:
        name = ("*" if info.in_defaults else " ") + info.name
        points = ",".join(info.points).ljust(points_width)
        click.echo(
            f"{name.ljust(name_width)}{points}  {_weight(info).ljust(6)}  {info.args_kind or '-'}"
        )
