"""NodeResourcesBalancedAllocation (noderesources/balanced_allocation.go).

Favours nodes whose utilisation fractions of the configured resources are close
to each other once the pod is placed: score = (1 - std) * MaxNodeScore.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...api.pod import Pod
from ...config.args import NodeResourcesBalancedAllocationArgs
from ...framework.columns import IntArray, NodeColumns
from ...framework.cycle_state import CycleState
from ...framework.interface import Handle, ScoreExtensions
from ...framework.nodeinfo import NodeInfo
from ...framework.status import Code, Status
from ...framework.types import MAX_NODE_SCORE
from ...versions.features import features_of
from .resource_allocation import ResourceAllocationScorer
from .vector import balanced_scores

NAME = "NodeResourcesBalancedAllocation"
PRE_SCORE_STATE_KEY = "PreScore" + NAME


def balanced_resource_scorer(requested: Sequence[int], allocatable: Sequence[int]) -> int:
    """float64 arithmetic in Go's operation order, truncated to int64 at the end."""
    fractions: list[float] = []
    total = 0.0
    for i, alloc in enumerate(allocatable):
        if alloc == 0:
            continue
        # Convert each side first, as Go's float64(a) / float64(b) does.
        fraction = float(requested[i]) / float(alloc)
        if fraction > 1:
            fraction = 1.0
        total += fraction
        fractions.append(fraction)
    std = 0.0
    count = len(fractions)
    if count == 2:
        std = abs((fractions[0] - fractions[1]) / 2)
    elif count > 2:
        mean = total / float(count)
        acc = 0.0
        for fraction in fractions:
            acc = acc + (fraction - mean) * (fraction - mean)
        std = math.sqrt(acc / float(count))
    return int((1 - std) * float(MAX_NODE_SCORE))


class BalancedAllocation:
    """PreScore and Score; v1.30 never skips, v1.33+ skips best-effort pods."""

    name = NAME

    def __init__(
        self, args: NodeResourcesBalancedAllocationArgs | None, handle: Handle | None = None
    ) -> None:
        args = args if args is not None else NodeResourcesBalancedAllocationArgs()
        self.handle = handle
        self.skip_best_effort = features_of(handle).balanced_skip_best_effort
        # Real requests, not the non-zero defaults: a request-less pod changes no fraction.
        self.scorer = ResourceAllocationScorer(
            NAME, balanced_resource_scorer, args.resources, use_requested=True
        )

    def _best_effort(self, requests: Sequence[int]) -> bool:
        """isBestEffortPod (v1.33+): every configured resource request is zero."""
        return self.skip_best_effort and not any(requests)

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        if self._best_effort(self.scorer.pod_request_list(pod)):
            return Status(Code.SKIP)
        self.scorer.pre_score(state, PRE_SCORE_STATE_KEY, pod)
        return None

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status | None]:
        requests = self.scorer.requests(state, PRE_SCORE_STATE_KEY, pod)
        if self._best_effort(requests):
            return 0, None
        return self.scorer.score(node_info, requests)

    def score_array(
        self, state: CycleState, pod: Pod, columns: NodeColumns, index: IntArray
    ) -> IntArray | None:
        requests = self.scorer.requests(state, PRE_SCORE_STATE_KEY, pod)
        if not self.scorer.resources:
            return None
        return balanced_scores(self.scorer, requests, columns, index)

    def score_extensions(self) -> ScoreExtensions | None:
        return None


Plugin = BalancedAllocation
