"""The what-if parts of report pages: operations and pod changes, nodes before and after,
a capacity count, a scenario's timeline.

Each part reuses the JSON/YAML documents' shapes (docs/whatif.md), so the page shows
the numbers ``-o json`` gives; only page-side additions (counts, a ``changed`` flag,
an operation index) are new.
"""

from __future__ import annotations

from typing import Any

from ...whatif.capacity import CapacityResult
from ...whatif.model import (
    BLOCKED,
    CREATED,
    DELETED,
    EVICTED,
    LOST,
    MOVED,
    PENDING,
    PLACED,
    RECREATED,
    STAYS,
    WhatIfReport,
)
from ..capacity import capacity_document
from ..whatif_document import change_doc, nodes_doc
from .plan_data import split_reasons

# The order chips and filters list the changes in: what an operation did, then the plan.
CHANGES = (EVICTED, BLOCKED, STAYS, DELETED, LOST, RECREATED, CREATED, MOVED, PLACED, PENDING)
# A change an operator must look at (the command exits 2 for these).
ALARMS = (BLOCKED, LOST, PENDING)
# The plan's outcomes have no operation: their ``op`` is this index.
PLAN_OP = -1


def whatif_section(report: WhatIfReport) -> dict[str, Any]:
    """The ``whatif`` key of a plan, diff or simulate page."""
    changes: list[dict[str, Any]] = []
    operations = []
    for i, op in enumerate(report.operations):
        operations.append({
            "operation": op.operation,
            "time": op.time,
            "nodes": list(op.nodes),
            "warnings": list(op.warnings),
            "counts": _counts(c.change for c in op.changes),
        })
        changes.extend({**change_doc(c), "op": i} for c in op.changes)
    changes.extend({**change_doc(c), "op": PLAN_OP} for c in report.outcomes)
    return {
        "operations": operations,
        "counts": _counts(c["change"] for c in changes),
        "alarms": [c for c in ALARMS if any(x["change"] == c for x in changes)],
        "changes": changes,
        "nodes": usage_rows(nodes_doc(report.before, report.after)),
    }


def usage_rows(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``nodes_doc`` entries, each marked ``changed`` when a number or its state differs
    (or it is only on one side)."""
    return [{**n, "changed": n.get("before") != n.get("after")} for n in nodes]


def _counts(changes: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for change in changes:
        counts[change] = counts.get(change, 0) + 1
    return {c: counts[c] for c in CHANGES if c in counts}


def capacity_section(result: CapacityResult) -> dict[str, Any]:
    """The ``capacity`` key of a capacity page: the JSON document, and the stopping
    message's reasons one per line."""
    doc = capacity_document(result)
    doc["nodes"] = usage_rows(doc["nodes"])
    doc["reasons"] = split_reasons(result.message, counts=True) if result.message else []
    return doc
