"""The diff page's data: every changed pod side by side, and counts per workload and node.

Each change falls in one category: ``moved`` (placed on both sides, on different
nodes), ``new`` (placed only with head), ``lost`` (placed only with base) or ``changed``
(anything else: different victims, or a different reason for staying unplaced).
"""

from __future__ import annotations

from typing import Any

from ...diff.model import DiffResult, PodChange, PodState, Side
from ...engine import records as rec
from ..diff_common import config_rows, summary_line, why_text

MOVED, NEW, LOST, CHANGED = "moved", "new", "lost", "changed"
CATEGORIES = (MOVED, NEW, LOST, CHANGED)
# A pod holds a node on a side when it was scheduled there or was already running.
_PLACED = frozenset({rec.SCHEDULED, "Running"})


def category(c: PodChange) -> str:
    base, head = _placed(c.base), _placed(c.head)
    if base and head:
        assert c.base is not None and c.head is not None
        return MOVED if c.base.node != c.head.node else CHANGED
    if head:
        return NEW
    return LOST if base else CHANGED


def _placed(state: PodState | None) -> bool:
    return state is not None and state.outcome in _PLACED


def diff_page(result: DiffResult, title: str = "ksched diff") -> dict[str, Any]:
    """The diff page's data dict (JSON-ready); each pod's owner is the diff's
    ``PodChange.owner`` (head's, else base's)."""
    changes = [change_row(c) for c in result.changes]
    return {
        "kind": "diff",
        "title": title,
        "meta": {
            "base": _side(result.base),
            "head": _side(result.head),
            "warnings": list(result.warnings),
            "line": summary_line(result),
        },
        "summary": result.summary(),
        "categories": {k: sum(1 for c in changes if c["category"] == k) for k in CATEGORIES},
        "config": [
            {"scope": r.scope, "subject": r.subject, "base": r.base, "head": r.head}
            for r in config_rows(result.config)
        ],
        "changes": changes,
        "workloads": per_workload(changes),
        "nodes": per_node(changes),
    }


def _side(side: Side) -> dict[str, Any]:
    return {
        "config": side.config,
        "manifests": list(side.manifests),
        "nodes": side.nodes,
        "outcomes": dict(side.outcomes),
    }


def _state(state: PodState | None) -> dict[str, Any] | None:
    if state is None:
        return None
    doc: dict[str, Any] = {"outcome": state.outcome}
    for key, value in (("node", state.node), ("message", state.message),
                       ("preemptedBy", state.preempted_by)):
        if value:
            doc[key] = value
    if state.victims:
        doc["victims"] = list(state.victims)
    return doc


def change_row(c: PodChange) -> dict[str, Any]:
    row: dict[str, Any] = {
        "pod": c.pod,
        "category": category(c),
        "kinds": list(c.kinds),
        "regression": c.regression,
        "base": _state(c.base),
        "head": _state(c.head),
        "why": why_text(c),
    }
    if c.owner:
        row["owner"] = c.owner
    if c.margin is not None:
        row["drivers"] = [{"plugin": d.plugin, "shift": d.shift} for d in c.margin.drivers]
    return row


def per_workload(changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Counts per owning workload ("" for bare pods), most changes first."""
    counts: dict[str, dict[str, int]] = {}
    for row in changes:
        owner = row.get("owner", "")
        entry = counts.setdefault(owner, dict.fromkeys(CATEGORIES, 0))
        entry[row["category"]] += 1
    ordered = sorted(counts.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))
    return [{"owner": owner, **entry} for owner, entry in ordered]


def per_node(changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per node, the pods it gains (head places them there, base did not) and loses."""
    nodes: dict[str, dict[str, list[str]]] = {}
    for row in changes:
        base_node = _node(row["base"])
        head_node = _node(row["head"])
        if base_node == head_node:
            continue
        if head_node:
            nodes.setdefault(head_node, {"gained": [], "lost": []})["gained"].append(row["pod"])
        if base_node:
            nodes.setdefault(base_node, {"gained": [], "lost": []})["lost"].append(row["pod"])
    return [{"node": name, **nodes[name]} for name in sorted(nodes)]


def _node(state: dict[str, Any] | None) -> str:
    if state is None or state["outcome"] not in _PLACED:
        return ""
    node: str = state.get("node", "")
    return node
