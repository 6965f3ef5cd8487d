"""``ksched simulate``: a timed scenario of cluster changes, and what the scheduler does."""

from __future__ import annotations

import json
import sys

import click
import yaml

from ..api.owners import owner_of
from ..api.printed_names import parse_name
from ..config.load import load_config
from ..engine.cluster import Cluster
from ..engine.engine import EngineOptions
from ..engine.records import LEFT_PENDING
from ..errors import KschedError, printable_text
from ..render.timeline import explain_story, render_timeline, timeline_document
from ..versions.releases import Release
from ..whatif.inputs import load_cluster
from ..whatif.scenario import load_scenario
from ..whatif.simulate import Timeline
from ..whatif.simulate import simulate as run_scenario
from .limit_opts import limit_options
from .progress import progress_line
from .usage import ExitOneCommand
from .version_opts import kubernetes_version_option
from .whatif_opts import drain_timeout_option


@click.command("simulate", cls=ExitOneCommand,
               short_help="Replay a timed scenario of cluster changes.")
@click.argument("scenario_file", metavar="SCENARIO.yaml", type=click.Path(readable=False))
@click.argument("paths", nargs=-1, required=True, type=click.Path(readable=False),
                metavar="PATH...")
@click.option("--config", "-c", "config", default="default", show_default=True,
              help="KubeSchedulerConfiguration file, or a built-in profile name.")
@click.option("-o", "--output", type=click.Choice(["table", "json", "yaml", "html"]),
              default="table", show_default=True,
              help="Output format (html: a self-contained report with every pod's story).")
@click.option("--explain-pod", "explain_pod", multiple=True, metavar="NAME",
              help="After the timeline, every attempt for this pod: filter reasons, scores "
                   "(repeatable; table output). NAME as printed: NS/NAME, pod/NAME, NAME "
                   "(in -n NS or default), or a workload's KIND/NAME or NS/KIND/NAME (its "
                   "pods' stories).")
@click.option("-n", "--namespace", "namespace", metavar="NS", default=None,
              help="Namespace of --explain-pod names naming none, and of manifests without "
                   "one (as kubectl apply -n).")
@click.option("-v", "--verbose", is_flag=True,
              help="Also list the events that requeued no pod.")
@drain_timeout_option()
@kubernetes_version_option()
@limit_options
def simulate(scenario_file: str, paths: tuple[str, ...], config: str, output: str,
             explain_pod: tuple[str, ...], namespace: str | None, verbose: bool,
             drain_timeout: float | None, kubernetes_version: Release) -> None:
    """Replay SCENARIO.yaml on the cluster of PATH...: each step (drain, removeNode,
    cordon, uncordon, addNodes, scale, create, delete) happens at its simulated time
    and reaches the scheduler as a cluster event, which moves unschedulable pods back
    to the queue as the chosen release's event handlers do (from 1.32 through the
    plugins' queueing hints, see docs/semantics.md §12). The output is the plan
    as a timeline: each step, the pods it requeued, and the decisions until the next
    step; then the final placements and each node's requests before and after.

    The scenario format is schemas/scenario-v1.json (see docs/whatif.md).

    \b
    Exit codes: 0 every pending pod ended scheduled; 2 some did not; 1 invalid
    input, scenario, configuration or usage.

    \b
    Examples:
      ksched simulate examples/scenario/scenario.yaml examples/scenario/cluster.yaml
      ksched simulate maintenance.yaml snapshot/ --config bin-packing -o json
      ksched simulate examples/scenario/scenario.yaml examples/scenario/cluster.yaml -o html
      cd examples/scenario && ksched simulate scenario.yaml cluster.yaml --kubernetes-version 1.32
      ksched simulate examples/maintenance/scenario.yaml examples/maintenance/cluster \\
        examples/maintenance/shop --explain-pod shop/db-1 --drain-timeout 2m
    """
    if explain_pod and output != "table":
        click.echo("error: --explain-pod needs the table output", err=True)
        sys.exit(1)
    try:
        cfg = load_config(config, kubernetes_version.features)
        scenario = load_scenario(scenario_file)
        cluster = load_cluster(list(paths), kubernetes_version=kubernetes_version.version,
                               namespace=namespace).cluster
        page = _HtmlPage(cluster) if output == "html" else None
        # The report draws every pod's story: filter reasons and weighted scores.
        record = "weighted" if page is not None else "full" if explain_pod else "summary"
        for name in explain_pod:  # malformed: before the run; found: once it has run
            parse_name(name, namespace, option="--explain-pod")
        owners = {p.key: owner_of(p) for p in cluster.pods}
        with progress_line() as progress:
            timeline = run_scenario(cfg, cluster, scenario,
                                    EngineOptions(record=record, progress=progress),
                                    drain_timeout=drain_timeout)
        explained = _explained(timeline, cluster, explain_pod, namespace, owners)
    except KschedError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(1)
    if page is not None:
        click.echo(page.render(timeline, cluster, [scenario_file, *paths]), nl=False)
    elif output == "json":
        click.echo(json.dumps(timeline_document(timeline), indent=2))
    elif output == "yaml":
        click.echo(yaml.safe_dump(timeline_document(timeline), sort_keys=False), nl=False)
    else:
        click.echo(printable_text(render_timeline(timeline, verbose)), nl=False)
        for pod in explained:
            click.echo(printable_text("\n" + explain_story(timeline, pod)), nl=False)
    # As for plan: pods for schedulers no profile serves (Skipped) are not a failure.
    failed = any(d.outcome in LEFT_PENDING for d in timeline.plan.decisions)
    sys.exit(2 if failed else 0)


def _explained(timeline: Timeline, cluster: Cluster, names: tuple[str, ...],
               namespace: str | None, owners: dict[str, str]) -> tuple[str, ...]:
    """The pods ``--explain-pod`` names stand for: of the input, or made or deleted
    during the scenario (a workload: every pod it had)."""
    if not names:
        return ()
    from .names import resolve_pods

    owners |= {d.pod: d.owner for d in timeline.plan.decisions}
    return resolve_pods(cluster, names, namespace, (), "--explain-pod", owners)


class _HtmlPage:
    """The cluster before the first step, kept for ``-o html``."""

    def __init__(self, cluster: Cluster) -> None:
        from ..render.html.model import capture
        from ..render.html.report import owners_of

        self.before = capture(cluster.nodes, cluster.pods)
        self.owners = owners_of(cluster.pods)

    def render(self, timeline: Timeline, cluster: Cluster, inputs: list[str]) -> str:
        from ..render.html.model import capture
        from ..render.html.report import owners_of, simulate_report

        after = capture(cluster.nodes, cluster.pods)
        owners = {**self.owners, **owners_of(cluster.pods)}
        return simulate_report(timeline, self.before, after, owners, inputs)
