"""The what-if report as a JSON/YAML-ready mapping (docs/whatif.md)."""

from __future__ import annotations

from typing import Any

from ..whatif.model import NodeUsage, OperationResult, PodChange, WhatIfReport


def change_doc(change: PodChange) -> dict[str, Any]:
    doc: dict[str, Any] = {"pod": change.pod, "change": change.change}
    for key, value in (
        ("node", change.node),
        ("fromNode", change.from_node),
        ("workload", change.workload),
        ("replaces", change.replaces),
        ("podDisruptionBudget", change.pdb),
        ("reason", change.reason),
    ):
        if value:
            doc[key] = value
    return doc


def usage_doc(usage: NodeUsage) -> dict[str, Any]:
    return {
        "cpu": {"requested": usage.cpu_requested, "allocatable": usage.cpu_allocatable},
        "memory": {"requested": usage.memory_requested, "allocatable": usage.memory_allocatable},
        "pods": {"requested": usage.pods, "allocatable": usage.pods_allocatable},
        "unschedulable": usage.unschedulable,
    }


def operation_doc(op: OperationResult) -> dict[str, Any]:
    doc: dict[str, Any] = {"operation": op.operation, "time": op.time}
    if op.nodes:
        doc["nodes"] = list(op.nodes)
    doc["changes"] = [change_doc(c) for c in op.changes]
    if op.warnings:
        doc["warnings"] = list(op.warnings)
    return doc


def nodes_doc(before: list[NodeUsage], after: list[NodeUsage]) -> list[dict[str, Any]]:
    """One entry per node of either side; a side without the node has no key."""
    old = {u.name: u for u in before}
    new = {u.name: u for u in after}
    out = []
    for name in sorted(old.keys() | new.keys()):
        entry: dict[str, Any] = {"name": name}
        if name in old:
            entry["before"] = usage_doc(old[name])
        if name in new:
            entry["after"] = usage_doc(new[name])
        out.append(entry)
    return out


def whatif_document(report: WhatIfReport) -> dict[str, Any]:
    return {
        "operations": [operation_doc(op) for op in report.operations],
        "outcomes": [change_doc(c) for c in report.outcomes],
        "nodes": nodes_doc(report.before, report.after),
    }
