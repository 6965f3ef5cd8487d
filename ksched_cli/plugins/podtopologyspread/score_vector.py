"""PodTopologySpread's PreScore, Score and NormalizeScore over live nodes at once.

Equal to scoring.py's per-node code, system default constraints included: pair counts
are summed from the per-node matching-pod columns (the ones PreFilter reads too), the
hostname counts are those columns, and scores use float64 in the order Go adds them.
A node without a topology key counts toward the pair ``(key, "")``, as in Go.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...api.pod import Pod
from ...framework.columns import BoolArray, IntArray, LiveNodes, NodeColumns
from ...framework.nodeinfo import NodeInfo
from ...framework.types import MAX_NODE_SCORE, MAX_TOTAL_SCORE
from ...lazy_numpy import np
from .common import HONOR, HOSTNAME_LABEL, NAME, Constraint, CountKey, RequiredNodeAffinity
from .scoring import INVALID_SCORE, PreScoreState, topology_normalizing_weight
from .vector import included, matching_counts

if TYPE_CHECKING:
    import numpy.typing as npt

    FloatArray = npt.NDArray[np.float64]
else:  # annotations only need a name
    FloatArray = Any


def live_positions(nodes: Sequence[NodeInfo]) -> tuple[NodeColumns, IntArray] | None:
    """The live columns and the nodes' positions in them; None if any node is a clone."""
    if not nodes:
        return None
    columns = nodes[0].columns
    if columns is None:
        return None
    if isinstance(nodes, LiveNodes):
        return columns, nodes.positions
    positions = np.fromiter((ni.column_index for ni in nodes), dtype=np.int64, count=len(nodes))
    return (columns, positions) if int(positions.min()) >= 0 else None


def _pair_ids(key: str, columns: NodeColumns) -> tuple[IntArray, list[str]]:
    """Per node the id of its pair's value for ``key`` ("" where the label is missing)."""
    return columns.static_ids((NAME, "pair", key), lambda ni: ni.node.labels.get(key, ""))


def _has_key(key: str, columns: NodeColumns) -> BoolArray:
    return columns.static_mask((NAME, "has", key), lambda ni: key in ni.node.labels)


def build_pre_score_state(
    pod: Pod,
    constraints: list[Constraint],
    keys: list[CountKey | None],
    columns: NodeColumns,
    positions: IntArray,
    require_all: bool,
) -> PreScoreState | None:
    """initPreScoreState plus the pair counting of PreScore; None for the per-node path."""
    topology_keys = [c.topology_key for c in constraints]
    if len(set(topology_keys)) != len(topology_keys):
        return None  # constraints on one key share their pairs: leave it to scoring.py
    eligible: BoolArray | None = None
    ignored_at: BoolArray = np.zeros(positions.size, dtype=np.bool_)
    if require_all:
        eligible = columns.static_mask(
            (NAME, "keys", tuple(topology_keys)),
            lambda ni: all(k in ni.node.labels for k in topology_keys),
        )
        ignored_at = ~eligible[positions]
    ignored: set[str] = set()
    candidates = positions
    if ignored_at.any():
        names = columns.names
        ignored = {names[p] for p in positions[ignored_at].tolist()}
        candidates = positions[~ignored_at]
    pair_counts: dict[tuple[str, str], int] = {}
    weights: list[float] = []
    for c in constraints:
        if c.topology_key == HOSTNAME_LABEL:  # counted per node in Score
            weights.append(topology_normalizing_weight(positions.size - len(ignored)))
            continue
        ids, values = _pair_ids(c.topology_key, columns)
        present = np.flatnonzero(np.bincount(ids[candidates], minlength=len(values)))
        weights.append(topology_normalizing_weight(int(present.size)))
        if present.size == 0:
            continue
        counts = matching_counts(pod, c, columns)
        if eligible is None and not _restricted(pod, c):
            sums = np.bincount(ids, weights=counts, minlength=len(values))
        else:
            mask = included(pod, c, columns)
            counted = np.flatnonzero(mask if eligible is None else mask & eligible)
            sums = np.bincount(ids[counted], weights=counts[counted], minlength=len(values))
        for d in present.tolist():
            pair_counts[(c.topology_key, values[d])] = int(sums[d])
    return PreScoreState(constraints, keys, ignored, pair_counts, weights, positions, ignored_at)


def _restricted(pod: Pod, c: Constraint) -> bool:
    """Whether the inclusion policies can leave some node out of the pair counts."""
    if c.node_taints_policy == HONOR:
        return True
    return c.node_affinity_policy == HONOR and not RequiredNodeAffinity.of(pod).is_empty


def score_array(
    state: PreScoreState, pod: Pod, columns: NodeColumns, index: IntArray
) -> IntArray | None:
    """score_node for the nodes PreScore was given (None for any other list)."""
    if state.positions is None or not np.array_equal(index, state.positions):
        return None
    total = np.zeros(index.size, dtype=np.float64)
    for c, weight in zip(state.constraints, state.weights, strict=True):
        has = _has_key(c.topology_key, columns)[index]
        if c.topology_key == HOSTNAME_LABEL:
            counts = matching_counts(pod, c, columns)[index]
        else:
            ids, values = _pair_ids(c.topology_key, columns)
            per_pair = [state.pair_counts.get((c.topology_key, v), 0) for v in values]
            counts = np.array(per_pair, dtype=np.int64)[ids[index]]
        term = counts.astype(np.float64) * weight + float(c.max_skew - 1)
        total = total + term if has.all() else np.where(has, total + term, total)
    out = go_round_array(total)
    if state.ignored_at is not None:
        out[state.ignored_at] = 0
    return out


def go_round_array(values: FloatArray) -> IntArray:
    """go_round per element: halves round away from zero."""
    magnitude = np.abs(values)
    floor = np.floor(magnitude)
    rounded = floor + (magnitude - floor >= 0.5)
    out: IntArray = np.where(values >= 0, rounded, -rounded).astype(np.int64)
    return out


def normalize_array(state: PreScoreState, scores: IntArray) -> IntArray | None:
    """normalize_scores on the array Score gave for PreScore's nodes."""
    ignored = state.ignored_at
    if ignored is None or ignored.size != scores.size:
        return None
    kept = scores[~ignored]
    min_score = int(kept.min()) if kept.size else MAX_TOTAL_SCORE
    max_score = max(0, int(kept.max())) if kept.size else 0
    marked = np.where(ignored, INVALID_SCORE, scores)
    if max_score == 0:
        out: IntArray = np.full(scores.size, MAX_NODE_SCORE, dtype=np.int64)
    else:
        numerator = MAX_NODE_SCORE * (max_score + min_score - marked)
        # Go's int64 division truncates toward zero.
        out = np.sign(numerator) * (np.abs(numerator) // max_score)
    out[marked == INVALID_SCORE] = 0
    return out
