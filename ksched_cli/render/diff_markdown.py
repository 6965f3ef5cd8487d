"""``ksched diff -o markdown``: a pull-request comment (GitHub-flavoured markdown)."""

from __future__ import annotations

from ..diff.model import DiffResult, Side
from .diff_common import ARROW, config_rows, pod_rows, summary_line, truncate

# A CI job finds its earlier comment by this marker to update it instead of adding one.
MARKER = "<!-- ksched-diff -->"
WHY_WIDTH = 300


def _cell(text: str, code: bool = False) -> str:
    # Pipes end a cell and newlines end a row; backticks would close a code span.
    text = text.replace("|", "\\|").replace("\n", " ")
    if code and text:
        return f"`{text.replace('`', '')}`"
    return text


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _inputs(side: Side) -> str:
    manifests = ", ".join(_cell(m, code=True) for m in side.manifests)
    return f"{_cell(side.config, code=True)} on {manifests}"


def render_diff_markdown(result: DiffResult) -> str:
    counts = result.summary()
    lines = [MARKER, f"### ksched diff: {summary_line(result)}", ""]
    lines.append(f"**base** {_inputs(result.base)} → **head** {_inputs(result.head)}")
    lines.append("")
    if counts["regressions"]:
        lines += [
            "> [!WARNING]",
            f"> {counts['regressions']} pod(s) become unschedulable or preempted with head.",
            "",
        ]
    rows = config_rows(result.config)
    lines.append("#### Configuration changes")
    lines.append("")
    if rows:
        lines += _table(
            ["profile", "setting", "base", "head"],
            [
                [_cell(r.scope), _cell(r.subject, True), _cell(r.base, True), _cell(r.head, True)]
                for r in rows
            ],
        )
    else:
        lines.append("None in the effective configuration.")
    lines += ["", "#### Placement changes", ""]
    pods = pod_rows(result)
    if pods:
        lines += _table(
            ["pod", "base", "head", "why"],
            [
                [
                    _cell(p.pod, True),
                    _cell(p.base),
                    _cell(p.head),
                    _cell(truncate(p.why, WHY_WIDTH)).replace(ARROW, "→"),
                ]
                for p in pods
            ],
        )
    else:
        lines.append("None.")
    lines.append("")
    return "\n".join(lines) + "\n"
