"""MostAllocated scoring strategy (most_allocated.go): favour nodes that are already full."""

from __future__ import annotations

from collections.abc import Sequence

from ...config.args import ResourceSpec
from ...framework.types import MAX_NODE_SCORE
from .resource_allocation import ScorerFn


def most_requested_score(requested: int, capacity: int) -> int:
    """Used share of ``capacity`` on a 0-100 scale, capped at 100."""
    if capacity == 0:
        return 0
    # Over-commitment happens through the non-zero defaults of request-less pods.
    requested = min(requested, capacity)
    return requested * MAX_NODE_SCORE // capacity


def most_resource_scorer(resources: Sequence[ResourceSpec]) -> ScorerFn:
    weights = tuple(r.weight for r in resources)

    def scorer(requested: Sequence[int], allocatable: Sequence[int]) -> int:
        node_score = weight_sum = 0
        # enumerate beats zip(strict=...) here; this runs for every scored node.
        for i, alloc in enumerate(allocatable):
            if alloc == 0:
                continue
            weight = weights[i]
            node_score += most_requested_score(requested[i], alloc) * weight
            weight_sum += weight
        if weight_sum == 0:
            return 0
        return node_score // weight_sum

    return scorer
