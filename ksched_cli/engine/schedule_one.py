"""One scheduling attempt up to SelectHost (schedule_one.go: schedulePod and helpers)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..api.pod import Pod
from ..framework.columns import BoolArray, IntArray, NodeColumns
from ..framework.cycle_state import CycleState
from ..framework.interface import FilterPlugin
from ..framework.nodeinfo import NodeInfo
from ..framework.status import Code, Status
from ..framework.types import Diagnosis, FitError
from .records import ScoreTable
from .runtime import Framework
from .snapshot import Snapshot

MIN_FEASIBLE_NODES_TO_FIND = 100
MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5


class SchedulingError(Exception):
    """An Error status from a plugin: the attempt fails without a FitError."""


@dataclass
class ScheduleResult:
    host: str
    feasible: list[NodeInfo]
    evaluated: int
    diagnosis: Diagnosis
    scores: ScoreTable | None = None


@dataclass
class Sampler:
    """The scheduler-wide node sampling state (nextStartNodeIndex) and settings."""

    percentage_of_nodes_to_score: int = 0
    next_start_node_index: int = 0
    rng: random.Random | None = None
    # Use filter masks and score arrays where plugins offer them (same results).
    vectorize: bool = True

    def num_feasible_nodes_to_find(self, profile_percentage: int | None, num_all: int) -> int:
        if num_all < MIN_FEASIBLE_NODES_TO_FIND:
            return num_all
        percentage = (
            profile_percentage
            if profile_percentage is not None
            else self.percentage_of_nodes_to_score
        )
        if percentage == 0:
            percentage = max(50 - num_all // 125, MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND)
        num = num_all * percentage // 100
        return max(num, MIN_FEASIBLE_NODES_TO_FIND)


def schedule_pod(
    fwk: Framework, sampler: Sampler, snapshot: Snapshot, state: CycleState, pod: Pod
) -> ScheduleResult:
    """Find the feasible nodes, score them and pick one; raises FitError when none fits."""
    if len(snapshot) == 0:
        raise SchedulingError("no nodes available to schedule pods")
    feasible, diagnosis = _find_nodes_that_fit(fwk, sampler, snapshot, state, pod)
    if not feasible:
        raise FitError(pod, len(snapshot), diagnosis)
    evaluated = len(feasible) + len(diagnosis.node_to_status)
    if len(feasible) == 1:
        return ScheduleResult(feasible[0].name, feasible, evaluated, diagnosis)
    scores = _prioritize(fwk, state, pod, feasible)
    host = _select_host(scores, sampler.rng)
    return ScheduleResult(host, feasible, evaluated, diagnosis, scores)


def _find_nodes_that_fit(
    fwk: Framework, sampler: Sampler, snapshot: Snapshot, state: CycleState, pod: Pod
) -> tuple[list[NodeInfo], Diagnosis]:
    diagnosis = Diagnosis()
    all_nodes = snapshot.list()
    pre_result, status = fwk.run_pre_filter(state, pod)
    if status is not None and status.code != Code.SUCCESS:
        if not status.is_rejected():
            raise SchedulingError(status.message())
        for ni in all_nodes:
            diagnosis.node_to_status[ni.name] = status
        diagnosis.pre_filter_msg = status.message()
        diagnosis.add_plugin_status(status)
        return [], diagnosis
    if pod.nominated_node_name:
        nominated = snapshot.get(pod.nominated_node_name)
        if nominated is not None:
            feasible = _find_nodes_that_pass_filters(
                fwk, sampler, state, pod, diagnosis, [nominated]
            )
            if feasible:
                return feasible, diagnosis
    nodes: Sequence[NodeInfo] = all_nodes
    if pre_result is not None and pre_result.node_names is not None:
        allowed = pre_result.node_names
        nodes = [ni for ni in all_nodes if ni.name in allowed]
    feasible = _find_nodes_that_pass_filters(fwk, sampler, state, pod, diagnosis, nodes)
    processed = len(feasible) + len(diagnosis.node_to_status)
    sampler.next_start_node_index = (sampler.next_start_node_index + processed) % len(all_nodes)
    return feasible, diagnosis


def _find_nodes_that_pass_filters(
    fwk: Framework,
    sampler: Sampler,
    state: CycleState,
    pod: Pod,
    diagnosis: Diagnosis,
    nodes: Sequence[NodeInfo],
) -> list[NodeInfo]:
    num_all = len(nodes)
    if num_all == 0:
        return []
    to_find = sampler.num_feasible_nodes_to_find(fwk.profile.percentage_of_nodes_to_score, num_all)
    if not fwk.has_score_plugins():
        to_find = 1
    start = sampler.next_start_node_index
    if not fwk.has_filter_plugins():
        return [nodes[(start + i) % num_all] for i in range(to_find)]
    columns = nodes[0].columns
    if columns is not None and sampler.vectorize:
        feasible, failed = _walk_with_masks(fwk, state, pod, nodes, start, to_find, columns)
    else:
        feasible, failed = _walk(fwk, state, pod, nodes, start, to_find)
    for name, status in failed:
        diagnosis.node_to_status[name] = status
        diagnosis.add_plugin_status(status)
    return feasible


Failed = list[tuple[str, Status]]


def _check(status: Status | None) -> bool:
    """True when the node passed; raises on an Error status."""
    if status is None or status.code == Code.SUCCESS:
        return True
    if status.code == Code.ERROR:
        raise SchedulingError(status.message())
    return False


def _visit(
    nodes: Iterable[NodeInfo], check: Callable[[NodeInfo], Status | None], to_find: int
) -> tuple[list[NodeInfo], Failed]:
    """Check nodes in order until ``to_find`` pass, recording every failure on the way."""
    feasible: list[NodeInfo] = []
    failed: Failed = []
    for ni in nodes:
        status = check(ni)
        if _check(status):
            feasible.append(ni)
            if len(feasible) >= to_find:
                break
        else:
            assert status is not None
            failed.append((ni.name, status))
    return feasible, failed


def _walk(
    fwk: Framework, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo], start: int, to_find: int
) -> tuple[list[NodeInfo], Failed]:
    """The reference path: every node in order through every filter plugin."""
    ordered = (nodes[(start + i) % len(nodes)] for i in range(len(nodes)))
    return _visit(ordered, lambda ni: fwk.run_filter_with_nominated_pods(state, pod, ni), to_find)


def _walk_with_masks(
    fwk: Framework,
    state: CycleState,
    pod: Pod,
    nodes: Sequence[NodeInfo],
    start: int,
    to_find: int,
    columns: NodeColumns,
) -> tuple[list[NodeInfo], Failed]:
    """The same walk with filter masks: only nodes a mask rejects (or that need a
    per-node plugin or carry nominated pods) run plugin code, so the visited prefix,
    the feasible nodes and every recorded status equal the reference path's."""
    masks = fwk.filter_masks(state, pod, columns)
    n = len(nodes)
    if n == columns.size:
        positions = columns.positions  # all live nodes, in node-tree order
    else:
        positions = np.array([ni.column_index for ni in nodes], dtype=np.int64)
    order = np.roll(positions, -start) if start else positions
    vector = [m for _, m in masks if m is not None]
    passing = np.logical_and.reduce(vector) if vector else np.ones(columns.size, dtype=np.bool_)
    special = np.zeros(columns.size, dtype=np.bool_)
    special[
        [i for name in fwk.nominated_node_names() if (i := _index_of(columns, name)) is not None]
    ] = True
    clear = passing[order] & ~special[order]
    if len(vector) < len(masks):
        return _walk_mixed(fwk, state, pod, columns, order, special, masks, to_find)
    cum = np.cumsum(clear)
    extra: list[int] = []
    failed: Failed = []
    for p in np.flatnonzero(~clear).tolist():
        if int(cum[p]) + len(extra) >= to_find:
            break
        ni = columns.infos[int(order[p])]
        if special[ni.column_index]:
            status = fwk.run_filter_with_nominated_pods(state, pod, ni)
        else:
            status = fwk.run_filter_known(state, pod, ni, masks)
        if _check(status):
            extra.append(p)
        else:
            assert status is not None
            failed.append((ni.name, status))
    chosen = sorted([*np.flatnonzero(clear)[:to_find].tolist(), *extra])[:to_find]
    infos = columns.infos
    return [infos[i] for i in order[chosen].tolist()], failed


