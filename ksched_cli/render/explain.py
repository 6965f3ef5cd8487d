"""``--explain-pod``: a readable breakdown of every attempt of one pod."""

from __future__ import annotations

from ..engine.records import Attempt, Plan
from .tabular import tabulate


def _filtered_lines(a: Attempt) -> list[str]:
    lines = []
    for node, f in sorted(a.filtered.items()):
        lines.append(f"    {node}: rejected by {f.plugin}: {'; '.join(f.reasons)}")
    return lines


def _score_table(a: Attempt) -> str:
    plugins = sorted({p for s in a.scores.values() for p in s.weighted})
    headers = ["NODE", *plugins, "TOTAL"]
    rows = []
    ranked = sorted(a.scores.items(), key=lambda kv: (-kv[1].total, kv[0]))
    for node, s in ranked:
        cells = [
            f"{s.raw.get(p, '-')}/{s.normalized.get(p, '-')}/{s.weighted.get(p, '-')}"
            for p in plugins
        ]
        marker = " *" if node == a.node else ""
        rows.append([node + marker, *cells, s.total])
    return tabulate(rows, headers=headers, tablefmt="plain", disable_numparse=True)


def _why_winner(a: Attempt) -> str:
    if not a.scores or not a.node:
        return ""
    winner = a.scores[a.node]
    ru = a.runner_up
    if ru is None:
        return ""
    runner = a.scores[ru[0]]
    if winner.total == runner.total:
        return f"  tie at {winner.total} with {', '.join(a.tied_with)}; the lowest node name wins"
    diffs = sorted(
        ((winner.weighted.get(p, 0) - runner.weighted.get(p, 0), p) for p in winner.weighted),
        reverse=True,
    )
    leads = ", ".join(f"{p} +{d}" for d, p in diffs if d > 0) or "no single plugin"
    return f"  {a.node} beat {ru[0]} by {winner.total - runner.total} ({leads})"


def render_attempt(a: Attempt, nodes: int) -> str:
    out = [f"attempt at t={a.time:g}s: {a.result}" + (f" on {a.node}" if a.node else "")]
    if a.evaluated:
        out.append(f"  {a.evaluated} of {nodes} node(s) evaluated, {a.feasible} feasible")
    if a.filtered:
        out.append("  filtered:")
        out.extend(_filtered_lines(a))
    if a.scores:
        out.append("  scores (raw/normalized/weighted per plugin):")
        out.extend("    " + line for line in _score_table(a).splitlines())
        why = _why_winner(a)
        if why:
            out.append(why)
    if a.victims:
        out.append(f"  victims: {', '.join(a.victims)}")
    preemption = a.detail.get("preemption")
    if isinstance(preemption, dict):
        for line in preemption.get("lines", []):
            out.append(f"  {line}")
    for key in ("permit", "volumes"):
        for line in a.detail.get(key, []) if isinstance(a.detail.get(key), list) else []:
            out.append(f"  {key}: {line}")
    if a.message:
        out.append(f"  message: {a.message}")
    return "\n".join(out)


def render_pod(plan: Plan, pod: str, running_on: str = "") -> str:
    """Every attempt of ``pod``; ``running_on`` names the node of a running pod of the input,
    for the pods the plan never touched (they have neither a decision nor an attempt)."""
    decision = plan.decision_for(pod)
    attempts = [a for a in plan.attempts if a.pod == pod]
    if decision is None and not attempts:
        if running_on:
            return f"Pod {pod}: Running on {running_on}; this plan did not move it\n"
        return f"Pod {pod}: not part of this plan\n"
    head = f"Pod {pod}"
    if decision is not None:
        head += f": {decision.outcome}" + (f" on {decision.node}" if decision.node else "")
        if decision.preempted_by:
            head += f" (preempted by {decision.preempted_by})"
    parts = [head]
    if decision is not None and decision.message:
        parts.append(f"  {decision.message}")
    parts.extend(render_attempt(a, plan.node_count) for a in attempts)
    if not attempts:
        parts.append("  no scheduling attempt (running pod or never queued)")
    return "\n".join(parts) + "\n"


def render_attempts(plan: Plan) -> str:
    """Every attempt in order, for ``--explain`` with table output."""
    parts = [f"{a.pod} " + render_attempt(a, plan.node_count) for a in plan.attempts]
    notes = [f"note: {n}" for n in plan.notes]
    return "\n".join([*notes, *parts]) + "\n"
