"""Plan both sides of a diff and compare them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from ..api.owners import owner_of
from ..config.load import check_config
from ..config.types import SchedulerConfig
from ..engine.engine import Engine, EngineOptions
from ..errors import KschedError
from ..extender.transport import Transport
from ..record import record
from ..versions.features import V130, Features
from ..whatif.apply import apply_operations, finish_report, run_plan
from ..whatif.inputs import load_cluster
from ..whatif.ops.base import Operation
from .compare import Planned, compare
from .config_diff import diff_configs
from .model import DiffResult, Side

Progress = Callable[[int, int], None] | None


@record(frozen=True)
class SideInput:
    config: str  # a file, or a built-in profile name
    manifests: tuple[str, ...]
    features: Features = V130  # the kube-scheduler release this side replays
    # What-if operations applied to this side's cluster before it is planned.
    operations: tuple[Operation, ...] = ()
    drain_timeout: float | None = None  # how long its drains retry refused evictions
    # -n: objects naming no namespace are placed in it (kubectl apply -n), and only its
    # pods are compared.
    namespace: str | None = None


def load_effective(
    path_or_name: str, features: Features = V130
) -> tuple[SchedulerConfig, dict[str, Any]]:
    """The loaded configuration and its effective v1 object; the first error raises."""
    checked = check_config(path_or_name, features)
    if checked.errors or checked.config is None or checked.effective is None:
        raise checked.errors[0]
    return checked.config, checked.effective


@record(frozen=True)
class ExtenderUse:
    """How both sides reach configured extenders (see cli/extender_opts.py)."""

    mode: str = "call"
    transport: Transport | None = None


def plan_side(
    config: SchedulerConfig,
    manifests: Sequence[str],
    progress: Progress = None,
    extenders: ExtenderUse = ExtenderUse(),
    operations: Sequence[Operation] = (),
    drain_timeout: float | None = None,
    namespace: str | None = None,
) -> tuple[Planned, list[str]]:
    """Plan ``manifests`` on a freshly loaded cluster (a run binds and deletes its pods);
    ``namespace`` is ``-n``'s, for objects naming none."""
    loaded = load_cluster(
        list(manifests), kubernetes_version=config.features.version, namespace=namespace
    )
    cluster = loaded.cluster
    whatif = (apply_operations(cluster, operations, drain_timeout=drain_timeout)
              if operations else None)
    running = {p.key: p.node_name for p in cluster.pods if p.node_name}
    owners = {p.key: owner for p in cluster.pods if (owner := owner_of(p))}
    nodes = frozenset(n.name for n in cluster.nodes)
    # Ties always go to the lowest node name, so both sides are reproducible.
    options = EngineOptions(
        tie_break="lowest-name",
        progress=progress,
        record="weighted",
        extender_mode=extenders.mode,
        extender_transport=extenders.transport,
    )
    plan = run_plan(Engine(config, cluster, options), whatif[0] if whatif else None)
    warnings = loaded.warnings + plan.warnings
    if whatif is not None:
        finish_report(whatif[0], cluster, plan)
        plan.notes[:0] = whatif[1]
    report = whatif[0] if whatif else None
    return Planned(plan, running, nodes, owners, report), warnings


def run_diff(
    base: SideInput,
    head: SideInput,
    progress: Progress = None,
    extenders: ExtenderUse = ExtenderUse(),
) -> DiffResult:
    """Both plans and their differences; input and config problems raise KschedError."""
    if not base.manifests or not head.manifests:
        raise KschedError("no manifests to plan: give PATH... or --base-manifests/--head-manifests")
    base_config, base_effective = load_effective(base.config, base.features)
    head_config, head_effective = load_effective(head.config, head.features)
    base_planned, base_warnings = plan_side(
        base_config, base.manifests, progress, extenders, namespace=base.namespace
    )
    head_planned, head_warnings = plan_side(
        head_config, head.manifests, progress, extenders, head.operations, head.drain_timeout,
        head.namespace,
    )
    if extenders.mode == "skip" and (base_config.extender_configs or head_config.extender_configs):
        base_warnings.append(
            "extenders skipped (--extender-mode skip): configured extenders took no part "
            "in either plan"
        )
    changes, pods = compare(base_planned, head_planned, head.namespace)
    differ = base.features.version != head.features.version
    return DiffResult(
        base=_side(base, base_planned, differ),
        head=_side(head, head_planned, differ),
        config=diff_configs(base_effective, head_effective),
        changes=changes,
        pods=pods,
        # The same manifests on both sides warn twice; say it once.
        warnings=list(dict.fromkeys(base_warnings + head_warnings)),
        whatif=head_planned.whatif,
    )


def _side(given: SideInput, planned: Planned, versions_differ: bool = False) -> Side:
    # An upgrade diff names each side's release beside its profile.
    label = given.config
    if versions_differ:
        label = f"{given.config} @ kubernetes {given.features.version}"
    plan = planned.plan
    if given.namespace is not None:  # -n: the outcomes of its pods only
        prefix = f"{given.namespace}/"
        plan = replace(plan, decisions=[d for d in plan.decisions if d.pod.startswith(prefix)])
    return Side(label, list(given.manifests), plan.summary(), len(planned.nodes))
