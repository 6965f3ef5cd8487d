"""kubectl-style tables for ``ksched plan`` (default, ``-o wide`` and ``-o name``).

Pods owned by a workload are summarized on one line per workload
(``deployment/web  3/3 Scheduled``); ``-o wide`` lists their pods under it.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import field
from typing import TextIO

from ..api.owners import owner_label
from ..engine.records import SCHEDULED, Attempt, Decision, Plan
from ..record import record
from .plain import write_table
from .reasons import decisive_first

HEADERS = ["POD", "OUTCOME", "NODE", "REASON"]
WIDE_HEADERS = [
    "POD", "OUTCOME", "NODE", "PRIORITY", "SCORE", "RUNNER-UP", "ATTEMPTS", "VICTIMS", "REASON",
]
REASON_WIDTH = 120


@record
class PodFacts:
    """What the wide table shows of a pod's attempts, kept as they stream past."""

    attempts: int = 0
    total: int | None = None  # the last attempt's chosen-node total
    runner_up: tuple[str, int] | None = None

    def add(self, a: Attempt) -> None:
        self.attempts += 1
        self.total = a.node_total
        self.runner_up = a.runner_up if self.total is not None else None


@record
class TableView:
    """The plan as the table shows it: which pods, their owners and attempt facts."""

    plan: Plan
    facts: dict[str, PodFacts] = field(default_factory=dict)
    shown: set[str] | None = None  # None: every pod
    wide: bool = False
    no_headers: bool = False

    def add_attempts(self, attempts: list[Attempt]) -> None:
        if not self.wide:  # only -o wide shows attempt counts and scores
            return
        for a in attempts:
            self.facts.setdefault(a.pod, PodFacts()).add(a)

    def decisions(self) -> list[Decision]:
        return [d for d in self.plan.decisions if self.shown is None or d.pod in self.shown]


def _victims(plan: Plan) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for d in plan.decisions:
        if d.preempted_by:
            out.setdefault(d.preempted_by, []).append(d.pod)
    return out


def _reason(d: Decision, victims: dict[str, list[str]]) -> str:
    if d.preempted_by:
        return f"preempted by {d.preempted_by}"
    if victims.get(d.pod):
        return "preempted " + ", ".join(victims[d.pod])
    return d.message or d.note


def _pod_row(view: TableView, d: Decision, victims: dict[str, list[str]]) -> list[str]:
    node = d.node or "<none>"
    if not view.wide:
        return [d.pod, d.outcome, node, decisive_first(_reason(d, victims), REASON_WIDTH)]
    facts = view.facts.get(d.pod, PodFacts())
    # Only the attempt that placed the pod has a meaningful score: an Unschedulable pod's
    # last attempt may have been a Permit wait on a node it then lost.
    placed = d.outcome == SCHEDULED and facts.total is not None
    ru = facts.runner_up if placed else None
    return [
        d.pod, d.outcome, node, str(d.priority),
        str(facts.total) if placed else "-",
        f"{ru[0]} ({ru[1]})" if ru else "-",
        str(facts.attempts),
        ",".join(victims.get(d.pod, [])) or "-",
        _reason(d, victims),
    ]


def _rollup_row(view: TableView, label: str, members: list[Decision]) -> list[str]:
    """``deployment/web  2/3 Scheduled  2 node(s)  1 Unschedulable: <first reason>``."""
    scheduled = [d for d in members if d.outcome == SCHEDULED]
    nodes = sorted({d.node for d in scheduled})
    node = nodes[0] if len(nodes) == 1 else f"{len(nodes)} node(s)" if nodes else "<none>"
    others: dict[str, int] = {}
    for d in members:
        if d.outcome != SCHEDULED:
            others[d.outcome] = others.get(d.outcome, 0) + 1
    reason = ", ".join(f"{n} {outcome}" for outcome, n in sorted(others.items()))
    first = next((d.message or d.note for d in members if d.outcome != SCHEDULED), "")
    outcome = f"{len(scheduled)}/{len(members)} Scheduled"
    if not view.wide:
        if first:
            reason += ": " + decisive_first(first, REASON_WIDTH - len(reason) - 2)
        return [label, outcome, node, reason]
    if first:
        reason += f": {first}"
    attempts = sum(view.facts.get(d.pod, PodFacts()).attempts for d in members)
    return [label, outcome, node, "-", "-", "-", str(attempts), "-", reason]


def rows(view: TableView) -> Iterator[list[str]]:
    """Bare pods in decision order; each workload's line where its first pod would be."""
    victims = _victims(view.plan)
    decisions = view.decisions()
    groups: dict[str, list[Decision]] = {}
    for d in decisions:
        if d.owner:
            groups.setdefault(owner_label(d.pod, d.owner), []).append(d)
    done: set[str] = set()
    for d in decisions:
        if not d.owner:
            yield _pod_row(view, d, victims)
            continue
        label = owner_label(d.pod, d.owner)
        if label in done:
            continue
        done.add(label)
        yield _rollup_row(view, label, groups[label])
        if view.wide:
            for member in groups[label]:
                yield _pod_row(view, member, victims)


def footer(plan: Plan, decisions: list[Decision]) -> str:
    counts: dict[str, int] = {}
    for d in decisions:
        counts[d.outcome] = counts.get(d.outcome, 0) + 1
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
    text = (
        f"{len(decisions)} decision(s) on {plan.node_count} node(s)"
        f" in {plan.end_time:g}s simulated"
    )
    return text + (f" ({summary})" if summary else "")


def write_plan_table(out: TextIO, view: TableView) -> None:
    headers = WIDE_HEADERS if view.wide else HEADERS
    write_table(out, headers, lambda: rows(view), view.no_headers)
    if not view.no_headers:
        out.write(footer(view.plan, view.decisions()) + "\n")


def write_names(out: TextIO, view: TableView) -> None:
    """``-o name``: ``pod/NAME`` per pod shown, as kubectl prints it."""
    for d in view.decisions():
        out.write(f"pod/{d.pod.split('/', 1)[1]}\n")


def render_table(plan: Plan, wide: bool = False) -> str:
    """The table of a whole plan as one string (tests and small plans)."""
    view = TableView(plan, wide=wide)
    view.add_attempts(plan.attempts)
    out = io.StringIO()
    write_plan_table(out, view)
    return out.getvalue()
