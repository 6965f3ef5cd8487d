"""The what-if report as text: operations, pod changes, and nodes before -> after."""

from __future__ import annotations

from collections import Counter

from ..errors import printable
from ..whatif.model import NodeUsage, OperationResult, PodChange, WhatIfReport
from ..whatif.usage import percent
from .tabular import tabulate


def _summary(op: OperationResult) -> str:
    counts = Counter(c.change for c in op.changes)
    parts = [f"{n} {kind}" for kind, n in sorted(counts.items())]
    nodes = f" [{', '.join(op.nodes)}]" if op.nodes else ""
    return f"{op.operation}{nodes}: " + (", ".join(parts) if parts else "no pod changed")


def _changes_table(changes: list[PodChange]) -> str:
    rows = [
        [c.pod, c.change, c.node or "<none>", c.workload or "<none>", c.reason] for c in changes
    ]
    return tabulate(rows, headers=["POD", "CHANGE", "NODE", "WORKLOAD", "REASON"],
                    tablefmt="plain", disable_numparse=True)


def cpu_text(milli: int) -> str:
    """One unit per column, as kubectl top prints cpu: millicores."""
    return f"{milli}m"


def memory_text(value: int) -> str:
    """One unit per column, as kubectl top prints memory: whole mebibytes, rounded down."""
    return f"{value // 2**20}Mi"


def _cell(usage: NodeUsage | None, column: str) -> str:
    if usage is None:
        return "-"
    if column == "cpu":
        req, alloc = usage.cpu_requested, usage.cpu_allocatable
        return f"{cpu_text(req)}/{cpu_text(alloc)} ({percent(req, alloc)}%)"
    if column == "memory":
        req, alloc = usage.memory_requested, usage.memory_allocatable
        return f"{memory_text(req)}/{memory_text(alloc)} ({percent(req, alloc)}%)"
    return f"{usage.pods}/{usage.pods_allocatable}"


def _status(old: NodeUsage | None, new: NodeUsage | None) -> str:
    if old is None:
        return "added"
    if new is None:
        return "removed"
    return "cordoned" if new.unschedulable else "schedulable"


def nodes_table(before: list[NodeUsage], after: list[NodeUsage]) -> str:
    """Each node's requests/allocatable before -> after, with its status; nodes nothing
    changed on are counted, not listed (JSON and YAML list every node)."""
    old = {u.name: u for u in before}
    new = {u.name: u for u in after}
    rows = []
    unchanged = 0
    for name in sorted(old.keys() | new.keys()):
        a, b = old.get(name), new.get(name)
        if a is not None and a == b:
            unchanged += 1
            continue
        rows.append([name, _status(a, b)] + [
            f"{_cell(a, col)} -> {_cell(b, col)}" for col in ("cpu", "memory", "pods")
        ])
    headers = ["NODE", "STATUS", "CPU REQUESTS", "MEMORY REQUESTS", "PODS"]
    text = tabulate(rows, headers=headers, tablefmt="plain", disable_numparse=True) if rows \
        else "None changed."
    if unchanged:
        text += f"\n({unchanged} other node(s) unchanged)"
    return text


def render_whatif(report: WhatIfReport) -> str:
    lines = ["Operations:"]
    for op in report.operations:
        lines.append(printable(f"  {_summary(op)}"))
        lines.extend(printable(f"    warning: {w}") for w in op.warnings)
    changes = report.changes()
    lines += ["", "Pod changes:"]
    lines.append(_changes_table(changes) if changes else "  None.")
    lines += ["", "Nodes (requests/allocatable, before -> after):"]
    lines.append(nodes_table(report.before, report.after))
    return "\n".join(lines) + "\n\n"
