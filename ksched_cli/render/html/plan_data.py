"""The plan page's data: nodes before and after, pods, reasons, and each pod's story.

``plan_page`` is the documented entry point (docs/html-report.md, "Page data"): any
command that runs the engine between two ``ClusterState``s can build this dict and
render it with ``render_page("plan", ...)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...engine import records as rec
from ...engine.records import Attempt, Decision, Plan
from .model import RESOURCES, ClusterState, NodeState
from .story import pod_story

# Outcomes that leave a pending pod without a node; the reasons panel counts them.
NOT_PLACED = (rec.UNSCHEDULABLE, rec.SCHEDULER_ERROR, rec.GATED, rec.SKIPPED)

# "0/5 nodes are available: 2 Insufficient cpu, 3 node(s) ...." (FitError.Error()).
_FIT_ERROR = re.compile(r"^0/\d+ nodes are available: (?P<reasons>.*?)\.(?: (?P<post>.*))?$")
_COUNTED = re.compile(r"^(?P<count>\d+) (?P<reason>.+)$")


def plan_page(
    plan: Plan,
    before: ClusterState,
    after: ClusterState,
    owners: Mapping[str, str],
    title: str = "ksched plan",
) -> dict[str, Any]:
    """The plan page's data dict (JSON-ready).

    ``owners`` maps pod keys to ``Pod.workload`` ("deployment/web", "" for a bare pod).
    """
    by_pod: dict[str, list[Attempt]] = {}
    for attempt in plan.attempts:
        by_pod.setdefault(attempt.pod, []).append(attempt)
    reasons, reason_ids = reason_groups(plan.decisions)
    pods = [
        pod_row(d, by_pod.get(d.pod, ()), owners.get(d.pod, ""), reason_ids.get(d.pod, []))
        for d in plan.decisions
    ]
    return {
        "kind": "plan",
        "title": title,
        "meta": {
            "profiles": list(plan.profiles),
            "nodes": len(after.nodes),
            "simulatedSeconds": plan.end_time,
            "warnings": list(plan.warnings),
        },
        "summary": plan.summary(),
        "resources": list(RESOURCES),
        "zones": zone_summary(before, after),
        "nodes": node_rows(before, after),
        "pods": pods,
        "reasons": reasons,
        "stories": {pod: pod_story(attempts) for pod, attempts in by_pod.items()},
    }


def node_rows(before: ClusterState, after: ClusterState) -> list[dict[str, Any]]:
    """One row per node of ``after`` (and per node only ``before`` has, drawn as removed)."""
    rows = []
    for node in after.nodes:
        rows.append(_node_row(before.by_name.get(node.name), node))
    rows.extend(_node_row(node, None) for node in before.nodes if node.name not in after.by_name)
    return rows


def _node_row(old: NodeState | None, new: NodeState | None) -> dict[str, Any]:
    some = new or old
    assert some is not None
    old_pods = old.pods if old is not None else frozenset()
    new_pods = new.pods if new is not None else frozenset()
    row: dict[str, Any] = {
        "name": some.name,
        "zone": some.zone,
        "alloc": list(some.allocatable),
        "before": list(old.requested) if old is not None else None,
        "after": list(new.requested) if new is not None else None,
        "received": len(new_pods - old_pods),
        "evicted": len(old_pods - new_pods),
    }
    if some.unschedulable:
        row["cordoned"] = True
    row["unusable"] = some.unusable  # "": pending pods can use it
    return row


def zone_summary(before: ClusterState, after: ClusterState) -> list[dict[str, Any]]:
    """Per zone (sorted, "" last): node count, allocatable and requested sums over the
    nodes pending pods can use; ``leftOut`` counts the others (model.unusable_reason,
    judged on the node as it is after the plan, or before when the plan removed it)."""
    zones: dict[str, dict[str, Any]] = {}
    for state, key in ((before, "before"), (after, "after")):
        for node in state.nodes:
            zone = zones.setdefault(
                node.zone, {"zone": node.zone, "nodes": 0, "alloc": [0, 0, 0],
                            "before": [0, 0, 0], "after": [0, 0, 0], "leftOut": 0},
            )
            last = after.by_name.get(node.name) or node
            counted = key == "after" or node.name not in after.by_name
            if last.unusable:
                zone["leftOut"] += 1 if counted else 0
                continue
            _add(zone[key], node.requested)
            if counted:
                zone["nodes"] += 1
                _add(zone["alloc"], node.allocatable)
    return sorted(zones.values(), key=lambda z: (z["zone"] == "", z["zone"]))


def _add(total: list[int], values: Sequence[int]) -> None:
    for i, v in enumerate(values):
        total[i] += v


def pod_row(
    d: Decision, attempts: Sequence[Attempt], owner: str, reasons: list[int]
) -> dict[str, Any]:
    row: dict[str, Any] = {"pod": d.pod, "outcome": d.outcome, "priority": d.priority}
    message = d.message or d.note
    for key, value in (("node", d.node), ("owner", owner), ("message", message),
                       ("preemptedBy", d.preempted_by)):
        if value:
            row[key] = value
    if attempts:
        row["attempts"] = len(attempts)
    if d.score is not None:
        row["score"] = d.score
    if reasons:
        row["reasons"] = reasons
    return row


def reason_groups(
    decisions: Iterable[Decision],
) -> tuple[list[dict[str, Any]], dict[str, list[int]]]:
    """Pods left without a node grouped by reason, most pods first; and each pod's groups.

    A FitError message counts its pod under each of its reasons (the node counts summed
    in ``nodes``, so "3 Insufficient cpu" and "5 Insufficient cpu" are one reason); other
    messages are a reason whole. ``pods`` names the pods of each reason.
    """
    pods_by_reason: dict[tuple[str, str], list[str]] = {}
    nodes_by_reason: dict[tuple[str, str], int] = {}
    for d in decisions:
        if d.outcome not in NOT_PLACED:
            continue
        for counted in split_reasons(d.message or d.note or d.outcome, counts=True):
            count, reason = _count_of(counted)
            key = (d.outcome, reason)
            pods_by_reason.setdefault(key, []).append(d.pod)
            nodes_by_reason[key] = nodes_by_reason.get(key, 0) + count
    # Most pods first; then the reason that rejected most nodes (stable: first seen).
    ordered = sorted(pods_by_reason.items(),
                     key=lambda kv: (-len(kv[1]), -nodes_by_reason[kv[0]]))
    groups: list[dict[str, Any]] = []
    ids: dict[str, list[int]] = {}
    for i, ((outcome, reason), pods) in enumerate(ordered):
        groups.append({"outcome": outcome, "reason": reason, "count": len(pods),
                       "nodes": nodes_by_reason[(outcome, reason)], "pods": pods})
        for pod in pods:
            ids.setdefault(pod, []).append(i)
    return groups, ids


def _count_of(part: str) -> tuple[int, str]:
    counted = _COUNTED.match(part)
    return (int(counted["count"]), counted["reason"]) if counted else (0, part)


def split_reasons(message: str, counts: bool = False) -> list[str]:
    """The reasons of a FitError message without their node counts (with them when
    ``counts``); else the message."""
    m = _FIT_ERROR.match(message)
    if m is None:
        return [message]
    reasons: list[str] = []
    # Reasons are joined with ", "; a reason may itself hold ", " (taint values).
    for part in m["reasons"].split(", "):
        counted = _COUNTED.match(part)
        if counted is not None or not reasons:
            reasons.append(counted["reason"] if counted is not None and not counts else part)
        else:
            reasons[-1] += ", " + part
    return list(dict.fromkeys(reasons))
