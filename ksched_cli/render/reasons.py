"""A FitError message as a table cell: the reasons that rejected the most nodes first.

kube-scheduler's message lists its histogram in string order (``1 Insufficient cpu`` before
``4 node(s) didn't match pod topology spread constraints``), so a narrow column used to cut
off the reason that rejected most nodes. The cell keeps the histogram's words but orders it
by count (largest first; equal counts keep kube-scheduler's order), drops whole reasons that
do not fit and says how many (``(+2 more)``). JSON, YAML and explanations keep the message.
"""

from __future__ import annotations

import re

from ..record import record

# FitError.Error(): "0/7 nodes are available: 1 Insufficient cpu, 4 node(s) .... preemption: ..."
_FIT_ERROR = re.compile(
    r"^(?P<head>0/\d+ nodes are available): (?P<reasons>.*?)\.(?: (?P<post>.*))?$"
)
# Histogram entries start with their count; a reason's own text may hold ", ".
_ENTRY_START = re.compile(r", (?=\d+ )")
_COUNTED = re.compile(r"^(?P<count>\d+) (?P<reason>.+)$")


@record(frozen=True)
class FitMessage:
    """A FitError message's parts: its head, histogram entries and PostFilter text."""

    head: str  # "0/7 nodes are available"
    entries: list[tuple[int, str]]  # (nodes, "N reason") in kube-scheduler's order
    post: str  # the PostFilter part ("preemption: ..."), or ""


def parse_fit_error(message: str) -> FitMessage | None:
    """The histogram of a FitError message, or None for any other message."""
    match = _FIT_ERROR.match(message)
    if match is None:
        return None
    entries = []
    for text in _ENTRY_START.split(match["reasons"]):
        counted = _COUNTED.match(text)
        if counted is None:  # a PreFilter message: no histogram to reorder
            return None
        entries.append((int(counted["count"]), text))
    return FitMessage(match["head"], entries, match["post"] or "")


def by_count(entries: list[tuple[int, str]]) -> list[str]:
    """Largest count first; sorted() is stable, so ties keep kube-scheduler's order."""
    return [text for _, text in sorted(entries, key=lambda e: -e[0])]


def decisive_first(message: str, width: int | None) -> str:
    """``message`` for a table cell at most ``width`` wide (None: any width)."""
    fit = parse_fit_error(message)
    if fit is None:
        return _cut(message, width)
    ordered = by_count(fit.entries)
    whole = f"{fit.head}: {', '.join(ordered)}."
    if fit.post and (width is None or len(whole) + 1 + len(fit.post) <= width):
        return f"{whole} {fit.post}"
    if width is None or len(whole) <= width:
        return whole
    # At least the decisive reason, whole, even when it alone is wider than the column.
    for shown in range(len(ordered) - 1, 0, -1):
        text = f"{fit.head}: {', '.join(ordered[:shown])} (+{len(ordered) - shown} more)."
        if len(text) <= width:
            return text
    return f"{fit.head}: {ordered[0]} (+{len(ordered) - 1} more)." if len(ordered) > 1 else whole


def _cut(text: str, width: int | None) -> str:
    if width is None or len(text) <= width:
        return text
    return text[: max(width - 3, 0)] + "..."