def _walk_mixed(
    fwk: Framework,
    state: CycleState,
    pod: Pod,
    columns: NodeColumns,
    order: IntArray,
    special: BoolArray,
    masks: list[tuple[FilterPlugin, BoolArray | None]],
    to_find: int,
) -> tuple[list[NodeInfo], Failed]:
    """Some plugin has no mask for this pod: visit nodes in order, skipping known passes."""

    def check(ni: NodeInfo) -> Status | None:
        if special[ni.column_index]:
            return fwk.run_filter_with_nominated_pods(state, pod, ni)
        return fwk.run_filter_known(state, pod, ni, masks)

    infos = columns.infos
    return _visit((infos[pos] for pos in order.tolist()), check, to_find)


def _index_of(columns: NodeColumns, name: str) -> int | None:
    info = columns.by_name.get(name)
    return info.column_index if info is not None else None


def _prioritize(fwk: Framework, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> ScoreTable:
    if not fwk.has_score_plugins():
        ones = np.ones(len(nodes), dtype=np.int64)
        return ScoreTable([ni.name for ni in nodes], [], {}, {}, {}, ones)
    status = fwk.run_pre_score(state, pod, nodes)
    if status is not None:
        raise SchedulingError(status.message())
    table, status = fwk.run_score(state, pod, nodes)
    if status is not None or table is None:
        raise SchedulingError(status.message() if status else "scoring failed")
    return table


def _select_host(scores: ScoreTable, rng: random.Random | None) -> str:
    """Highest total wins; ties go to the lowest node name, or at random with a seed."""
    names = scores.names
    tied = [names[i] for i in np.flatnonzero(scores.total == scores.total.max()).tolist()]
    return min(tied) if rng is None else rng.choice(sorted(tied))
