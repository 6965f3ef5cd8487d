"""``ksched plugins``: every plugin a release has, with its extension points and default weight."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import click

from ..config.catalog import CATALOG, PluginInfo, lookup
from ..config.defaults import default_multipoint
from ..versions.releases import Release
from .version_opts import kubernetes_version_option


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


def release_plugins(kubernetes: Release) -> list[PluginInfo]:
    """The release's registry (plus Coscheduling), each marked by its default profile."""
    features = kubernetes.features
    defaults = dict(default_multipoint(features))
    out = []
    for name in CATALOG:
        info = lookup(name, features)
        if info is None:
            continue
        in_defaults = name in defaults
        weight = defaults[name] if in_defaults else info.default_weight
        out.append(replace(info, in_defaults=in_defaults, default_weight=weight))
    return out


@click.command("plugins")
@click.option(
    "-o", "--output", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@kubernetes_version_option()
def plugins(output: str, kubernetes_version: Release) -> None:
    """List the plugins a profile can enable.

    The in-tree plugins of the kube-scheduler release being replayed (v1.30 unless
    --kubernetes-version says otherwise) plus scheduler-plugins' Coscheduling, each
    with the extension points it implements (where multiPoint enables it), its score
    weight in the default profile, and its args type. A `*` marks the plugins of that
    release's default profile.

    \b
    Examples:
      ksched plugins
      ksched plugins --kubernetes-version 1.36
      ksched plugins -o json | jq '.[] | select(.extensionPoints | index("score"))'
    """
    infos = release_plugins(kubernetes_version)
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
