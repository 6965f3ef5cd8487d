"""The commands' entry points: a finished run in, the HTML file's text out."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...api.pod import Pod
from ...diff.model import DiffResult
from ...engine.records import Plan
from ...whatif.capacity import CapacityResult
from ...whatif.model import WhatIfReport
from ...whatif.simulate import Timeline
from ..timeline import timeline_entries
from .diff_data import diff_page
from .model import RESOURCES, ClusterState
from .page import render_page
from .plan_data import node_rows, plan_page, zone_summary
from .whatif_data import capacity_section, whatif_section


def owners_of(pods: Iterable[Pod]) -> dict[str, str]:
    """Pod key -> ``Pod.workload`` for the pods that have an owning workload."""
    return {p.key: p.workload for p in pods if p.workload}


def plan_report(
    plan: Plan,
    before: ClusterState,
    after: ClusterState,
    owners: Mapping[str, str],
    inputs: Sequence[str],
    whatif: WhatIfReport | None = None,
) -> str:
    """``before`` is the cluster as loaded: with operations, before them."""
    title = "ksched plan: " + " ".join(inputs)
    data = plan_page(plan, before, after, owners, title)
    if whatif is not None:
        data["whatif"] = whatif_section(whatif)
    return render_page("plan", data)


def diff_report(result: DiffResult, whatif: WhatIfReport | None = None) -> str:
    title = f"ksched diff: {result.base.config} \u2192 {result.head.config}"
    data = diff_page(result, title)
    if whatif is not None:
        data["whatif"] = whatif_section(whatif)
    return render_page("diff", data)


def capacity_report(
    result: CapacityResult,
    before: ClusterState,
    after: ClusterState,
    inputs: Sequence[str],
    whatif: WhatIfReport | None = None,
) -> str:
    """``before`` and ``after``: the cluster when the copies start and when they stop."""
    data: dict[str, Any] = {
        "kind": "capacity",
        "title": "ksched capacity: " + " ".join(inputs),
        "meta": {"nodes": len(after.nodes)},
        "resources": list(RESOURCES),
        "zones": zone_summary(before, after),
        "nodes": node_rows(before, after),
        "capacity": capacity_section(result),
    }
    if whatif is not None:
        data["whatif"] = whatif_section(whatif)
    return render_page("capacity", data)


def simulate_report(
    timeline: Timeline,
    before: ClusterState,
    after: ClusterState,
    owners: Mapping[str, str],
    inputs: Sequence[str],
) -> str:
    """A plan page of the whole run, with the scenario's timeline and what its steps did."""
    title = "ksched simulate: " + " ".join(inputs)
    data = plan_page(timeline.plan, before, after, owners, title)
    data["kind"] = "simulate"
    data["timeline"] = timeline_entries(timeline)
    data["whatif"] = whatif_section(timeline.report)
    return render_page("simulate", data)
