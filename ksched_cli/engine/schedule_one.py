"""One scheduling attempt up to SelectHost (schedule_one.go: schedulePod and helpers)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import field
from functools import cache
from typing import TYPE_CHECKING, Any

from ..api.pod import Pod
from ..extender.scheduling import EXTENDER_NAME, Extenders
from ..extender.transport import ExtenderError
from ..framework.columns import IntArray
from ..framework.cycle_state import CycleState
from ..framework.nodeinfo import NodeInfo
from ..framework.status import Code, Status
from ..framework.types import Diagnosis, FitError
from ..lazy_numpy import np
from ..record import record
from .masks import walk_with_masks
from .records import ScoreTable
from .runtime import Framework
from .scoring import score_table
from .snapshot import Snapshot
from .walk import Failed, SchedulingError, visit

if TYPE_CHECKING:  # batching and the SelectHost heap are v1.35's: imported when on
    import random

    from .batching import OpportunisticBatch
    from .tie_break import NodeScoreHeap

MIN_FEASIBLE_NODES_TO_FIND = 100
MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5


@record
class ScheduleResult:
    """schedulePod's result: the host, the feasible nodes, the diagnosis."""

    host: str
    feasible: list[NodeInfo]
    evaluated: int
    diagnosis: Diagnosis
    scores: ScoreTable | None = None


@record
class Sampler:
    """The scheduler-wide node sampling state (nextStartNodeIndex) and settings."""

    percentage_of_nodes_to_score: int = 0
    next_start_node_index: int = 0
    rng: random.Random | None = None
    # Use filter masks and score arrays where plugins offer them (same results).
    vectorize: bool = True
    # sched.Extenders: called after the Filter plugins, with the Score plugins, in bind.
    extenders: Extenders = field(default_factory=Extenders)
    # Whether an attempt that finds feasible nodes keeps the statuses of the nodes it
    # rejected (--explain records them); the engine clears it for summary records.
    record_rejected: bool = True
    # v1.35+: SelectHost pops a heap of scored nodes (engine/tie_break.py), and profiles
    # may batch pods of one signature (engine/batching.py; None: batching off).
    tie_heap: bool = False
    batches: dict[str, OpportunisticBatch] | None = None

    def batch_for(self, fwk: Framework) -> OpportunisticBatch | None:
        if self.batches is None:
            return None
        batch = self.batches.get(fwk.scheduler_name)
        if batch is None:
            from .batching import OpportunisticBatch, signable_plugins

            batch = OpportunisticBatch(signable_plugins(fwk, bool(self.extenders)))
            self.batches[fwk.scheduler_name] = batch
        return batch

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


@record
class _Batching:
    """This attempt's batch, the node it hinted and the pod's signature."""

    batch: OpportunisticBatch | None = None
    hint: str = ""
    signature: tuple[object, ...] | None = None


def schedule_pod(
    fwk: Framework,
    sampler: Sampler,
    snapshot: Snapshot,
    state: CycleState,
    pod: Pod,
    cycle: int = 0,
    now: float = 0.0,
) -> ScheduleResult:
    """Find the feasible nodes, score them and pick one; raises FitError when none fits."""
    if len(snapshot) == 0:
        raise SchedulingError("no nodes available to schedule pods", rejected=True)
    batching = _Batching(sampler.batch_for(fwk))
    feasible, diagnosis = _find_nodes_that_fit(
        fwk, sampler, snapshot, state, pod, (batching, cycle, now)
    )
    if not feasible:
        raise FitError(pod, len(snapshot), diagnosis)
    evaluated = len(feasible) + len(diagnosis.node_to_status) + diagnosis.unrecorded
    batch = batching.batch
    if len(feasible) == 1:
        if batch is not None:
            batch.store(batching.signature, batching.hint, feasible[0].name, None, cycle, now)
        return ScheduleResult(feasible[0].name, feasible, evaluated, diagnosis)
    scores = _prioritize(fwk, state, pod, feasible, sampler.extenders)
    if not sampler.tie_heap:
        host = _select_host(scores, sampler.rng)
        return ScheduleResult(host, feasible, evaluated, diagnosis, scores)
    scored_by_extenders = any(e.config.prioritize_verb for e in sampler.extenders.items)
    heap = _build_heap()(
        scores.names, scores.total, sampler.rng, scored_by_extenders, scores.name_rank
    )
    host, scores.chosen = heap.pop_with_index()
    scores.runner = heap.next_index()
    if batch is not None:
        batch.store(batching.signature, batching.hint, host, heap, cycle, now)
    return ScheduleResult(host, feasible, evaluated, diagnosis, scores)


