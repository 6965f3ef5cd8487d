"""RequestedToCapacityRatio scoring strategy (requested_to_capacity_ratio.go)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...config.args import ResourceSpec, UtilizationShapePoint
from ...framework.types import MAX_NODE_SCORE
from ..helpers.shape import FunctionShapePoint, build_broken_linear_function
from .resource_allocation import ScorerFn

MAX_UTILIZATION = 100
# Shape scores are configured on 0..MaxCustomPriorityScore and scaled to node scores.
MAX_CUSTOM_PRIORITY_SCORE = 10


def go_round(x: float) -> int:
    """math.Round: halves go away from zero (Python's round() goes to even)."""
    whole = math.trunc(x)
    if abs(x - whole) >= 0.5:
        whole += 1 if x > 0 else -1
    return whole


def requested_to_capacity_ratio_scorer(
    resources: Sequence[ResourceSpec], shape: Sequence[UtilizationShapePoint]
) -> ScorerFn:
    scale = MAX_NODE_SCORE // MAX_CUSTOM_PRIORITY_SCORE
    raw = build_broken_linear_function(
        [FunctionShapePoint(p.utilization, p.score * scale) for p in shape]
    )
    weights = tuple(r.weight for r in resources)
    full = raw(MAX_UTILIZATION)

    def resource_score(requested: int, capacity: int) -> int:
        if capacity == 0 or requested > capacity:
            return full
        return raw(requested * MAX_UTILIZATION // capacity)

    def scorer(requested: Sequence[int], allocatable: Sequence[int]) -> int:
        node_score = weight_sum = 0
        for i, alloc in enumerate(allocatable):
            if alloc == 0:
                continue
            weight = weights[i]
            score = resource_score(requested[i], alloc)
            # Resources scoring zero take no part in the average.
            if score > 0:
                node_score += score * weight
                weight_sum += weight
        if weight_sum == 0:
            return 0
        return go_round(float(node_score) / float(weight_sum))

    return scorer
