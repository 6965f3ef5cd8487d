"""The plan as a JSON-ready document (shared/spec/plan-output.md)."""

from __future__ import annotations

from typing import Any

from ..engine.records import Attempt, Decision, Plan

API_VERSION = "ksched.io/v1alpha1"


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def decision_doc(d: Decision) -> dict[str, Any]:
    doc: dict[str, Any] = {"pod": d.pod, "outcome": d.outcome}
    if d.node:
        doc["node"] = d.node
    if d.preempted_by:
        doc["preemptedBy"] = d.preempted_by
    if d.message:
        doc["message"] = d.message
    doc["priority"] = d.priority
    doc["time"] = _number(d.time)
    if d.owner:
        doc["owner"] = d.owner
    return doc


def attempt_doc(a: Attempt, explain: bool = True) -> dict[str, Any]:
    doc: dict[str, Any] = {"pod": a.pod, "time": _number(a.time), "result": a.result}
    if a.node:
        doc["node"] = a.node
    doc["tiedWith"] = list(a.tied_with)
    scores = a.scores_once()
    if scores:
        doc["scores"] = {
            node: {**s.weighted, "total": s.total} for node, s in sorted(scores.items())
        }
    doc["filtered"] = {
        node: {"plugin": f.plugin, "reasons": list(f.reasons)}
        for node, f in sorted(a.filtered.items())
    }
    if a.victims:
        doc["victims"] = list(a.victims)
    if a.message:
        doc["message"] = a.message
    if a.profile:
        doc["profile"] = a.profile
    if explain and a.detail:
        doc["detail"] = a.detail
    return doc


def plan_document(plan: Plan, explain: bool = False) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "apiVersion": API_VERSION,
        "kind": "Plan",
        "summary": plan.summary(),
        "pods": [decision_doc(d) for d in plan.decisions],
    }
    if explain:
        doc["attempts"] = [attempt_doc(a) for a in plan.attempts]
    if explain and plan.notes:
        doc["notes"] = list(plan.notes)
    if plan.warnings:
        doc["warnings"] = list(plan.warnings)
    return doc
