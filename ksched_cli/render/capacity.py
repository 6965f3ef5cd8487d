"""``ksched capacity`` output: text, and a JSON/YAML-ready mapping (docs/whatif.md)."""

from __future__ import annotations

from typing import Any

from ..errors import printable
from ..whatif.capacity import STOP_LIMIT, CapacityResult
from .document import API_VERSION
from .tabular import tabulate
from .whatif_document import nodes_doc
from .whatif_text import nodes_table


def capacity_document(result: CapacityResult) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "apiVersion": API_VERSION,
        "kind": "CapacityReport",
        "pod": result.pod,
        "profile": result.profile,
        "count": result.count,
        "perNode": dict(result.per_node),
        "stopReason": result.stop_reason,
    }
    if result.limit is not None:
        doc["limit"] = result.limit
    if result.message:
        doc["message"] = result.message
    doc["nodes"] = nodes_doc(result.before, result.after)
    return doc


def render_capacity(result: CapacityResult) -> str:
    if result.stop_reason == STOP_LIMIT:
        why = f"stopped at --max {result.limit}"
    else:
        why = "the next copy is Unschedulable"
    lines = [f"{result.pod}: {result.count} more cop{'y' if result.count == 1 else 'ies'} "
             f"fit (profile {result.profile}; {why})"]
    if result.message:
        lines.append(printable(f"  {result.message}"))
    lines.append("")
    if result.per_node:
        rows = [[node, count] for node, count in result.per_node.items()]
        lines.append(tabulate(rows, headers=["NODE", "COPIES"], tablefmt="plain"))
        lines.append("")
    lines.append("Nodes (requests/allocatable, before -> after):")
    lines.append(nodes_table(result.before, result.after))
    return "\n".join(lines) + "\n"
