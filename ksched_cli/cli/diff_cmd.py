"""``ksched diff``: what a profile (or manifest) change does to placements."""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any

import click
import yaml

from ..diff.model import FAIL_ON_ANY, FAIL_ON_UNSCHEDULABLE, DiffResult
from ..diff.run import ExtenderUse, SideInput, run_diff
from ..errors import KschedError, printable, printable_text
from ..render.diff_document import diff_document
from ..render.diff_markdown import render_diff_markdown
from ..render.diff_table import render_diff_table
from ..render.selection import no_resources
from ..render.whatif_document import whatif_document
from ..render.whatif_text import render_whatif
from ..versions.releases import Release
from .extender_opts import MODE_HELP, finish, setup, validate_mode
from .limit_opts import limit_options
from .plan_output import namespace_option
from .progress import progress_line
from .usage import ExitOneCommand, UsageError
from .version_opts import VERSION_HELP, resolve_kubernetes_version
from .whatif_opts import (
    OperationsCommand,
    drain_timeout_option,
    operation_options,
    operations_or_exit,
)

EXIT_NO_CHANGE = 0
EXIT_ERROR = 1
EXIT_CHANGED = 3


class _DiffCommand(ExitOneCommand, OperationsCommand):
    pass


def _usage(message: str) -> click.UsageError:
    return UsageError(message)


def _releases(
    version: str | None, base_version: str | None, head_version: str | None
) -> tuple[Release, Release]:
    if version is not None and (base_version is not None or head_version is not None):
        raise _usage(
            "--kubernetes-version names the release of both sides; "
            "use it without --base-version/--head-version"
        )
    shared = version
    return (
        resolve_kubernetes_version(base_version or shared),
        resolve_kubernetes_version(head_version or shared),
    )


def _sides(
    paths: tuple[str, ...], base: str | None, head: str | None, config: str | None,
    base_manifests: tuple[str, ...], head_manifests: tuple[str, ...],
    releases: tuple[Release, Release], namespace: str | None,
) -> tuple[SideInput, SideInput]:
    if config is not None and (base is not None or head is not None):
        raise _usage("--config names the one profile of both sides; use it without --base/--head")
    if (base is None) != (head is None):
        # One side alone would be compared with the built-in default: rarely what was meant.
        given, missing = ("--base", "--head") if head is None else ("--head", "--base")
        raise _usage(
            f"{given} needs {missing}: name both configurations (a file or a built-in profile "
            f"such as default), or use --config for one profile on both sides"
        )
    if paths and base_manifests and head_manifests:
        raise _usage("PATH... is unused when both --base-manifests and --head-manifests are given")
    base_paths, head_paths = base_manifests or paths, head_manifests or paths
    if not base_paths or not head_paths:
        raise _usage("give PATH... (both sides) or --base-manifests and --head-manifests")
    shared = config or "default"
    return (
        SideInput(base or shared, base_paths, releases[0].features, namespace=namespace),
        SideInput(head or shared, head_paths, releases[1].features, namespace=namespace),
    )


def _html(result: DiffResult) -> str:
    from ..render.html.report import diff_report

    return diff_report(result, result.whatif)


def _render(result: DiffResult, output: str, namespace: str | None) -> str:
    if output in ("json", "yaml"):
        doc: dict[str, Any] = diff_document(result)
        if result.whatif is not None:
            doc["whatif"] = whatif_document(result.whatif)
        if output == "json":
            return json.dumps(doc, indent=2, sort_keys=True) + "\n"
        return yaml.safe_dump(doc, sort_keys=True, allow_unicode=True)
    head = render_whatif(result.whatif) if result.whatif is not None else ""
    if namespace is not None and not result.pods:
        # As kubectl get: no table at all, and the sentence on stderr.
        click.echo(no_resources(namespace), err=True)
        return printable_text(head)
    if output == "markdown":
        prefix = f"```\n{head}```\n\n" if head else ""
        # The what-if block counts against the comment's size cap.
        return printable_text(prefix + render_diff_markdown(result, reserved=len(prefix)))
    return printable_text(head + render_diff_table(result, wide=output == "wide"))


@click.command("diff", cls=_DiffCommand, short_help="What a profile change does to placements.")
@click.argument("paths", nargs=-1, type=click.Path(readable=False), metavar="[PATH]...")
@click.option("--base", metavar="FILE|PROFILE",
              help="The current configuration (a file or a built-in profile name); "
                   "give --head too.  [default: --config, else default]")
@click.option("--head", metavar="FILE|PROFILE",
              help="The proposed configuration (a file or a built-in profile name); "
                   "give --base too.  [default: --config, else default]")
@click.option("--config", "-c", "config", metavar="FILE|PROFILE",
              help="One configuration for both sides, to compare two manifest sets. "
                   "[default: default]")
@click.option("--base-manifests", multiple=True, type=click.Path(readable=False), metavar="PATH",
              help="Manifests of the base side (repeatable); default PATH...")
