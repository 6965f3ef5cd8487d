"""LeastAllocated scoring strategy (least_allocated.go): favour nodes with more room left."""

from __future__ import annotations

from collections.abc import Sequence

from ...config.args import ResourceSpec
from ...framework.types import MAX_NODE_SCORE
from .resource_allocation import ScorerFn


def least_requested_score(requested: int, capacity: int) -> int:
    """Free share of ``capacity`` on a 0-100 scale; 0 when over-committed."""
    if capacity == 0 or requested > capacity:
        return 0
    # Both operands are non-negative here, so floor division equals Go's.
    return (capacity - requested) * MAX_NODE_SCORE // capacity


def least_resource_scorer(resources: Sequence[ResourceSpec]) -> ScorerFn:
    weights = tuple(r.weight for r in resources)

    def scorer(requested: Sequence[int], allocatable: Sequence[int]) -> int:
        node_score = weight_sum = 0
        # enumerate beats zip(strict=...) here; this runs for every scored node.
        for i, alloc in enumerate(allocatable):
            if alloc == 0:
                continue
            weight = weights[i]
            node_score += least_requested_score(requested[i], alloc) * weight
            weight_sum += weight
        if weight_sum == 0:
            return 0
        return node_score // weight_sum

    return scorer
