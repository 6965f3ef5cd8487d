"""Placement comparison: two plans of (possibly different) clusters, pod by pod."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from functools import cached_property

from ..engine import records as rec
from ..record import record
from ..whatif.model import WhatIfReport
from .model import (
    ADDED,
    MOVED,
    OUTCOME,
    REMOVED,
    RUNNING,
    VICTIMS,
    Margin,
    PluginShift,
    PodChange,
    PodState,
    SideScores,
)

_PLACING = (rec.SCHEDULED, rec.WAITING)


@record(frozen=True)
class Planned:
    """One side: its plan and what the plan cannot tell about the input."""

    plan: rec.Plan
    # Pods bound in the input -> node, taken before the run (binding and preemption
    # change the cluster).
    running: dict[str, str]
    nodes: frozenset[str]
    # Pod -> owning workload ("deployment/web") for every pod of the input that has one.
    owners: dict[str, str] = field(default_factory=dict)
    # The what-if report when operations changed this side's cluster before its plan.
    whatif: WhatIfReport | None = None

    @cached_property
    def placing(self) -> dict[str, rec.Attempt]:
        return placing_attempts(self.plan.attempts)


def pod_states(plan: rec.Plan, running: dict[str, str]) -> dict[str, PodState]:
    """Every pod's final state: its last decision, or Running on its input node."""
    last: dict[str, rec.Decision] = {}
    victims: dict[str, list[str]] = {}
    for d in plan.decisions:
        last[d.pod] = d  # a pod scheduled and then preempted ends Preempted
        if d.preempted_by:
            victims.setdefault(d.preempted_by, []).append(d.pod)
    states = {pod: PodState(RUNNING, node) for pod, node in running.items()}
    for pod, d in last.items():
        states[pod] = PodState(
            d.outcome,
            d.node,
            d.message or d.note,
            d.preempted_by,
            tuple(sorted(victims.get(pod, ()))),
        )
    return states


def placing_attempts(attempts: Iterable[rec.Attempt]) -> dict[str, rec.Attempt]:
    """Each pod's last attempt that chose a node (a Permit wait counts: it reserved one)."""
    out: dict[str, rec.Attempt] = {}
    for a in attempts:
        if a.result in _PLACING and a.node:
            out[a.pod] = a
    return out


def _kinds(base: PodState | None, head: PodState | None) -> tuple[str, ...]:
    if base is None:
        return (ADDED,)
    if head is None:
        return (REMOVED,)
    kinds = []
    if base.outcome != head.outcome:
        kinds.append(OUTCOME)
    elif base.node != head.node:
        kinds.append(MOVED)
    if base.victims != head.victims:
        kinds.append(VICTIMS)
    return tuple(kinds)


def _missing_note(attempt: rec.Attempt, node: str, nodes: frozenset[str]) -> str:
    if node not in nodes:
        return f"{node} is not in the cluster"
    filtered = attempt.filtered.get(node)
    if filtered is not None:
        return f"{node} was filtered by {filtered.plugin}: {'; '.join(filtered.reasons)}"
    if attempt.score_table is None and not attempt.scores:
        # kube-scheduler scores nothing when one node is feasible (or the nominated one fits).
        return f"{node} was not scored: only {attempt.node} was evaluated as feasible"
    return f"{node} was not evaluated (percentageOfNodesToScore)"


def _weighted(attempt: rec.Attempt, node: str) -> dict[str, int] | None:
    """One node's weighted scores and total, read from the attempt's score table.

    ``attempt.scores`` would build every scored node's dicts; two nodes are needed.
    """
    table = attempt.score_table
    if table is None:  # scores given directly, or fewer than two feasible nodes
        found = attempt.scores.get(node)
        return None if found is None else {**found.weighted, "total": found.total}
    try:
        i = table.names.index(node)
    except ValueError:
        return None
    weighted = {p: int(table.weighted[p][i]) for p in table.plugins}
    return {**weighted, "total": int(table.total[i])}


def side_scores(
    attempt: rec.Attempt | None, base_node: str, head_node: str, nodes: frozenset[str]
) -> SideScores:
    if attempt is None:
        return SideScores({}, None, "no placing attempt was recorded")
    scores = {
        node: found
        for node in sorted({base_node, head_node})
        if (found := _weighted(attempt, node)) is not None
    }
    missing = [n for n in (base_node, head_node) if n not in scores]
    if missing:
        # The winner goes unscored when it was the only feasible node; the loser says why.
        explain = [n for n in missing if n != attempt.node] or missing
        notes = "; ".join(_missing_note(attempt, n, nodes) for n in explain)
        return SideScores(scores, None, notes)
    return SideScores(scores, scores[head_node]["total"] - scores[base_node]["total"])


def _drivers(base: SideScores, head: SideScores, base_node: str, head_node: str) -> tuple[
    PluginShift, ...
]:
    if base.margin is None or head.margin is None:
        return ()

    def lead(side: SideScores, plugin: str) -> int:
        return side.scores[head_node].get(plugin, 0) - side.scores[base_node].get(plugin, 0)

    plugins = {p for s in (base, head) for node in s.scores.values() for p in node} - {"total"}
    shifts = [PluginShift(p, lead(base, p), lead(head, p)) for p in plugins]
    return tuple(sorted((s for s in shifts if s.shift), key=lambda s: (-s.shift, s.plugin)))


def margin(pod: str, base_node: str, head_node: str, base: Planned, head: Planned) -> Margin:
    """Why a pod moved: the two nodes' scores in each side's placing attempt.

    A plugin's shift is how much more it favoured head's node over base's node on
    head than on base; the shifts add up to the change in margin.
    """
    on_base = side_scores(base.placing.get(pod), base_node, head_node, base.nodes)
    on_head = side_scores(head.placing.get(pod), base_node, head_node, head.nodes)
    drivers = _drivers(on_base, on_head, base_node, head_node)
    return Margin(base_node, head_node, on_base, on_head, drivers)


def _decided_owners(side: Planned) -> dict[str, str]:
    return {d.pod: d.owner for d in side.plan.decisions if d.owner}


def compare(
    base: Planned, head: Planned, namespace: str | None = None
) -> tuple[list[PodChange], int]:
    """The changed pods, sorted by pod, and how many pods were compared (those of
    ``namespace`` only, when given: every pod was planned, -n chooses what is compared)."""
    base_states = pod_states(base.plan, base.running)
    head_states = pod_states(head.plan, head.running)
    pods = sorted(set(base_states) | set(head_states))
    if namespace is not None:
        pods = [p for p in pods if p.startswith(f"{namespace}/")]
    # Pods of the input, then pods the controllers made during the plans (head wins).
    owners = {**base.owners, **_decided_owners(base), **head.owners, **_decided_owners(head)}
    changes = []
    for pod in pods:
        before, after = base_states.get(pod), head_states.get(pod)
        kinds = _kinds(before, after)
        if not kinds:
            continue
        why = None
        # Running pods were placed by the input, not by a scoring attempt.
        placed = before is not None and before.outcome != RUNNING
        if MOVED in kinds and placed and before is not None and after is not None:
            why = margin(pod, before.node, after.node, base, head)
        owner = owners.get(pod, "")
        changes.append(PodChange(pod, kinds, before, after, why, owner))
    return changes, len(pods)