@click.option("--head-manifests", multiple=True, type=click.Path(readable=False), metavar="PATH",
              help="Manifests of the head side (repeatable); default PATH...")
@click.option("-o", "--output",
              type=click.Choice(["table", "wide", "json", "yaml", "markdown", "html"]),
              default="table", show_default=True,
              help="Output format (wide: whole reasons and workloads; markdown: a PR comment "
                   "capped under GitHub's 65,536 characters; html: a self-contained report).")
@click.option("--fail-on", type=click.Choice([FAIL_ON_ANY, FAIL_ON_UNSCHEDULABLE]),
              default=FAIL_ON_ANY, show_default=True,
              help="any: exit 3 on any placement change; unschedulable: only when a pod "
                   "becomes unschedulable or preempted.")
@click.option("--extender-mode", "extender_mode", default="call", show_default=True,
              metavar="call|skip|stub=FILE", callback=validate_mode, help=MODE_HELP)
@click.option("--record-extenders", "record_extenders",
              metavar="FILE", help="Write every extender request and reply of both plans "
                                   "to FILE (- for standard output).")
@click.option("--kubernetes-version", "kubernetes_version", metavar="VERSION",
              help=f"{VERSION_HELP} Both sides.")
@click.option("--base-version", "base_version", metavar="VERSION",
              help="kube-scheduler release of the base side (an upgrade diff).")
@click.option("--head-version", "head_version", metavar="VERSION",
              help="kube-scheduler release of the head side (an upgrade diff).")
@namespace_option("Compare only pods of namespace NS (every pod is still planned)")
@drain_timeout_option()
@operation_options
@limit_options
def diff(
    paths: tuple[str, ...], base: str | None, head: str | None, config: str | None,
    base_manifests: tuple[str, ...], head_manifests: tuple[str, ...], output: str, fail_on: str,
    extender_mode: str, record_extenders: str | None, kubernetes_version: str | None,
    base_version: str | None, head_version: str | None, namespace: str | None,
    drain_timeout: float | None,
) -> None:
    """Plan the same manifests under two profiles (or two manifest sets under one
    profile, or one profile under two kube-scheduler releases with --base-version
    and --head-version) and report what changes: the effective-config diff, pods whose outcome
    changed (scheduled <-> unschedulable, newly preempted, different victims), pods
    that moved node and the per-plugin score margin that flipped, and a summary.

    Both sides are planned deterministically (ties go to the lowest node name).

    \b
    Exit codes: 0 no placement changed; 3 placements changed (with --fail-on
    unschedulable: some pod becomes unschedulable or preempted); 1 invalid input,
    configuration or usage.

    \b
    Examples:
      cd examples/diff && ksched diff --base base.yaml --head head.yaml cluster.yaml
      ksched diff --base default --head bin-packing snapshot.yaml -o markdown > comment.md
      ksched diff --config my.yaml --base-manifests cluster/ --head-manifests cluster-with-pool/
      ksched diff --base old.yaml --head new.yaml cluster/ -o json --fail-on unschedulable
      ksched diff --base-version 1.30 --head-version 1.36 examples/upgrade  # upgrade impact
      ksched diff --base default --head bin-packing snapshot.yaml -o html > diff.html
      ksched diff cluster/ --drain node-a            # the cluster before and after a drain
      helm template shop ./shop | ksched diff --base default --head bin-packing - -n shop

    \b
    What-if operations (--drain, --remove-node, --cordon, --uncordon, --add-nodes,
    --scale) change the head side's cluster, in the order given, before its plan.
    """
    operations = tuple(operations_or_exit(namespace))
    releases = _releases(kubernetes_version, base_version, head_version)
    base_side, head_side = _sides(
        paths, base, head, config, base_manifests, head_manifests, releases, namespace
    )
    head_side = dataclasses.replace(head_side, operations=operations,
                                    drain_timeout=drain_timeout)
    inputs = [base_side.config, head_side.config, *base_side.manifests, *head_side.manifests]
    try:
        ext = setup(None, extender_mode, record_extenders, inputs)
        with progress_line() as progress:
            use = ExtenderUse(ext.mode, ext.transport)
            result = run_diff(base_side, head_side, progress, use)
    except KschedError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(EXIT_ERROR)
    for warning in result.warnings:
        click.echo(printable(f"warning: {warning}"), err=True)
    html = output == "html"
    text = _html(result) if html else _render(result, output, namespace)
    # Line by line: a reader that stops early (`| head`) shows as soon as it closes the pipe.
    for line in text.splitlines(keepends=True):
        sys.stdout.write(line)
    recording_failed = finish(ext)  # after the output: a failed write never costs the diff
    if recording_failed:
        click.echo(recording_failed, err=True)
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_CHANGED if result.fails(fail_on) else EXIT_NO_CHANGE)