# v1.35's modules, imported with their first use; cached, as an import statement run per
# pod costs more than the call it serves.
@cache
def _build_heap() -> Callable[..., NodeScoreHeap]:
    from .tie_break import build_heap

    return build_heap


@cache
def _last_node_rejects() -> Callable[..., Callable[[str], Any]]:
    from .batching import last_node_rejects

    return last_node_rejects


def _find_nodes_that_fit(
    fwk: Framework,
    sampler: Sampler,
    snapshot: Snapshot,
    state: CycleState,
    pod: Pod,
    batching: tuple[_Batching, int, float] | None = None,
) -> tuple[list[NodeInfo], Diagnosis]:
    diagnosis = Diagnosis()
    all_nodes = snapshot.list()
    pre_result, status = fwk.run_pre_filter(state, pod)
    absent_nodes = fwk.features.absent_nodes_status
    if fwk.features.pre_filter_result_rejectors and pre_result is not None:
        # v1.31+: the plugins that narrowed the node set count as rejectors.
        diagnosis.unschedulable_plugins.update(pre_result.plugins)
    if status is not None and status.code != Code.SUCCESS:
        if not status.is_rejected():
            raise SchedulingError(status.message())
        for ni in all_nodes:
            diagnosis.node_to_status[ni.name] = status
        diagnosis.pre_filter_msg = status.message()
        diagnosis.add_plugin_status(status)
        return [], diagnosis
    hint = _node_hint(fwk, snapshot, state, pod, batching) if batching is not None else ""
    target = pod.nominated_node_name or hint
    if target:
        nominated = snapshot.get(target)
        if nominated is not None:
            feasible = _find_nodes_that_pass_filters(
                fwk, sampler, state, pod, diagnosis, [nominated]
            )
            feasible = _pass_extenders(sampler.extenders, pod, feasible, diagnosis)
            if feasible:
                return feasible, diagnosis
    nodes: Sequence[NodeInfo] = all_nodes
    if pre_result is not None and pre_result.node_names is not None:
        nodes = _allowed_nodes(snapshot, pre_result.node_names)
        if absent_nodes:
            names = sorted(pre_result.plugins)
            reason = f"node(s) didn't satisfy plugin(s) [{' '.join(names)}]"
            diagnosis.absent_status = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reason)
    feasible = _find_nodes_that_pass_filters(fwk, sampler, state, pod, diagnosis, nodes)
    processed = len(feasible) + len(diagnosis.node_to_status) + diagnosis.unrecorded
    sampler.next_start_node_index = (sampler.next_start_node_index + processed) % len(all_nodes)
    passed = _pass_extenders(sampler.extenders, pod, feasible, diagnosis)
    if len(passed) != len(feasible):
        diagnosis.unschedulable_plugins.add(EXTENDER_NAME)
    return passed, diagnosis


def _allowed_nodes(snapshot: Snapshot, allowed: AbstractSet[str]) -> list[NodeInfo]:
    """The nodes PreFilter narrowed the pod to, in node-tree order. Looked up by name when
    they are few (a DaemonSet pod's one node) rather than scanning every node per pod."""
    all_nodes = snapshot.list()
    if len(allowed) * 4 < len(all_nodes):
        found = [ni for ni in map(snapshot.get, allowed) if ni is not None]
        if all(ni.column_index >= 0 for ni in found):  # live: positions are tree order
            return sorted(found, key=lambda ni: ni.column_index)
    return [ni for ni in all_nodes if ni.name in allowed]


