"""NodeResourcesBalancedAllocation (noderesources/balanced_allocation.go).

Favours nodes whose utilisation fractions of the configured resources are close
to each other once the pod is placed: score = (1 - std) * MaxNodeScore. From v1.36
the score is how much the pod improves that balance (``balance_change_score``).
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
from ...framework.status import SKIP, Code, Status
from ...framework.types import MAX_NODE_SCORE
from ...versions.features import features_of
from .resource_allocation import ResourceAllocationScorer
from .vector import balanced_scores, balances_before

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


def balance_change_score(
    requested: Sequence[int], allocated: Sequence[int], allocatable: Sequence[int]
) -> int:
    """v1.36: how the pod changes the node's balance, mapped onto [50, 100] (75: no change).

    Each balance score lies in [50, 100], so the numerator is never negative and floor
    division equals Go's truncating int64 division.
    """
    with_pod = balanced_resource_scorer(requested, allocatable)
    without_pod = balanced_resource_scorer(allocated, allocatable)
    half = MAX_NODE_SCORE // 2
    return half + (half + with_pod - without_pod) // 2


class BalancedAllocation:
    """PreScore and Score; v1.30 never skips, v1.33+ skips best-effort pods, v1.36+ scores
    the change in balance."""

    name = NAME

    def __init__(
        self, args: NodeResourcesBalancedAllocationArgs | None, handle: Handle | None = None
    ) -> None:
        args = args if args is not None else NodeResourcesBalancedAllocationArgs()
        self.handle = handle
        features = features_of(handle)
        self.skip_best_effort = features.balanced_skip_best_effort
        self.change_in_balance = features.balanced_change_in_balance
        # Real requests, not the non-zero defaults: a request-less pod changes no fraction.
        self.scorer = ResourceAllocationScorer(
            NAME, balanced_resource_scorer, args.resources, use_requested=True
        )

    def _best_effort(self, requests: Sequence[int]) -> bool:
        """isBestEffortPod (v1.33+): every configured resource request is zero."""
        return self.skip_best_effort and not any(requests)

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        if self._best_effort(self.scorer.pod_request_list(pod)):
            return SKIP
        self.scorer.pre_score(state, PRE_SCORE_STATE_KEY, pod)
        return None

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status | None]:
        requests = self.scorer.requests(state, PRE_SCORE_STATE_KEY, pod)
        if self._best_effort(requests):
            return 0, None
        if self.change_in_balance:
            if not self.scorer.resources:
                return 0, Status(Code.ERROR, "resources not found")
            return balance_change_score(*self.scorer.lists(node_info, requests)), None
        return self.scorer.score(node_info, requests)

    def score_array(
        self, state: CycleState, pod: Pod, columns: NodeColumns, index: IntArray
    ) -> IntArray | None:
        requests = self.scorer.requests(state, PRE_SCORE_STATE_KEY, pod)
        if not self.scorer.resources:
            return None
        if len(self.scorer.resources) > 2:
            return None  # no array form beyond the two-resource shortcut
        scorer = self.scorer

        def compute(positions: IntArray) -> IntArray:
            without = self._balance_without(columns, requests)
            before = None if without is None else without[positions]
            scores = balanced_scores(scorer, requests, columns, positions, before)
            assert scores is not None
            return scores

        def compute_one(node_info: NodeInfo) -> int:
            return self.score(state, pod, node_info)[0]

        # The score depends on the pod only through its requests (see Fit.score_array).
        return columns.derived((NAME, self, tuple(requests)), compute, compute_one)[index]

    def _balance_without(
        self, columns: NodeColumns, requests: Sequence[int]
    ) -> IntArray | None:
        """v1.36: each node's balance before the pod, a derived column per set of extended
        resources the pod requests (the only way the pod bears on it); None before v1.36."""
        if not self.change_in_balance:
            return None
        included = self.scorer.requested_scalars(requests)
        stand_in = [1 if flag else 0 for flag in included]

        def balance(node_info: NodeInfo) -> int:
            _, allocated, allocatable = self.scorer.lists(node_info, stand_in)
            return balanced_resource_scorer(allocated, allocatable)

        def compute(positions: IntArray) -> IntArray:
            found = balances_before(self.scorer, stand_in, columns, positions)
            assert found is not None  # score_array leaves more than two resources out
            return found

        return columns.derived((NAME, self, included), compute, balance)

    def score_extensions(self) -> ScoreExtensions | None:
        return None


Plugin = BalancedAllocation
