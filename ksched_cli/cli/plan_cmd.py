"""``ksched plan``: where would kube-scheduler put these pods, and why."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, TextIO, cast

import click

from ..api.owners import owner_of
from ..config.types import SchedulerConfig
from ..engine.cluster import Cluster
from ..engine.engine import Engine, EngineOptions
from ..engine.records import LEFT_PENDING, Plan
from ..errors import KschedError, PrintableWriter, printable
from ..manifests.loader import LoadResult
from ..render.text_plan import DEFAULT_TOP
from ..versions.releases import Release
from .extender_opts import MODE_HELP, ExtenderSetup, finish, setup, validate_mode
from .limit_opts import limit_options
from .plan_inputs import explained_or_exit, load_or_exit
from .plan_output import check_combination, selection_or_exit, show_options, text_writer
from .progress import progress_line
from .usage import ExitOneCommand
from .version_opts import kubernetes_version_option
from .whatif_opts import (
    OperationsCommand,
    drain_timeout_option,
    operation_options,
    operations_or_exit,
)

if TYPE_CHECKING:
    from ..render.structured_plan import StructuredPlanWriter
    from ..render.text_plan import TextPlanWriter
    from ..whatif.model import WhatIfReport
    from ..whatif.ops.base import Operation

EXIT_ALL_SCHEDULED = 0
EXIT_ERROR = 1
EXIT_SOME_PENDING = 2


class _PlanCommand(ExitOneCommand, OperationsCommand):
    pass


@click.command("plan", cls=_PlanCommand)
@click.argument("paths", nargs=-1, required=True, type=click.Path(readable=False))
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
    type=click.Choice(["table", "wide", "json", "yaml", "name", "html"]),
    default="table",
    show_default=True,
    help="Output format (wide: each workload's pods and scores; name: pod/NAME lines; "
    "html: a self-contained report with every pod's story).",
)
@click.option(
    "--explain",
    is_flag=True,
    help="Include every attempt: filter rejections grouped by plugin and reason, and the "
    "best scores (-o json: every node).",
)
@click.option(
    "--explain-pod",
    "explain_pod",
    metavar="NAME",
    multiple=True,
    help="Print only this pod's story: every attempt, summarized (repeatable). NAME as "
    "printed: NS/NAME, pod/NAME, NAME (in -n NS or default), or a workload's KIND/NAME "
    "or NS/KIND/NAME (its pods' stories).",
)
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=DEFAULT_TOP,
    show_default=True,
    help="Scored nodes shown per attempt besides the chosen one (text explanations).",
)
@show_options
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
    help="Write every extender request and reply to FILE (a stub for --extender-mode; "
    "- for standard output, after the plan).",
)
@kubernetes_version_option()
@drain_timeout_option()
@operation_options
@limit_options
def plan(
    paths: tuple[str, ...],
    config: str,
    output: str,
    explain: bool,
    explain_pod: tuple[str, ...],
    top: int,
    namespace: str | None,
    all_namespaces: bool,
    selector: str | None,
    no_headers: bool,
    tie_break: str,
    seed: int,
    extender_mode: str,
    record_extenders: str | None,
    kubernetes_version: Release,
    drain_timeout: float | None,
) -> None:
    """Plan the pending pods in PATHS (files or directories of manifests).

    A PATH of - reads standard input. Workloads (Deployments, StatefulSets,
    DaemonSets, Jobs, CronJobs...) first become the pods their controllers would
    create; pods a snapshot already runs for them count toward their replicas.
    Running pods (with spec.nodeName) occupy their nodes; pending pods are
    scheduled by the profile whose schedulerName they name, exactly as
    kube-scheduler would (v1.30.6 unless --kubernetes-version says otherwise), one
    at a time on a simulated clock.

    Kinds read: Node, Pod, PriorityClass, PodDisruptionBudget, PersistentVolume,
    PersistentVolumeClaim, StorageClass, CSINode, PodGroup, Namespace, LimitRange,
    Deployment, ReplicaSet, ReplicationController, StatefulSet, DaemonSet, Job,
    CronJob and Service. Other kinds are ignored (one warning line); a kind read at
    an apiVersion the API server does not serve (apps/v1beta2) is an error.

    \b
    Exit codes: 0 every pending pod was scheduled (pods for schedulers no
    profile serves are Skipped, which is not a failure); 2 some were not
    (Unschedulable or Gated), or an operation blocked a drain or lost a pod;
    1 invalid input, configuration or usage.

    \b
    What-if operations (--drain, --remove-node, --cordon, --uncordon, --add-nodes,
    --scale) change the loaded cluster in the order given before the plan runs; the
    output then starts with what they did and each node's requests before and after.

    \b
    Examples (`ksched examples all examples` copies examples/ anywhere; each has a README):
      ksched plan examples/basic
      ksched plan examples/preemption -o wide --explain-pod default/payments
      ksched plan examples/gang --config gang -o json --explain
      ksched plan examples/storage --explain-pod default/ssd-1
      ksched plan examples/chart --explain-pod shop/db-2     # a chart and a snapshot
      helm template shop ./shop | ksched plan - snapshot.yaml -o wide
      ksched plan snapshot.yaml --config bin-packing -o wide
      ksched plan cluster/ --config my-profile.yaml -o json --explain
      ksched plan cluster/ --config with-extenders.yaml --extender-mode stub=replies.json
      ksched plan snapshot.yaml -n payments -l app=web --no-headers
      ksched plan snapshot.yaml --explain --top 3 | less
      ksched plan examples/upgrade --kubernetes-version 1.36
      ksched plan examples/preemption -o html > report.html
      ksched plan examples/drain/cluster.yaml --drain node-a   # what if node-a is drained?
      ksched plan cluster/ --add-nodes pool.yaml=3 --scale deployment/web=12
    """
    check_combination(output, explain, explain_pod)
    chosen = selection_or_exit(namespace, all_namespaces, selector)
    operations = operations_or_exit(None if all_namespaces else namespace)
    placed_in = None if all_namespaces else namespace
    cfg, loaded = load_or_exit(config, paths, kubernetes_version.features, placed_in)
    # The report's cluster view starts from the cluster as loaded, before any operation.
    report = _HtmlReport(loaded) if output == "html" else None
    before = {p.key: owner_of(p) for p in loaded.cluster.pods} if operations else None
    whatif = _apply_or_exit(loaded, operations, drain_timeout) if operations else None
    explain_pod = explained_or_exit(loaded.cluster, explain_pod, placed_in, before)
    ext = _extender_setup_or_exit(cfg, extender_mode, record_extenders, [config, *paths])
    if ext.notice:
        # Said loudly: a plan without its extenders can differ from kube-scheduler's.
        loaded.warnings.append(ext.notice)
    for warning in loaded.warnings:
        click.echo(printable(f"warning: {warning}"), err=True)
    running = {p.key: p.node_name for p in loaded.cluster.pods if p.node_name}
    shown = chosen.shown(loaded.cluster.pods)
    structured = output in ("json", "yaml")
    writer = None
    if not structured and report is None:
        writer = text_writer(output, explain, explain_pod, top, running, shown, no_headers)
    with ExitStack() as cleanup:
        # -o json|yaml: attempts are spooled as they come (with --explain the document is
        # gigabytes on a large cluster); leaving the block removes the spool, come what may.
        doc = None
        if structured:
            doc = _structured_or_exit(output, explain, shown)
            cleanup.callback(doc.close)
        hook = writer.on_attempts if writer is not None else doc.on_attempts if doc else None
        with progress_line() as progress:
            options = EngineOptions(
                tie_break=tie_break,
                seed=seed,
                progress=progress,
                record=_record_level(output, explain, explain_pod),
                extender_mode=ext.mode,
                extender_transport=ext.transport,
                on_attempts=hook,
            )
            engine = Engine(cfg, loaded.cluster, options)
            if writer is not None:
                writer.view.plan = engine.plan
            result = _run_or_exit(engine, ext, whatif[0] if whatif is not None else None)
        extra = _finish_whatif(whatif, loaded.cluster, result) if whatif is not None else None
        for warning in result.warnings:  # extender failures skipped during the plan
            click.echo(printable(f"warning: {warning}"), err=True)
        result.warnings.extend(loaded.warnings)
        if doc is not None:
            doc.finish(result, sys.stdout, extra)
        elif report is not None:
            click.echo(report.render(result, loaded.cluster, paths, whatif), nl=False)
        else:
            assert writer is not None
            _write_text(writer, ext, whatif, chosen.nothing_found(shown, writer.view.decisions()))
    sys.exit(_exit_code(result, whatif, ext))


def _record_level(output: str, explain: bool, explain_pod: tuple[str, ...]) -> str:
    """How much of each attempt to keep: only what the chosen output shows, since full
    score tables are large on big clusters."""
    if output == "html":
        return "weighted"  # the report draws every pod's filter reasons and scores
    if explain and output in ("json", "yaml"):
        return "weighted"
    return "full" if explain or explain_pod else "summary"


def _write_text(
    writer: TextPlanWriter,
    ext: ExtenderSetup,
    whatif: tuple[WhatIfReport, list[str]] | None,
    nothing_found: str | None,
) -> None:
    out = cast(TextIO, PrintableWriter(sys.stdout))  # text: line breaks only, nothing raw
    if ext.notice:
        out.write(f"WARNING: {ext.notice}\n")
    if whatif is not None:
        from ..render.whatif_text import render_whatif

        out.write(render_whatif(whatif[0]))
    if nothing_found is not None and not writer.stories:
        # As kubectl get: no table at all, and the sentence on stderr.
        out.flush()
        click.echo(nothing_found, err=True)
        return
    writer.finish(out)


def _exit_code(
    result: Plan, whatif: tuple[WhatIfReport, list[str]] | None, ext: ExtenderSetup
) -> int:
    """2 when a pending pod was not scheduled or an operation disrupted workloads, 1 when
    the extender recording could not be written (after the output: the plan is kept)."""
    recording_failed = finish(ext)
    if recording_failed:
        click.echo(recording_failed, err=True)
        return EXIT_ERROR
    # Skipped pods belong to another scheduler: not this plan's failure.
    pending_failed = any(d.outcome in LEFT_PENDING for d in result.decisions)
    disrupted = whatif is not None and whatif[0].disrupted()
    return EXIT_SOME_PENDING if pending_failed or disrupted else EXIT_ALL_SCHEDULED


def _apply_or_exit(
    loaded: LoadResult, operations: list[Operation], drain_timeout: float | None
) -> tuple[WhatIfReport, list[str]]:
    # The what-if modules are imported only when an operation is given (start-up).
    from ..whatif.apply import apply_operations

    try:
        return apply_operations(loaded.cluster, operations, drain_timeout=drain_timeout)
    except KschedError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(EXIT_ERROR)


def _finish_whatif(
    whatif: tuple[WhatIfReport, list[str]], cluster: Cluster, result: Plan
) -> dict[str, object]:
    """The report completed with the plan's outcome, its notes first in the plan's."""
    from ..render.whatif_document import whatif_document
    from ..whatif.apply import finish_report

    finish_report(whatif[0], cluster, result)
    result.notes[:0] = whatif[1]
    return {"whatif": whatif_document(whatif[0])}


def _structured_or_exit(
    output: str, explain: bool, shown: set[str] | None
) -> StructuredPlanWriter:
    """The -o json|yaml writer, its spool open (closed by the caller)."""
    from ..render.structured_plan import StructuredPlanWriter

    try:
        return StructuredPlanWriter(output, explain, shown).__enter__()
    except KschedError as exc:  # no room or no right to spool under $TMPDIR
        click.echo(exc.render(), err=True)
        sys.exit(EXIT_ERROR)


def _run_or_exit(engine: Engine, ext: ExtenderSetup, whatif: WhatIfReport | None) -> Plan:
    try:
        if whatif is not None and whatif.waiting is not None:
            from ..whatif.apply import run_plan

            return run_plan(engine, whatif)  # a drain still retrying its evictions
        return engine.run()
    except KschedError as exc:  # an extender that cannot be reached (cli/extender_reach.py)
        click.echo(exc.render(), err=True)
        recording_failed = finish(ext)  # what was recorded so far is still written
        if recording_failed:
            click.echo(recording_failed, err=True)
        sys.exit(EXIT_ERROR)


class _HtmlReport:
    """The cluster before the plan, kept for ``-o html`` (the run binds and deletes pods)."""

    def __init__(self, loaded: LoadResult) -> None:
        from ..render.html.model import capture
        from ..render.html.report import owners_of

        self.before = capture(loaded.cluster.nodes, loaded.cluster.pods)
        self.owners = owners_of(loaded.cluster.pods)

    def render(
        self,
        result: Plan,
        cluster: Cluster,
        paths: Sequence[str],
        whatif: tuple[WhatIfReport, list[str]] | None,
    ) -> str:
        from ..render.html.model import capture
        from ..render.html.report import owners_of, plan_report

        after = capture(cluster.nodes, cluster.pods)
        # Pods made during the run (by controllers) have owners too; victims are gone.
        owners = {**self.owners, **owners_of(cluster.pods)}
        report = whatif[0] if whatif is not None else None
        return plan_report(result, self.before, after, owners, paths, report)


def _extender_setup_or_exit(
    cfg: SchedulerConfig, mode: str, record: str | None, inputs: Sequence[str]
) -> ExtenderSetup:
    try:
        return setup(cfg, mode, record, inputs)
    except KschedError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(EXIT_ERROR)
