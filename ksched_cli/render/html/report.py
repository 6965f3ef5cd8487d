"""The commands' entry points: a finished run in, the HTML file's text out."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ...api.pod import Pod
from ...diff.model import DiffResult
from ...engine.records import Plan
from .diff_data import diff_page
from .model import ClusterState
from .page import render_page
from .plan_data import plan_page


def owners_of(pods: Iterable[Pod]) -> dict[str, str]:
    """Pod key -> ``Pod.workload`` for the pods that have an owning workload."""
    return {p.key: p.workload for p in pods if p.workload}


def plan_report(
    plan: Plan,
    before: ClusterState,
    after: ClusterState,
    owners: Mapping[str, str],
    inputs: Sequence[str],
) -> str:
    title = "ksched plan: " + " ".join(inputs)
    return render_page("plan", plan_page(plan, before, after, owners, title))


def diff_report(result: DiffResult, owners: Mapping[str, str]) -> str:
    title = f"ksched diff: {result.base.config} \u2192 {result.head.config}"
    return render_page("diff", diff_page(result, owners, title))
