"""``ksched diff -o markdown``: a pull-request comment (GitHub-flavoured markdown).

A GitHub comment holds 65,536 characters. The summary comes first (counts, moves per
workload and per node, newly unschedulable pods), the full tables follow in
``<details>`` blocks, and rows stop before the cap with a line saying what was cut
and how to get all of it.
"""

from __future__ import annotations

from ..diff.model import DiffResult, Side
from ..diff.rollup import by_node, by_workload, newly_unschedulable
from ..errors import printable
from .diff_common import ARROW, config_rows, pod_rows, summary_line, truncate

# A CI job finds its earlier comment by this marker to update it instead of adding one.
MARKER = "<!-- ksched-diff -->"
WHY_WIDTH = 300
GITHUB_COMMENT_LIMIT = 65_536
# Room kept for the lines that close the comment (the cut note, </details>).
BUDGET = GITHUB_COMMENT_LIMIT - 2_000
SUMMARY_ROWS = 15  # rows per summary table; the <details> tables have the rest


def _cell(text: str, code: bool = False) -> str:
    # Pipes end a cell and newlines end a row; backticks would close a code span.
    text = printable(text.replace("\n", " ")).replace("|", "\\|")
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


def _more(shown: int, total: int, what: str) -> list[str]:
    if total <= shown:
        return [""]
    return [f"_… and {total - shown} more {what}: `-o wide` or `-o json` lists all._", ""]


def _summary(result: DiffResult) -> list[str]:
    lines: list[str] = []
    workloads = by_workload(result.changes)
    if workloads:
        lines += ["#### Changes per workload", ""]
        lines += _table(
            ["workload", "added", "removed", "moved", "unschedulable", "preempted", "other"],
            [
                [_cell(w.workload, True), str(w.added), str(w.removed), str(w.moved),
                 str(w.unschedulable), str(w.preempted), str(w.other)]
                for w in workloads[:SUMMARY_ROWS]
            ],
        )
        lines += _more(SUMMARY_ROWS, len(workloads), "workload(s)")
    nodes = by_node(result.changes)
    if nodes:
        lines += ["#### Pods in and out per node", ""]
        lines += _table(
            ["node", "pods in", "pods out"],
            [[_cell(n.node, True), str(n.arrived), str(n.left)] for n in nodes[:SUMMARY_ROWS]],
        )
        lines += _more(SUMMARY_ROWS, len(nodes), "node(s)")
    lost = newly_unschedulable(result.changes)
    if lost:
        lines += [f"#### Newly unschedulable pods ({len(lost)})", ""]
        lines += [
            f"- {_cell(c.pod, True)}: {_cell(truncate(c.head.message if c.head else '', 200))}"
            for c in lost[:SUMMARY_ROWS]
        ]
        lines += _more(SUMMARY_ROWS, len(lost), "pod(s)")
    return lines


def _config(result: DiffResult) -> list[str]:
    rows = config_rows(result.config)
    if not rows:
        return ["#### Configuration changes", "", "None in the effective configuration.", ""]
    return [
        "#### Configuration changes",
        "",
        *_table(
            ["profile", "setting", "base", "head"],
            [
                [_cell(r.scope), _cell(r.subject, True), _cell(r.base, True), _cell(r.head, True)]
                for r in rows
            ],
        ),
        "",
    ]


def _placements(result: DiffResult, used: int, budget: int) -> list[str]:
    """Every changed pod in a <details> block, rows cut where the comment would overflow."""
    pods = pod_rows(result, WHY_WIDTH)
    if not pods:
        return ["#### Placement changes", "", "None.", ""]
    head = [
        # Open when short: a handful of rows needs no click.
        f"<details{' open' if len(pods) <= SUMMARY_ROWS else ''}>"
        f"<summary>Placement changes: {len(pods)} pod(s)</summary>",
        "",
        *_table(["pod", "base", "head", "why"], []),
    ]
    size = used + sum(len(line) + 1 for line in head)
    lines = list(head)
    shown = 0
    for p in pods:
        row = "| " + " | ".join([
            _cell(p.pod, True), _cell(p.base), _cell(p.head),
            _cell(p.why).replace(ARROW, "→"),
        ]) + " |"
        if size + len(row) + 1 > budget:
            break
        lines.append(row)
        size += len(row) + 1
        shown += 1
    lines.append("")
    if shown < len(pods):
        lines += [
            f"**{len(pods) - shown} of {len(pods)} pod(s) not shown**: a GitHub comment holds "
            f"{GITHUB_COMMENT_LIMIT:,} characters. Run the same `ksched diff` with `-o wide` "
            "(or `-o json`) for every change.",
            "",
        ]
    lines += ["</details>", ""]
    return lines


def render_diff_markdown(result: DiffResult, reserved: int = 0) -> str:
    """The comment; ``reserved`` characters are kept free for text put before it."""
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
    lines += _summary(result)
    lines += _config(result)
    used = sum(len(line) + 1 for line in lines)
    lines += _placements(result, used, BUDGET - reserved)
    return "\n".join(lines) + "\n"
