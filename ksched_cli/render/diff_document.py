"""The diff as a JSON/YAML-ready document (docs/diff-output.md)."""

from __future__ import annotations

from typing import Any

from ..diff.model import (
    ABSENT,
    ConfigDiff,
    DiffResult,
    Margin,
    PluginChange,
    PodChange,
    PodState,
    Side,
    SideScores,
)
from ..diff.rollup import by_workload
from .document import API_VERSION


def _sides(doc: dict[str, Any], base: Any, head: Any) -> dict[str, Any]:
    # A side where the field or value is absent is left out, so null stays a real value.
    if base is not ABSENT:
        doc["base"] = base
    if head is not ABSENT:
        doc["head"] = head
    return doc


def _side(side: Side) -> dict[str, Any]:
    return {
        "config": side.config,
        "manifests": list(side.manifests),
        "nodes": side.nodes,
        "outcomes": dict(side.outcomes),
    }


def _plugin(c: PluginChange) -> dict[str, Any]:
    doc: dict[str, Any] = {"point": c.point, "change": c.change}
    if c.plugin:  # empty for "reordered", which is about the whole point
        doc["plugin"] = c.plugin
    return _sides(doc, c.base, c.head)


def config_doc(diff: ConfigDiff) -> dict[str, Any]:
    profiles = []
    for p in diff.profiles:
        profiles.append(
            {
                "schedulerName": p.scheduler_name,
                "status": p.status,
                "settings": [_sides({"field": s.field}, s.base, s.head) for s in p.settings],
                "plugins": [_plugin(c) for c in p.plugins],
                "args": [
                    _sides({"plugin": a.plugin, "field": a.field}, a.base, a.head) for a in p.args
                ],
            }
        )
    return {
        "settings": [_sides({"field": s.field}, s.base, s.head) for s in diff.settings],
        "profiles": profiles,
    }


def _state(state: PodState | None) -> dict[str, Any] | None:
    if state is None:
        return None
    doc: dict[str, Any] = {"outcome": state.outcome}
    if state.node:
        doc["node"] = state.node
    if state.preempted_by:
        doc["preemptedBy"] = state.preempted_by
    if state.victims:
        doc["victims"] = list(state.victims)
    if state.message:
        doc["message"] = state.message
    return doc


def _side_scores(s: SideScores) -> dict[str, Any]:
    doc: dict[str, Any] = {"margin": s.margin, "scores": s.scores}
    if s.note:
        doc["note"] = s.note
    return doc


def _margin(m: Margin) -> dict[str, Any]:
    return {
        "baseNode": m.base_node,
        "headNode": m.head_node,
        "base": _side_scores(m.base),
        "head": _side_scores(m.head),
        "drivers": [
            {"plugin": d.plugin, "base": d.base, "head": d.head, "shift": d.shift}
            for d in m.drivers
        ],
    }


def change_doc(c: PodChange) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "pod": c.pod,
        "changes": list(c.kinds),
        "regression": c.regression,
        "base": _state(c.base),
        "head": _state(c.head),
    }
    if c.margin is not None:
        doc["margin"] = _margin(c.margin)
    if c.owner:
        doc["owner"] = c.owner
    return doc


def diff_document(result: DiffResult) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "apiVersion": API_VERSION,
        "kind": "Diff",
        "base": _side(result.base),
        "head": _side(result.head),
        "config": config_doc(result.config),
        "summary": result.summary(),
        "pods": [change_doc(c) for c in result.changes],
        "workloads": [
            {"workload": w.workload, "added": w.added, "removed": w.removed, "moved": w.moved,
             "becameUnschedulable": w.unschedulable, "newlyPreempted": w.preempted,
             "other": w.other}
            for w in by_workload(result.changes)
        ],
    }
    if result.warnings:
        doc["warnings"] = list(result.warnings)
    return doc
