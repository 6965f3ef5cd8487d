"""``ksched versions``: the kube-scheduler releases ksched replays and how each is checked."""

from __future__ import annotations

import json

import click

from ..versions.features import describe
from ..versions.releases import DEFAULT_VERSION, ENV_VAR, RELEASES


def _rows() -> list[dict[str, object]]:
    return [
        {
            "version": r.version,
            "replays": r.patch,
            "default": r.version == DEFAULT_VERSION,
            "verified": r.verified,
            "sources": r.sources,
            "changes": sorted(
                ({"switch": name, **describe(name)} for name in r.features.changed()),
                key=lambda c: tuple(int(p) for p in c["release"].split(".")),
            ),
        }
        for r in RELEASES.values()
    ]


@click.command("versions", short_help="The kube-scheduler releases ksched replays.")
@click.option(
    "-o", "--output", type=click.Choice(["table", "json"]), default="table", show_default=True
)
@click.option("--changes", is_flag=True, help="List each release's behaviour switches.")
def versions(output: str, changes: bool) -> None:
    """List the kube-scheduler releases --kubernetes-version accepts, the exact
    patch release each replays, and how ksched's replay of it is verified.

    \b
    Examples:
      ksched versions
      ksched versions --changes          # what each release changes, and where it was read
      ksched plan cluster/ --kubernetes-version 1.36
      KSCHED_KUBERNETES_VERSION=1.32 ksched plan cluster/
    """
    rows = _rows()
    if output == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    width = max(len(str(r["version"])) for r in rows)
    for row in rows:
        mark = " (default)" if row["default"] else ""
        click.echo(f"{str(row['version']).ljust(width)}  {row['replays']}{mark}")
        click.echo(f"{' ' * width}  verified: {row['verified']}")
        click.echo(f"{' ' * width}  read in:  {row['sources']}")
        if changes:
            for change in row["changes"]:  # type: ignore[attr-defined]
                click.echo(
                    f"{' ' * width}    {change['release']}  {change['switch']}: {change['what']}"
                )
    click.echo(f"\nChoose with --kubernetes-version VERSION or ${ENV_VAR}.")
