"""InterPodAffinity's Filter, Score and NormalizeScore over every live node at once.

Equal to filtering.py's and scoring.py's per-node code: the topology counts of the
PreFilter and PreScore states are looked up per node through each topology key's
domain ids, which depend on static node labels only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeGuard

from ...framework.columns import BoolArray, IntArray, NodeColumns
from ...framework.status import Code, Status
from ...framework.types import MAX_NODE_SCORE
from ...lazy_numpy import np
from .filtering import (
    ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
    Counts,
    PreFilterState,
    matches_all,
)
from .index import LivePreFilterState
from .pairs import domains


def _per_node(key: str, by_value: Mapping[str, int], columns: NodeColumns) -> IntArray:
    """``by_value[labels[key]]`` per node, 0 where the node lacks the key or the value."""
    ids, position = domains(key, columns)
    table = np.zeros(len(position) + 1, dtype=np.int64)  # the last slot serves id -1
    for value, amount in by_value.items():
        at = position.get(value)
        if at is not None:
            table[at] = amount
    out: IntArray = table[ids]
    return out


def _by_value(counts: Counts, key: str) -> dict[str, int]:
    return {v: n for (k, v), n in counts.items() if k == key}


def _has_key(key: str, columns: NodeColumns) -> BoolArray:
    found: BoolArray = domains(key, columns)[0] >= 0
    return found


def _live(s: PreFilterState, columns: NodeColumns) -> TypeGuard[LivePreFilterState]:
    """The state's live tables still hold its counts (no bind or removal since)."""
    return isinstance(s, LivePreFilterState) and s.current(columns)


def affinity_mask(s: PreFilterState, columns: NodeColumns) -> BoolArray:
    """satisfy_pod_affinity per node."""
    ok: BoolArray = np.ones(columns.size, dtype=np.bool_)
    if not s.affinity_terms:
        return ok
    exist: BoolArray = np.ones(columns.size, dtype=np.bool_)
    table = s.affinity_table if _live(s, columns) else None
    for t in s.affinity_terms:
        key = t.topology_key
        ok &= _has_key(key, columns)
        if table is not None:
            exist &= table.per_node(key) > 0
        else:
            exist &= _per_node(key, _by_value(s.affinity_counts, key), columns) > 0
    if not s.affinity_counts and matches_all(s.affinity_terms, s.pod):
        return ok
    return ok & exist


def anti_affinity_mask(s: PreFilterState, columns: NodeColumns) -> BoolArray:
    """satisfy_pod_anti_affinity per node."""
    ok: BoolArray = np.ones(columns.size, dtype=np.bool_)
    if not s.anti_affinity_counts:
        return ok
    if _live(s, columns):
        # A pair's merged count is positive where any term's own count is.
        for t, table in zip(s.anti_affinity_terms, s.anti_tables, strict=True):
            ok &= table.per_node(t.topology_key) <= 0
        return ok
    for t in s.anti_affinity_terms:
        key = t.topology_key
        ok &= _per_node(key, _by_value(s.anti_affinity_counts, key), columns) <= 0
    return ok


def existing_anti_affinity_mask(s: PreFilterState, columns: NodeColumns) -> BoolArray:
    """satisfy_existing_pods_anti_affinity per node: no positive pair among its labels."""
    ok: BoolArray = np.ones(columns.size, dtype=np.bool_)
    if _live(s, columns):
        for key, table in s.existing_tables:
            ok &= table.per_node(key) <= 0
        return ok
    for key in {k for k, _ in s.existing_anti_affinity_counts}:
        ok &= _per_node(key, _by_value(s.existing_anti_affinity_counts, key), columns) <= 0
    return ok


def filter_statuses(
    s: PreFilterState, columns: NodeColumns, positions: IntArray
) -> list[Status | None]:
    """Filter's status on the nodes at ``positions``, checks in Filter's order.

    Nodes failing the same check share one status: nothing changes a status in place."""
    checks = [
        (
            affinity_mask(s, columns)[positions],
            Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH),
        ),
        (
            anti_affinity_mask(s, columns)[positions],
            Status(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH),
        ),
        (
            existing_anti_affinity_mask(s, columns)[positions],
            Status(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH),
        ),
    ]
    # Per node the first failing check (3: none), then its status.
    first = np.full(positions.size, len(checks), dtype=np.int64)
    for at in range(len(checks) - 1, -1, -1):
        first[~checks[at][0]] = at
    table: list[Status | None] = [status for _, status in checks] + [None]
    return [table[at] for at in first.tolist()]


def score_array(topology_score: Mapping[str, Mapping[str, int]], columns: NodeColumns) -> IntArray:
    """node_score per live node."""
    total: IntArray = np.zeros(columns.size, dtype=np.int64)
    for key, by_value in topology_score.items():
        total += _per_node(key, by_value, columns)
    return total


def normalize_array(scores: IntArray) -> IntArray:
    """normalize() on an array: the same float64 operations, then truncation."""
    if scores.size == 0:
        return scores
    low = int(scores.min())
    spread = int(scores.max()) - low
    if spread <= 0:
        return np.zeros_like(scores)
    scaled = float(MAX_NODE_SCORE) * ((scores - low).astype(np.float64) / float(spread))
    out: IntArray = scaled.astype(np.int64)
    return out
