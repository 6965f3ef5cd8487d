"""One scheduling attempt up to SelectHost (schedule_one.go: schedulePod and helpers)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..api.pod import Pod
from ..framework.cycle_state import CycleState
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
    tied_with: list[str] = field(default_factory=list)


@dataclass
class Sampler:
    """The scheduler-wide node sampling state (nextStartNodeIndex) and settings."""

    percentage_of_nodes_to_score: int = 0
    next_start_node_index: int = 0
    rng: random.Random | None = None

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
    host, tied = _select_host(scores, feasible, sampler.rng)
    return ScheduleResult(host, feasible, evaluated, diagnosis, scores, tied)


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
    feasible: list[NodeInfo] = []
    failed: list[tuple[str, Status]] = []
    for i in range(num_all):
        ni = nodes[(start + i) % num_all]
        status = fwk.run_filter_with_nominated_pods(state, pod, ni)
        if status is None or status.code == Code.SUCCESS:
            feasible.append(ni)
            if len(feasible) >= to_find:
                break
        elif status.code == Code.ERROR:
            raise SchedulingError(status.message())
        else:
            failed.append((ni.name, status))
    for name, status in failed:
        diagnosis.node_to_status[name] = status
        diagnosis.add_plugin_status(status)
    return feasible


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


def _select_host(
    scores: ScoreTable, nodes: list[NodeInfo], rng: random.Random | None
) -> tuple[str, list[str]]:
    """Highest total wins; ties go to the lowest node name, or at random with a seed."""
    best = scores.total.max()
    tied = sorted(scores.names[i] for i in np.flatnonzero(scores.total == best).tolist())
    host = tied[0] if rng is None else rng.choice(tied)
    return host, [n for n in tied if n != host]
