"""PreScore, Score and NormalizeScore of PodTopologySpread (podtopologyspread/scoring.go)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...api.pod import Pod
from ...framework.nodeinfo import NodeInfo
from ...framework.types import MAX_NODE_SCORE, MAX_TOTAL_SCORE, NodeScore
from ...record import record
from ..helpers.normalize import go_div
from .common import (
    HOSTNAME_LABEL,
    NAME,
    Constraint,
    CountKey,
    MatchCounter,
    NodeInclusion,
    TopologyPair,
    go_round,
    node_has_keys,
)

if TYPE_CHECKING:
    from ...framework.columns import BoolArray, IntArray

PRE_SCORE_STATE_KEY = "PreScore" + NAME
INVALID_SCORE = -1


@record(eq=False, slots=True)
class PreScoreState:
    """Soft constraints with their per-pair counts; hostname counts are taken in Score."""

    constraints: list[Constraint]
    keys: list[CountKey | None]
    ignored_nodes: set[str]
    pair_counts: dict[TopologyPair, int]
    weights: list[float]
    # Set when PreScore ran on arrays (score_vector.py): the column positions of the
    # nodes it was given and, in the same order, which of them are ignored.
    positions: IntArray | None = None
    ignored_at: BoolArray | None = None

    def clone(self) -> PreScoreState:
        # Nothing mutates the state after PreScore, so sharing it is safe.
        return self


def topology_normalizing_weight(size: int) -> float:
    """log(size + 2): small topologies are not watered down by big ones."""
    return math.log(size + 2)


def score_for_count(count: int, max_skew: int, weight: float) -> float:
    return count * weight + float(max_skew - 1)


def init_pre_score_state(
    constraints: list[Constraint],
    keys: list[CountKey | None],
    filtered: Sequence[NodeInfo],
    require_all: bool,
) -> PreScoreState:
    """The candidate nodes' pairs (counts still zero), ignored nodes and weights."""
    ignored: set[str] = set()
    pair_counts: dict[TopologyPair, int] = {}
    sizes = [0] * len(constraints)
    for info in filtered:
        labels = info.node.labels
        if require_all and not node_has_keys(labels, constraints):
            ignored.add(info.name)
            continue
        for i, c in enumerate(constraints):
            if c.topology_key == HOSTNAME_LABEL:
                continue
            pair = (c.topology_key, labels.get(c.topology_key, ""))
            if pair not in pair_counts:
                pair_counts[pair] = 0
                sizes[i] += 1
    weights = [
        topology_normalizing_weight(
            len(filtered) - len(ignored) if c.topology_key == HOSTNAME_LABEL else size
        )
        for c, size in zip(constraints, sizes, strict=True)
    ]
    return PreScoreState(constraints, keys, ignored, pair_counts, weights)


def count_pairs(
    state: PreScoreState,
    pod: Pod,
    nodes: Sequence[NodeInfo],
    require_all: bool,
    counter: MatchCounter,
) -> None:
    """Add every eligible node's matching pods to the pairs the candidates use."""
    constraints = state.constraints
    inclusion = NodeInclusion(pod, constraints)
    pair_counts = state.pair_counts
    for info in nodes:
        labels = info.node.labels
        if require_all and not node_has_keys(labels, constraints):
            continue
        affinity_ok, taints_ok = inclusion.verdicts(info.node)
        for c, key in zip(constraints, state.keys, strict=True):
            if not c.includes(affinity_ok, taints_ok):
                continue
            pair = (c.topology_key, labels.get(c.topology_key, ""))
            if pair in pair_counts:
                pair_counts[pair] += counter.count(info, key)


def score_node(state: PreScoreState, info: NodeInfo, counter: MatchCounter) -> int:
    """The weighted matching-pod count of the node's domains (lower is better)."""
    if info.name in state.ignored_nodes:
        return 0
    labels = info.node.labels
    score = 0.0
    for c, key, weight in zip(state.constraints, state.keys, state.weights, strict=True):
        value = labels.get(c.topology_key)
        if value is None:
            continue
        if c.topology_key == HOSTNAME_LABEL:
            count = counter.count(info, key)
        else:
            count = state.pair_counts.get((c.topology_key, value), 0)
        score += score_for_count(count, c.max_skew, weight)
    return go_round(score)


def normalize_scores(state: PreScoreState, scores: list[NodeScore]) -> None:
    """Reverse-scale into [0, 100] so the emptiest domain scores highest."""
    min_score, max_score = MAX_TOTAL_SCORE, 0
    for s in scores:
        if s.name in state.ignored_nodes:
            s.score = INVALID_SCORE
            continue
        min_score = min(min_score, s.score)
        max_score = max(max_score, s.score)
    for s in scores:
        if s.score == INVALID_SCORE:
            s.score = 0
        elif max_score == 0:
            s.score = MAX_NODE_SCORE
        else:
            s.score = go_div(MAX_NODE_SCORE * (max_score + min_score - s.score), max_score)
