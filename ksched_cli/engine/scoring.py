"""Score, NormalizeScore and weights for one attempt (framework.RunScorePlugins).

Arrays where plugins offer ``score_array``/``normalize_array``, per-node calls otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from ..api.pod import Pod
from ..framework import interface as fi
from ..framework.columns import IntArray, LiveNodes
from ..framework.cycle_state import CycleState
from ..framework.nodeinfo import NodeInfo
from ..framework.status import Code, Status, as_error
from ..framework.types import MAX_NODE_SCORE, MIN_NODE_SCORE, NodeScore
from ..lazy_numpy import np
from .records import PositionNames, ScoreTable

if TYPE_CHECKING:
    from .runtime import Framework


@cache
def _empty() -> IntArray:
    """No scores: one shared empty array, made with the first (NumPy loads on first use)."""
    return np.zeros(0, dtype=np.int64)


def live_index(nodes: Sequence[NodeInfo]) -> IntArray | None:
    """Column positions of ``nodes`` when all are live snapshot nodes, else None."""
    if not nodes:
        return None
    if isinstance(nodes, LiveNodes):
        return nodes.positions
    index = np.array([ni.column_index for ni in nodes], dtype=np.int64)
    return None if int(index.min()) < 0 else index


def score_table(
    nodes: Sequence[NodeInfo], plugins: list[str], total: IntArray, index: IntArray | None = None
) -> ScoreTable:
    """An empty table over ``nodes``; live nodes' names are looked up only when read."""
    index = live_index(nodes) if index is None else index
    columns = nodes[0].columns if nodes else None
    if index is None or columns is None:
        return ScoreTable([ni.name for ni in nodes], plugins, {}, {}, {}, total)
    names = PositionNames(columns.names, index.tolist())
    return ScoreTable(names, plugins, {}, {}, {}, total, name_rank=columns.name_rank[index])


def run_score(
    fwk: Framework, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
) -> tuple[ScoreTable | None, Status | None]:
    """Score, NormalizeScore and weights, each for every plugin before the next, as
    RunScorePlugins does (so a Score error wins over an earlier plugin's bad score)."""
    plugins = [pl for pl in fwk.score_plugins if pl.name not in state.skip_score_plugins]
    index = live_index(nodes)
    table = score_table(nodes, [pl.name for pl in plugins], _empty(), index)
    for pl in plugins:
        raw, status = _raw_scores(fwk, pl, state, pod, nodes, index)
        if status is not None:
            return None, as_error(f"running Score plugins: {status.message()}")
        table.raw[pl.name] = raw
    for pl in plugins:
        normalized, status = _normalized(fwk, pl, state, pod, nodes, table.raw[pl.name])
        if status is not None:
            return None, as_error(f"running Normalize on Score plugins: {status.message()}")
        table.normalized[pl.name] = normalized
    if not plugins or not len(nodes):
        for pl in plugins:
            table.weighted[pl.name] = table.normalized[pl.name]  # empty
        table.total = np.zeros(len(nodes), dtype=np.int64)
        return table, None
    # One row per plugin: the range check, the weights and the sum each one array call
    # (np.array, not np.vstack: the same rows without vstack's Python wrapper).
    stacked = np.array([table.normalized[pl.name] for pl in plugins], dtype=np.int64)
    status = _out_of_range(plugins, table, stacked)
    if status is not None:
        return None, status
    weights = fwk.score_weights
    column = np.array([[weights.get(pl.name, 1)] for pl in plugins], dtype=np.int64)
    weighted = stacked * column
    table.weighted.update(zip([pl.name for pl in plugins], weighted, strict=True))
    table.total = weighted.sum(axis=0)
    return table, None


def _out_of_range(
    plugins: list[fi.ScorePlugin], table: ScoreTable, stacked: IntArray
) -> Status | None:
    """The first plugin's first score outside [MinNodeScore, MaxNodeScore], checked over
    all plugins at once (one reduction each way instead of two per plugin)."""
    if int(stacked.min()) >= MIN_NODE_SCORE and int(stacked.max()) <= MAX_NODE_SCORE:
        return None
    for pl in plugins:
        normalized = table.normalized[pl.name]
        bad = normalized[(normalized > MAX_NODE_SCORE) | (normalized < MIN_NODE_SCORE)]
        if bad.size:
            return as_error(
                f'plugin "{pl.name}" returns an invalid score {int(bad[0])}, it should in the '
                f"range of [{MIN_NODE_SCORE}, {MAX_NODE_SCORE}] after normalizing"
            )
    return None


def _raw_scores(
    fwk: Framework,
    pl: fi.ScorePlugin,
    state: CycleState,
    pod: Pod,
    nodes: Sequence[NodeInfo],
    index: IntArray | None,
) -> tuple[IntArray, Status | None]:
    batch = getattr(pl, "score_array", None) if fwk.vectorize else None
    if batch is not None and index is not None:
        columns = nodes[0].columns if nodes else None
        array = batch(state, pod, columns, index) if columns is not None else None
        if array is not None:
            return array, None
    values = []
    for ni in nodes:
        value, status = pl.score(state, pod, ni)
        if status is not None and status.code != Code.SUCCESS:
            return _empty(), as_error(f'plugin "{pl.name}" failed with: {status.message()}')
        values.append(value)
    return np.array(values, dtype=np.int64), None


def _normalized(
    fwk: Framework,
    pl: fi.ScorePlugin,
    state: CycleState,
    pod: Pod,
    nodes: Sequence[NodeInfo],
    raw: IntArray,
) -> tuple[IntArray, Status | None]:
    ext = pl.score_extensions()
    if ext is None:
        return raw, None
    batch = getattr(ext, "normalize_array", None) if fwk.vectorize else None
    if batch is not None:
        array = batch(state, pod, raw.copy())
        if array is not None:
            return array, None
    scores = [NodeScore(ni.name, int(v)) for ni, v in zip(nodes, raw.tolist(), strict=True)]
    status = ext.normalize_score(state, pod, scores)
    if status is not None and status.code != Code.SUCCESS:
        return _empty(), as_error(f'plugin "{pl.name}" failed with: {status.message()}')
    return np.array([ns.score for ns in scores], dtype=np.int64), None
