"""``--explain`` and ``--explain-pod`` text: each attempt summarized, not listed node by node.

Filter rejections are grouped by plugin and reason with node counts (the histogram
kube-scheduler's FitError prints, with a few example nodes each); scores show the
chosen node and the best ``top`` others. ``-o json --explain`` keeps every node.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..engine.records import Attempt, Decision
from ..errors import printable
from .explain_scores import examples, score_lines


def filtered_lines(a: Attempt) -> list[str]:
    """One line per (plugin, reason): how many nodes it rejected, and a few of them."""
    groups: dict[tuple[str, str], list[str]] = {}
    for node in sorted(a.filtered):
        f = a.filtered[node]
        for reason in f.reasons or [""]:
            groups.setdefault((f.plugin, reason), []).append(node)
    ranked = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    out = [f"  filtered: {len(a.filtered)} node(s) rejected"]
    for (plugin, reason), nodes in ranked:
        why = f"{plugin}: {reason}" if reason else plugin
        out.append(f"    {len(nodes)} node(s) by {why} ({examples(nodes)})")
    return out


# Compiled on first use (re caches it): only explanations of preemption need it.
_NOT_A_CANDIDATE = r"^not a candidate (?P<node>\S+): (?P<why>.*)$"


def preemption_lines(lines: list[str]) -> list[str]:
    """Preemption's story with its per-node "not a candidate" lines grouped by reason,
    where the first of each group stood (there is one per node on a large cluster)."""
    groups: dict[str, list[str]] = {}
    order: list[str | tuple[str]] = []
    for line in lines:
        m = re.match(_NOT_A_CANDIDATE, line)
        if m is None:
            order.append(line)
            continue
        if m["why"] not in groups:
            order.append((m["why"],))
        groups.setdefault(m["why"], []).append(m["node"])
    out = []
    for item in order:
        if isinstance(item, str):
            out.append(item)
            continue
        nodes = groups[item[0]]
        out.append(f"not a candidate: {len(nodes)} node(s): {item[0]} ({examples(nodes)})")
    return out


def _detail_lines(a: Attempt) -> list[str]:
    out: list[str] = []
    preemption = a.detail.get("preemption")
    if isinstance(preemption, dict):
        told = [str(line).removeprefix("preemption: ") for line in preemption.get("lines", [])]
        out.extend(f"  preemption: {line}" for line in preemption_lines(told))
    for key in ("permit", "volumes"):
        lines = a.detail.get(key)
        if isinstance(lines, list):
            out.extend(f"  {key}: {line}" for line in lines)
    return out


def render_attempt(a: Attempt, nodes: int, top: int) -> str:
    out = [f"attempt at t={a.time:g}s: {a.result}" + (f" on {a.node}" if a.node else "")]
    if a.evaluated:
        out.append(f"  {a.evaluated} of {nodes} node(s) evaluated, {a.feasible} feasible")
    if a.filtered:
        out.extend(filtered_lines(a))
    if a.score_table is not None or a.scores:
        out.extend(score_lines(a, top))
    if a.victims:
        out.append(f"  victims: {', '.join(a.victims)}")
    out.extend(_detail_lines(a))
    if a.message:
        out.append(f"  message: {a.message}")
    return "\n".join(map(printable, out))  # each a line: breaks inside reasons escaped


def render_story(
    pod: str,
    decision: Decision | None,
    attempts: Iterable[Attempt],
    nodes: int,
    top: int,
    running_on: str = "",
) -> str:
    """Everything about one pod: its outcome, then each attempt. ``running_on`` names the
    node of a running pod of the input, which the plan never touched."""
    attempts = list(attempts)
    if decision is None and not attempts:
        if running_on:
            return f"Pod {pod}: Running on {running_on}; this plan did not move it\n"
        return f"Pod {pod}: not part of this plan\n"
    head = f"Pod {pod}"
    if decision is not None:
        head += f": {decision.outcome}" + (f" on {decision.node}" if decision.node else "")
        if decision.preempted_by:
            head += f" (preempted by {decision.preempted_by})"
    parts = [printable(head)]
    if decision is not None and decision.message:
        parts.append(printable(f"  {decision.message}"))
    parts.extend(render_attempt(a, nodes, top) for a in attempts)
    if not attempts:
        parts.append("  no scheduling attempt (running pod or never queued)")
    return "\n".join(parts) + "\n"
