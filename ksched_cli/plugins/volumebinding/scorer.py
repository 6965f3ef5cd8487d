"""VolumeBinding's capacity scorer (volumebinding/scorer.go). It exists only when
VolumeCapacityPriority is on, which v1.30 does not allow by default."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ...config.args import UtilizationShapePoint
from ...framework.types import MAX_NODE_SCORE
from ...record import record
from ..helpers.shape import FunctionShapePoint, build_broken_linear_function

MAX_UTILIZATION = 100
MAX_CUSTOM_PRIORITY_SCORE = 10


@record(slots=True)
class StorageResource:
    requested: int = 0
    capacity: int = 0


Scorer = Callable[[Mapping[str, StorageResource]], int]


def build_scorer(shape: Sequence[UtilizationShapePoint]) -> Scorer:
    """Average over storage classes of the shape at each class' utilization."""
    points = [
        FunctionShapePoint(p.utilization, p.score * (MAX_NODE_SCORE // MAX_CUSTOM_PRIORITY_SCORE))
        for p in shape
    ]
    raw = build_broken_linear_function(points)

    def class_score(requested: int, capacity: int) -> int:
        if capacity == 0 or requested > capacity:
            return raw(MAX_UTILIZATION)
        return raw(requested * MAX_UTILIZATION // capacity)

    def score(classes: Mapping[str, StorageResource]) -> int:
        if not classes:
            return 0
        total = sum(class_score(r.requested, r.capacity) for r in classes.values())
        # math.Round: halves away from zero (the total is never negative).
        return (2 * total + len(classes)) // (2 * len(classes))

    return score
