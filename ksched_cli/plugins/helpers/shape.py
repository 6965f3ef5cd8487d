"""Piecewise-linear scoring shapes (helper/shape_score.go)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...record import record
from .normalize import go_div


@record(frozen=True, slots=True)
class FunctionShapePoint:
    utilization: int
    score: int


def build_broken_linear_function(shape: Sequence[FunctionShapePoint]) -> Callable[[int], int]:
    """f(p): flat before the first point and after the last, linear in between.

    Segments are interpolated with Go's truncating integer division, so a falling
    segment rounds toward zero, not toward minus infinity. ``shape`` must be
    non-empty with increasing utilizations (config validation guarantees it).
    """
    points = tuple((p.utilization, p.score) for p in shape)
    first_score = points[0][1]
    last_score = points[-1][1]

    def score(p: int) -> int:
        prev_u = prev_s = 0
        for i, (u, s) in enumerate(points):
            if p <= u:
                if i == 0:
                    return first_score
                return prev_s + go_div((s - prev_s) * (p - prev_u), u - prev_u)
            prev_u, prev_s = u, s
        return last_score

    return score
