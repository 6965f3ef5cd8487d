"""Score normalization shared by score plugins (helper/normalize_score.go)."""

from __future__ import annotations

from collections.abc import Sequence

from ...framework.status import Status
from ...framework.types import NodeScore


def go_div(a: int, b: int) -> int:
    """Go's int64 division: truncates toward zero, unlike Python's ``//``."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def default_normalize_score(
    max_priority: int, reverse: bool, scores: Sequence[NodeScore]
) -> Status | None:
    """Scale scores from [0, max] to [0, max_priority] in place; ``reverse`` flips them.

    When every score is zero (or below) nothing is scaled: the scores stay as they
    are, or all become ``max_priority`` when reversing.
    """
    max_count = 0
    for s in scores:
        if s.score > max_count:
            max_count = s.score
    if max_count == 0:
        if reverse:
            for s in scores:
                s.score = max_priority
        return None
    for s in scores:
        score = go_div(max_priority * s.score, max_count)
        s.score = max_priority - score if reverse else score
    return None
