"""The default ``ksched diff`` output: config changes, placement changes, a summary line."""

from __future__ import annotations

from ..diff.model import DiffResult, Side
from .diff_common import config_rows, pod_rows, summary_line, truncate
from .tabular import tabulate

WHY_WIDTH = 120


def _inputs(label: str, side: Side) -> str:
    return f"{label}  {side.config} on {', '.join(side.manifests)} ({side.nodes} node(s))"


def _table(headers: list[str], rows: list[list[str]]) -> str:
    return tabulate(rows, headers=headers, tablefmt="plain", disable_numparse=True) + "\n"


def render_diff_table(result: DiffResult, why_width: int | None = WHY_WIDTH) -> str:
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
    pods = pod_rows(result)
    if pods:
        out.append("Placement changes:")
        out.append(
            _table(
                ["POD", "BASE", "HEAD", "WHY"],
                [[p.pod, p.base, p.head, truncate(p.why, why_width)] for p in pods],
            )
        )
    out.append(f"Summary: {summary_line(result)}\n")
    return "\n".join(out)
