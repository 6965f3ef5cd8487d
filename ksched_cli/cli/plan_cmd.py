"""``ksched plan``: where would kube-scheduler put these pods, and why."""

from __future__ import annotations

import json
import sys

import click
import yaml

from ..config.load import load_config
from ..engine.engine import Engine, EngineOptions
from ..errors import KschedError
from ..manifests.loader import load_cluster
from ..render.document import plan_document
from ..render.explain import render_attempts, render_pod
from ..render.table import render_table
from .progress import progress_reporter

EXIT_ALL_SCHEDULED = 0
EXIT_SOME_PENDING = 2


@click.command("plan")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option(
    "--config",
    "-c",
    "config",
    default="default",
    show_default=True,
    help="KubeSchedulerConfiguration file, or a built-in profile name (see `ksched profiles`).",
)
@click.option(
    "-o",
    "--output",
    type=click.Choice(["table", "wide", "json", "yaml"]),
    default="table",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--explain", is_flag=True, help="Include every attempt: per-node filter results and scores."
)
@click.option(
    "--explain-pod",
    "explain_pod",
    metavar="NS/NAME",
    multiple=True,
    help="Print a readable breakdown for one pod (repeatable).",
)
@click.option(
    "--tie-break",
    type=click.Choice(["lowest-name", "random"]),
    default="lowest-name",
    show_default=True,
    help="How equal top scores are broken (kube-scheduler: random).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for --tie-break random.")
def plan(
    paths: tuple[str, ...],
    config: str,
    output: str,
    explain: bool,
    explain_pod: tuple[str, ...],
    tie_break: str,
    seed: int,
) -> None:
    """Plan the pending pods in PATHS (files or directories of manifests).

    Running pods (with spec.nodeName) occupy their nodes; pending pods are
    scheduled by the profile whose schedulerName they name, exactly as
    kube-scheduler v1.30 would, one at a time on a simulated clock.

    \b
    Exit codes: 0 every pending pod was scheduled; 2 some were not
    (Unschedulable, Gated or Skipped); 1 invalid input or configuration.

    \b
    Examples:
      ksched plan examples/basic
      ksched plan snapshot.yaml --config bin-packing -o wide
      ksched plan cluster/ --config my-profile.yaml -o json --explain
      ksched plan examples/unschedulable --explain-pod default/big
    """
    try:
        cfg = load_config(config)
        loaded = load_cluster(list(paths))
    except KschedError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(1)
    for warning in loaded.warnings:
        click.echo(f"warning: {warning}", err=True)
    # Keep only what the chosen output shows: full score tables are large on big clusters.
    structured = output in ("json", "yaml")
    record = (
        "weighted" if explain and structured else "full" if explain or explain_pod else "summary"
    )
    options = EngineOptions(
        tie_break=tie_break, seed=seed, progress=progress_reporter(), record=record
    )
    result = Engine(cfg, loaded.cluster, options).run()
    result.warnings.extend(loaded.warnings)
    click.echo(_render(result, output, explain, explain_pod), nl=False)
    pending_failed = any(
        d.outcome in ("Unschedulable", "Gated", "Skipped") for d in result.decisions
    )
    sys.exit(EXIT_SOME_PENDING if pending_failed else EXIT_ALL_SCHEDULED)


def _render(result: object, output: str, explain: bool, explain_pod: tuple[str, ...]) -> str:
    from ..engine.records import Plan

    assert isinstance(result, Plan)
    if output == "json":
        return json.dumps(plan_document(result, explain), indent=2) + "\n"
    if output == "yaml":
        return yaml.safe_dump(plan_document(result, explain), sort_keys=False)
    text = render_table(result, wide=output == "wide")
    if explain:
        text += "\n" + render_attempts(result)
    for pod in explain_pod:
        breakdown = render_pod(result, pod)
        text += "\n" + (breakdown or f"pod {pod}: not part of this plan\n")
    return text
