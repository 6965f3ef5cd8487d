"""``ksched plan``: where would kube-scheduler put these pods, and why."""

from __future__ import annotations

import sys
from collections.abc import Collection, Sequence
from difflib import SequenceMatcher

import click

from ..config.load import load_config
from ..config.types import SchedulerConfig
from ..controllers import member_keys
from ..engine.cluster import Cluster
from ..engine.engine import Engine, EngineOptions
from ..engine.records import Plan
from ..errors import KschedError, Location
from ..manifests.loader import LoadResult, load_cluster, manifest_sources
from ..render.explain import render_attempts, render_pod
from ..render.stream import write_json, write_yaml
from ..render.table import render_table
from ..versions.features import Features
from ..versions.releases import Release
from .extender_opts import MODE_HELP, ExtenderSetup, finish, input_files, setup, validate_mode
from .progress import progress_line
from .version_opts import kubernetes_version_option

EXIT_ALL_SCHEDULED = 0
EXIT_ERROR = 1
EXIT_SOME_PENDING = 2


class _UsageError(click.UsageError):
    # click exits 2 on usage errors, but 2 already means "some pod was not scheduled":
    # a CI job must not read a mistyped option as a planning result.
    exit_code = EXIT_ERROR


class _PlanCommand(click.Command):
    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise _UsageError(exc.format_message(), exc.ctx) from None


@click.command("plan", cls=_PlanCommand)
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
    type=click.Choice(["table", "wide", "json", "yaml", "html"]),
    default="table",
    show_default=True,
    help="Output format (html: a self-contained report with every pod's story).",
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
@click.option(
    "--extender-mode",
    "extender_mode",
    default="call",
    show_default=True,
    metavar="call|skip|stub=FILE",
    callback=validate_mode,
    help=MODE_HELP,
)
@click.option(
    "--record-extenders",
    "record_extenders",
    metavar="FILE",
    default=None,
    help="Write every extender request and reply to FILE (a stub for --extender-mode).",
)
@kubernetes_version_option()
def plan(
    paths: tuple[str, ...],
    config: str,
    output: str,
    explain: bool,
    explain_pod: tuple[str, ...],
    tie_break: str,
    seed: int,
    extender_mode: str,
    record_extenders: str | None,
    kubernetes_version: Release,
) -> None:
    """Plan the pending pods in PATHS (files or directories of manifests).

    Running pods (with spec.nodeName) occupy their nodes; pending pods are
    scheduled by the profile whose schedulerName they name, exactly as
    kube-scheduler would (v1.30.6 unless --kubernetes-version says otherwise), one
    at a time on a simulated clock.

    \b
    Exit codes: 0 every pending pod was scheduled (pods for schedulers no
    profile serves are Skipped, which is not a failure); 2 some were not
    (Unschedulable or Gated); 1 invalid input, configuration or usage.

    \b
    Examples (each directory under examples/ has a README saying what to look for):
      ksched plan examples/basic
      ksched plan examples/preemption -o wide --explain-pod default/payments
      ksched plan examples/gang --config gang -o json --explain
      ksched plan examples/storage --explain-pod default/ssd-1
      ksched plan snapshot.yaml --config bin-packing -o wide
      ksched plan cluster/ --config my-profile.yaml -o json --explain
      ksched plan cluster/ --config with-extenders.yaml --extender-mode stub=replies.json
      ksched plan examples/upgrade --kubernetes-version 1.36
      ksched plan examples/preemption -o html > report.html
    """
    cfg, loaded = _load_or_exit(config, paths, explain_pod, kubernetes_version.features)
    ext = _extender_setup_or_exit(cfg, extender_mode, record_extenders, [config, *paths])
    if ext.notice:
        # Said loudly: a plan without its extenders can differ from kube-scheduler's.
        loaded.warnings.append(ext.notice)
    for warning in loaded.warnings:
        click.echo(f"warning: {warning}", err=True)
    running = {p.key: p.node_name for p in loaded.cluster.pods if p.node_name}
    # Keep only what the chosen output shows: full score tables are large on big clusters.
    structured = output in ("json", "yaml")
    record = (
        "weighted" if explain and structured else "full" if explain or explain_pod else "summary"
    )
    report = _HtmlReport(loaded) if output == "html" else None
    if report is not None:
        # The report draws every pod's story: filter reasons and weighted scores.
        record = "weighted"
    with progress_line() as progress:
        options = EngineOptions(
            tie_break=tie_break,
            seed=seed,
            progress=progress,
            record=record,
            extender_mode=ext.mode,
            extender_transport=ext.transport,
        )
        result = Engine(cfg, loaded.cluster, options).run()
    for warning in result.warnings:  # extender failures skipped during the plan
        click.echo(f"warning: {warning}", err=True)
    result.warnings.extend(loaded.warnings)
    if report is not None:
        click.echo(report.render(result, loaded.cluster, paths), nl=False)
    elif output in ("json", "yaml"):
        # Streamed: with --explain on a large cluster the document is gigabytes.
        if output == "json":
            write_json(result, explain, sys.stdout)
        else:
            write_yaml(result, explain, sys.stdout)
    else:
        text = _render_text(result, output, explain, explain_pod, running)
        if ext.notice:
            text = f"WARNING: {ext.notice}\n{text}"
        click.echo(text, nl=False)
    # Skipped pods belong to another scheduler: not this plan's failure.
    pending_failed = any(d.outcome in ("Unschedulable", "Gated") for d in result.decisions)
    recording_failed = finish(ext)  # after the output: a failed write never costs the plan
    if recording_failed:
        click.echo(recording_failed, err=True)
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_SOME_PENDING if pending_failed else EXIT_ALL_SCHEDULED)