def _node_hint(
    fwk: Framework,
    snapshot: Snapshot,
    state: CycleState,
    pod: Pod,
    batching: tuple[_Batching, int, float],
) -> str:
    """GetNodeHint (v1.35+), asked even when the pod has a nominated node."""
    found, cycle, now = batching
    if found.batch is None:
        return ""
    rejects = _last_node_rejects()(fwk.run_filter, snapshot.get, state, pod)
    found.hint, found.signature = found.batch.node_hint(pod, cycle, now, rejects)
    return found.hint


def _pass_extenders(
    extenders: Extenders, pod: Pod, feasible: list[NodeInfo], diagnosis: Diagnosis
) -> list[NodeInfo]:
    if not extenders:
        return feasible
    try:
        return extenders.filter(pod, feasible, diagnosis.node_to_status)
    except ExtenderError as err:
        raise SchedulingError(str(err)) from err


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
    if not fwk.has_score_plugins() and not sampler.extenders.filter_or_score():
        to_find = 1
    start = sampler.next_start_node_index
    if not fwk.has_filter_plugins():
        return [nodes[(start + i) % num_all] for i in range(to_find)]
    columns = nodes[0].columns
    if columns is not None and sampler.vectorize:
        # Extenders read the statuses (and may reject every feasible node): keep them.
        count_only = not sampler.record_rejected and not sampler.extenders
        feasible, failed, unrecorded = walk_with_masks(
            fwk, state, pod, nodes, start, to_find, columns, count_only
        )
        diagnosis.unrecorded += unrecorded
    else:
        feasible, failed = _walk(fwk, state, pod, nodes, start, to_find)
    diagnosis.node_to_status.update(failed)
    # Nodes often share a status object, and the sets only need each pair once.
    seen: set[tuple[str, Code]] = set()
    for status in {id(status): status for _, status in failed}.values():
        if (status.plugin, status.code) not in seen:
            seen.add((status.plugin, status.code))
            diagnosis.add_plugin_status(status)
    return feasible


def _walk(
    fwk: Framework, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo], start: int, to_find: int
) -> tuple[list[NodeInfo], Failed]:
    """The reference path: every node in order through every filter plugin."""
    ordered = (nodes[(start + i) % len(nodes)] for i in range(len(nodes)))
    return visit(ordered, lambda ni: fwk.run_filter_with_nominated_pods(state, pod, ni), to_find)


def _prioritize(
    fwk: Framework, state: CycleState, pod: Pod, nodes: list[NodeInfo], extenders: Extenders
) -> ScoreTable:
    if not fwk.has_score_plugins() and not extenders:
        ones = np.ones(len(nodes), dtype=np.int64)
        return score_table(nodes, [], ones)
    status = fwk.run_pre_score(state, pod, nodes)
    if status is not None:
        raise SchedulingError(status.message())
    table, status = fwk.run_score(state, pod, nodes)
    if status is not None or table is None:
        raise SchedulingError(status.message() if status else "scoring failed")
    if extenders:
        _add_extender_scores(table, extenders.scores(pod, nodes))
    return table


def _add_extender_scores(table: ScoreTable, columns: dict[str, tuple[IntArray, IntArray]]) -> None:
    """One column per extender, so --explain shows what each added to the totals."""
    for name, (raw, weighted) in columns.items():
        table.plugins.append(name)
        table.raw[name] = raw
        table.normalized[name] = raw
        table.weighted[name] = weighted
        table.total = table.total + weighted


def _select_host(scores: ScoreTable, rng: random.Random | None) -> str:
    """Highest total wins; ties go to the lowest node name, or at random with a seed."""
    tied = np.flatnonzero(scores.total == scores.total.max())
    if rng is None:
        at = scores.lowest_named(tied)
    else:  # a draw from the tied nodes in name order
        at = int(rng.choice(scores.by_name(tied).tolist()))
    scores.chosen = at
    return scores.names[at]
