"""kubectl-style tables for ``ksched plan`` (default and ``-o wide``)."""

from __future__ import annotations

from ..engine.records import Attempt, Plan
from .tabular import tabulate


def _last_attempts(plan: Plan) -> dict[str, Attempt]:
    last: dict[str, Attempt] = {}
    for a in plan.attempts:
        last[a.pod] = a
    return last


def _victims(plan: Plan) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for d in plan.decisions:
        if d.preempted_by:
            out.setdefault(d.preempted_by, []).append(d.pod)
    return out


def _reason(message: str, width: int | None) -> str:
    if width is None or len(message) <= width:
        return message
    return message[: max(width - 3, 0)] + "..."


def render_table(plan: Plan, wide: bool = False, reason_width: int | None = 120) -> str:
    last = _last_attempts(plan)
    victims = _victims(plan)
    headers = ["POD", "OUTCOME", "NODE", "REASON"]
    if wide:
        headers = [
            "POD",
            "OUTCOME",
            "NODE",
            "PRIORITY",
            "SCORE",
            "RUNNER-UP",
            "ATTEMPTS",
            "VICTIMS",
            "REASON",
        ]
    attempts: dict[str, int] = {}
    for a in plan.attempts:
        attempts[a.pod] = attempts.get(a.pod, 0) + 1
    rows: list[list[str]] = []
    for d in plan.decisions:
        reason = d.message or d.note
        if d.preempted_by:
            reason = f"preempted by {d.preempted_by}"
        elif victims.get(d.pod):
            reason = "preempted " + ", ".join(victims[d.pod])
        node = d.node or "<none>"
        if not wide:
            rows.append([d.pod, d.outcome, node, _reason(reason, reason_width)])
            continue
        # Only the attempt that placed the pod has a meaningful score: an Unschedulable pod's
        # last attempt may have been a Permit wait on a node it then lost.
        last_attempt = last.get(d.pod) if d.outcome == "Scheduled" else None
        score = runner = ""
        total = last_attempt.node_total if last_attempt is not None else None
        if last_attempt is not None and total is not None:
            score = str(total)
            ru = last_attempt.runner_up
            runner = f"{ru[0]} ({ru[1]})" if ru else ""
        rows.append(
            [
                d.pod,
                d.outcome,
                node,
                str(d.priority),
                score or "-",
                runner or "-",
                str(attempts.get(d.pod, 0)),
                ",".join(victims.get(d.pod, [])) or "-",
                reason,
            ]
        )
    body = tabulate(rows, headers=headers, tablefmt="plain", disable_numparse=True)
    summary = ", ".join(f"{k}: {v}" for k, v in plan.summary().items())
    footer = (
        f"\n{len(plan.decisions)} decision(s) on {plan.node_count} node(s)"
        f" in {plan.end_time:g}s simulated"
    )
    return body + footer + (f" ({summary})" if summary else "") + "\n"