class _HtmlReport:
    """The cluster before the plan, kept for ``-o html`` (the run binds and deletes pods)."""

    def __init__(self, loaded: LoadResult) -> None:
        from ..render.html.model import capture
        from ..render.html.report import owners_of

        self.before = capture(loaded.cluster.nodes, loaded.cluster.pods)
        self.owners = owners_of(loaded.cluster.pods)

    def render(self, result: Plan, cluster: Cluster, paths: Sequence[str]) -> str:
        from ..render.html.model import capture
        from ..render.html.report import owners_of, plan_report

        after = capture(cluster.nodes, cluster.pods)
        # Pods made during the run (by controllers) have owners too; victims are gone.
        owners = {**self.owners, **owners_of(cluster.pods)}
        return plan_report(result, self.before, after, owners, paths)


def _extender_setup_or_exit(
    cfg: SchedulerConfig, mode: str, record: str | None, inputs: Sequence[str]
) -> ExtenderSetup:
    try:
        return setup(cfg, mode, record, input_files(inputs))
    except KschedError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(EXIT_ERROR)


def _load_or_exit(
    config: str, paths: Sequence[str], explain_pod: Sequence[str], features: Features
) -> tuple[SchedulerConfig, LoadResult]:
    """The profile and the cluster, or one error line on stderr and exit 1: nothing is planned."""
    try:
        cfg = load_config(config, features)
        _require_manifest_files(paths)
        loaded = load_cluster(list(paths))
        _require_objects(loaded.cluster, paths)
        _require_pods(loaded.cluster, explain_pod)
    except KschedError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(EXIT_ERROR)
    return cfg, loaded


def _require_manifest_files(paths: Sequence[str]) -> None:
    # The loader only warns about an empty directory (it may sit beside others);
    # when no path holds a manifest at all, planning nothing would hide the mistake.
    files, _ = manifest_sources(paths)
    if not files:
        raise KschedError("no *.yaml, *.yml or *.json files to read", _where(paths))


def _require_objects(cluster: Cluster, paths: Sequence[str]) -> None:
    if not cluster.nodes and not cluster.pods:
        raise KschedError("nothing to plan: no Node or Pod objects", _where(paths))


def _where(paths: Sequence[str]) -> Location | None:
    return Location(paths[0]) if len(paths) == 1 else None


def _require_pods(cluster: Cluster, wanted: Sequence[str]) -> None:
    """Every ``--explain-pod`` names a pod of the input (checked before the plan runs),
    or a StatefulSet pod an OrderedReady set creates during the plan."""
    keys = {p.key for p in cluster.pods} | member_keys(cluster)
    for name in wanted:
        if name not in keys:
            raise KschedError(
                f"no pod {name} in the input{_suggestion(name, keys)}", field="--explain-pod"
            )


def _suggestion(wanted: str, keys: Collection[str]) -> str:
    """`` (did you mean NS/NAME?)`` for a bare NAME, a wrong namespace or a typo, else ""."""
    namespace, _, name = wanted.rpartition("/")
    pods = sorted(tuple(key.split("/", 1)) for key in keys)
    same_name = [f"{ns}/{n}" for ns, n in pods if n == name]
    if same_name:
        return f" (did you mean {same_name[0]}?)"
    # A bare NAME means the default namespace, as kubectl reads it.
    namespace = namespace or "default"
    # max() keeps the first of equally close names: the lowest, as pods are sorted.
    ratio, closest = max(
        ((SequenceMatcher(None, name, n).ratio(), n) for ns, n in pods if ns == namespace),
        key=lambda scored: scored[0],
        default=(0.0, ""),
    )
    return f" (did you mean {namespace}/{closest}?)" if ratio >= 0.6 else ""


def _render_text(
    result: Plan,
    output: str,
    explain: bool,
    explain_pod: tuple[str, ...],
    running: dict[str, str],
) -> str:
    text = render_table(result, wide=output == "wide")
    if explain:
        text += "\n" + render_attempts(result)
    for pod in explain_pod:
        text += "\n" + render_pod(result, pod, running.get(pod, ""))
    return text
