"""``ksched capacity``: how many more copies of a pod fit, and what stops the next one."""

from __future__ import annotations

import json
import os
import sys

import click
import yaml

from ..api.pod import Pod
from ..config.load import load_config
from ..engine.cluster import Cluster
from ..engine.engine import EngineOptions
from ..errors import KschedError, printable_text
from ..limits import CAPACITY_MAX_PODS, POD_ENV
from ..render.capacity import capacity_document, render_capacity
from ..versions.releases import Release
from ..whatif.apply import apply_operations
from ..whatif.capacity import CapacityResult, count_capacity
from ..whatif.inputs import load_cluster
from ..whatif.model import WhatIfReport
from ..whatif.template import Pick, parse_pick, read_template
from .limit_opts import limit_options_with
from .progress import progress_line
from .usage import ExitOneCommand
from .version_opts import kubernetes_version_option
from .whatif_opts import OperationsCommand, operation_options, operations_or_exit


class _CapacityCommand(ExitOneCommand, OperationsCommand):
    pass


@click.command("capacity", cls=_CapacityCommand,
               short_help="How many more copies of a pod fit, and what stops the next one.")
@click.argument("pod_file", metavar="WORKLOAD_OR_POD_FILE", type=click.Path(readable=False))
@click.argument("paths", nargs=-1, required=True, type=click.Path(readable=False),
                metavar="PATH...")
@click.option("--config", "-c", "config", default="default", show_default=True,
              help="KubeSchedulerConfiguration file, or a built-in profile name.")
@click.option("--max", "limit", type=click.IntRange(min=0), default=None, metavar="N",
              help="Stop after N copies.")
@click.option("-o", "--output", type=click.Choice(["table", "json", "yaml", "html"]),
              default="table", show_default=True,
              help="Output format (html: a self-contained report, docs/html-report.md).")
@click.option("--workload", "workload", metavar="KIND/NAME", default=None,
              help="The Pod or workload to count when WORKLOAD_OR_POD_FILE holds several "
                   "(a chart's rendered manifests, a multi-document file or a directory); "
                   "any name ksched prints or kubectl reads (deploy/web, NS/deployment/web, "
                   "deployment.apps/web, or the name alone when one object has it).")
@click.option("-n", "--namespace", "namespace", metavar="NS", default=None,
              help="Namespace of --workload, of a KIND/NAME or pod NAME given instead of a "
              "file, of a --scale naming none, and of manifests without one (as kubectl "
              "apply -n).")
@kubernetes_version_option()
@operation_options
@limit_options_with(
    CAPACITY_MAX_PODS,
    "Stop with an error before creating more than N pods: the copies counted, workload "
    f"replicas, --scale (env {POD_ENV}; every copy is a scheduling cycle).",
)
def capacity(pod_file: str, paths: tuple[str, ...], config: str, limit: int | None,
             output: str, workload: str | None, namespace: str | None,
             kubernetes_version: Release) -> None:
    """Count how many more copies of the pod in WORKLOAD_OR_POD_FILE (a Pod, or a
    Deployment, ReplicaSet, StatefulSet, DaemonSet, Job or CronJob's pod template)
    fit in the cluster of PATH..., as cluster-capacity does: copies are scheduled
    one at a time under the profile until the first one that does not fit. A file or
    directory with several (a rendered chart) needs --workload KIND/NAME. Instead of a
    file, a workload or pod of PATH... named as ksched prints it (deployment/web with
    -n NS, NS/deployment/web, NS/NAME) copies one of its pods.

    The answer is the count, the count per node, the scheduler's message for the
    copy that did not fit, and each node's requests before and after. What-if
    operations apply to the cluster first.

    \b
    Exit codes: 0 counted; 1 invalid input, configuration or usage.

    \b
    Examples:
      ksched capacity examples/capacity/workloads/worker-pod.yaml examples/capacity/cluster.yaml
      ksched capacity api-deployment.yaml snapshot/ --config bin-packing -o json
      ksched capacity worker.yaml cluster/ --drain node-3 --max 100
      ksched capacity worker.yaml cluster/ -o html > capacity.html
      ksched capacity examples/maintenance/shop examples/maintenance/cluster \\
        --workload deployment/frontend -n shop
    """
    operations = operations_or_exit(namespace)
    try:
        pick = parse_pick(workload, namespace) if workload is not None else None
        cfg = load_config(config, kubernetes_version.features)
        cluster = load_cluster(list(paths), kubernetes_version=kubernetes_version.version,
                               namespace=namespace).cluster
        template = _template(pod_file, cluster, namespace, pick)
        whatif = apply_operations(cluster, operations)[0] if operations else None
        if template.scheduler_name not in {p.scheduler_name for p in cfg.profiles}:
            raise KschedError(f'no profile has schedulerName "{template.scheduler_name}"',
                              field="WORKLOAD_OR_POD_FILE")
        page = _HtmlPage(cluster) if output == "html" else None
        with progress_line() as progress:
            result = count_capacity(cfg, cluster, template, limit,
                                    EngineOptions(record="summary", progress=progress))
    except KschedError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(1)
    if page is not None:
        click.echo(page.render(result, cluster, [pod_file, *paths], whatif), nl=False)
    elif output == "json":
        click.echo(json.dumps(capacity_document(result), indent=2))
    elif output == "yaml":
        click.echo(yaml.safe_dump(capacity_document(result), sort_keys=False), nl=False)
    else:
        click.echo(printable_text(render_capacity(result)), nl=False)


class _HtmlPage:
    """The cluster when the copies start (after any operation), kept for ``-o html``."""

    def __init__(self, cluster: Cluster) -> None:
        from ..render.html.model import capture

        self.before = capture(cluster.nodes, cluster.pods)

    def render(self, result: CapacityResult, cluster: Cluster, inputs: list[str],
               whatif: WhatIfReport | None) -> str:
        from ..render.html.model import capture
        from ..render.html.report import capacity_report

        after = capture(cluster.nodes, cluster.pods)
        return capacity_report(result, self.before, after, inputs, whatif)


def _template(given: str, cluster: Cluster, namespace: str | None, pick: Pick | None) -> Pod:
    """The pod of a file, else of the workload or pod of the input that ``given`` names."""
    if os.path.lexists(given) or given.endswith((".yaml", ".yml", ".json")):
        return read_template(given, cluster, pick)
    from .names import template_from_input

    return template_from_input(cluster, given, namespace)
