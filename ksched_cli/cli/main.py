"""Entry point: the ``ksched`` command group."""

from __future__ import annotations

import sys

import click

from .. import KUBE_SCHEDULER_VERSION, __version__
from ..errors import KschedError


@click.group(
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(
    __version__, message=f"ksched %(version)s (kube-scheduler {KUBE_SCHEDULER_VERSION})"
)
def cli() -> None:
    """Where would kube-scheduler put these pods, and why? Answered offline.

    ksched replays kube-scheduler v1.30's scheduling cycle on manifests (Nodes,
    Pods, PriorityClasses, PDBs, storage objects, PodGroups) under a
    KubeSchedulerConfiguration profile, and explains every decision.

    \b
    Examples:
      ksched plan examples/basic                  # where does each pending pod go?
      ksched plan examples/basic --explain-pod default/web-0
      ksched validate my-profile.yaml             # check a profile like kube-scheduler
      ksched profiles                             # built-in profiles for --config NAME
    """


def _register() -> None:
    from . import commands

    for command in commands.ALL:
        cli.add_command(command)


def main() -> None:
    _register()
    try:
        cli.main(standalone_mode=True)
    except KschedError as exc:  # commands normally render their own errors; this is the backstop
        click.echo(exc.render(), err=True)
        sys.exit(1)
