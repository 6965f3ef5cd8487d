"""The default ``ksched diff`` output: config changes, placement changes, a summary line."""

from __future__ import annotations

from ..diff.model import DiffResult, Side
from ..diff.rollup import by_workload
from .diff_common import config_rows, pod_rows, summary_line
from .tabular import tabulate

WHY_WIDTH = 120


def _inputs(label: str, side: Side) -> str:
    return f"{label}  {side.config} on {', '.join(side.manifests)} ({side.nodes} node(s))"


def _table(headers: list[str], rows: list[list[str]]) -> str:
    return tabulate(rows, headers=headers, tablefmt="plain", disable_numparse=True) + "\n"


def _workloads(result: DiffResult) -> list[str]:
    counts = by_workload(result.changes)
    if not counts or all(w.workload.startswith("(") for w in counts):
        return []  # bare pods only: the placement table says it all
    return [
        "Changes per workload:",
        _table(
            ["WORKLOAD", "ADDED", "REMOVED", "MOVED", "UNSCHEDULABLE", "PREEMPTED", "OTHER"],
            [
                [w.workload, str(w.added), str(w.removed), str(w.moved), str(w.unschedulable),
                 str(w.preempted), str(w.other)]
                for w in counts
            ],
        ),
    ]


def render_diff_table(result: DiffResult, wide: bool = False) -> str:
    """``-o table``; ``-o wide`` adds each pod's workload and keeps the WHY text whole."""
    why_width = None if wide else WHY_WIDTH
    out = [_inputs("base", result.base), _inputs("head", result.head), ""]
    rows = config_rows(result.config)
    if rows:
        out.append("Configuration changes (effective, after defaulting):")
        out.append(
            _table(
                ["PROFILE", "SETTING", "BASE", "HEAD"],
                [[r.scope, r.subject, r.base, r.head] for r in rows],
            )
        )
    else:
        out.append("Configuration changes: none in the effective configuration\n")
    pods = pod_rows(result, why_width)
    if pods:
        out.append("Placement changes:")
        headers = ["POD", "BASE", "HEAD", "WHY"]
        cells = [[p.pod, p.base, p.head, p.why] for p in pods]
        if wide:
            headers.insert(1, "WORKLOAD")
            for row, c in zip(cells, result.changes, strict=True):
                row.insert(1, c.owner or "-")
        out.append(_table(headers, cells))
        out += _workloads(result)
    out.append(f"Summary: {summary_line(result)}\n")
    return "\n".join(out)
