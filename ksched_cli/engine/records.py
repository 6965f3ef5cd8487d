"""What the engine decided: per-pod outcomes and per-attempt detail (plan-output.md)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import field
from typing import Any, overload

from ..framework.columns import IntArray, pick
from ..framework.types import PreemptionCandidate, PreemptionRecord
from ..lazy_numpy import np
from ..record import record

__all__ = ["PreemptionCandidate", "PreemptionRecord"]

SCHEDULED = "Scheduled"
UNSCHEDULABLE = "Unschedulable"
# An attempt failed with an Error status (a plugin's or an extender's error), and a pod
# left pending after one: kube-scheduler's PodScheduled reason SchedulerError.
SCHEDULER_ERROR = "SchedulerError"
GATED = "Gated"
PREEMPTED = "Preempted"
SKIPPED = "Skipped"
NOMINATED = "Nominated"
WAITING = "Waiting"
REJECTED = "Rejected"
# Outcomes of pods this plan's scheduler left pending (Skipped pods are another's).
LEFT_PENDING = (UNSCHEDULABLE, SCHEDULER_ERROR, GATED)


@record
class FilteredNode:
    """Why a node was filtered out: the plugin, its reasons and code."""

    plugin: str
    reasons: list[str]
    code: str = "Unschedulable"


@record
class PluginScores:
    """One node's scores: raw and normalized per plugin (for --explain-pod), weighted for json."""

    raw: dict[str, int] = field(default_factory=dict)
    normalized: dict[str, int] = field(default_factory=dict)
    weighted: dict[str, int] = field(default_factory=dict)
    total: int = 0


class PositionNames(Sequence[str]):
    """The names of the nodes at ``positions`` of the snapshot's columns, looked up one at
    a time: most attempts only ever need the chosen node's name and those it tied with."""

    __slots__ = ("_all", "_list", "_positions")

    def __init__(self, all_names: list[str], positions: list[int]) -> None:
        self._all = all_names
        self._positions = positions
        self._list: list[str] | None = None

    def __len__(self) -> int:
        return len(self._positions)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return self.as_list()[i]
        return self._all[self._positions[i]]

    def __iter__(self) -> Iterator[str]:
        return iter(self.as_list())

    def __contains__(self, name: object) -> bool:
        return name in self.as_list()

    def index(self, name: Any, start: int = 0, stop: int | None = None) -> int:
        names = self.as_list()
        return names.index(name, start, len(names) if stop is None else stop)

    def as_list(self) -> list[str]:
        if self._list is None:
            self._list = pick(self._all, self._positions)
        return self._list


@record
class ScoreTable:
    """Scores of one attempt as arrays over the scored nodes; turned into dicts on demand."""

    names: Sequence[str]
    plugins: list[str]
    raw: dict[str, IntArray]
    normalized: dict[str, IntArray]
    weighted: dict[str, IntArray]
    total: IntArray
    # Where the chosen node is in ``names`` (SelectHost sets it; -1: not known).
    chosen: int = -1
    # Where the runner-up is, when SelectHost's ranking already knows it (-1: not known).
    runner: int = -1
    # Each scored node's place in name order, when the nodes are the live snapshot's.
    name_rank: IntArray | None = None

    def by_name(self, indices: IntArray) -> IntArray:
        """``indices`` in the order of their nodes' names."""
        if self.name_rank is not None:
            return indices[np.argsort(self.name_rank[indices], kind="stable")]
        names = self.names
        return np.array(sorted(indices.tolist(), key=names.__getitem__), dtype=np.int64)

    def lowest_named(self, indices: IntArray) -> int:
        """The index in ``indices`` whose node name sorts first."""
        if self.name_rank is not None:
            return int(indices[int(np.argmin(self.name_rank[indices]))])
        return int(min(indices.tolist(), key=self.names.__getitem__))

    def materialize(self) -> dict[str, PluginScores]:
        """Per node dicts; raw and normalized stay empty when they were not recorded."""
        raw = {p: a.tolist() for p, a in self.raw.items()}
        norm = {p: a.tolist() for p, a in self.normalized.items()}
        weighted = {p: a.tolist() for p, a in self.weighted.items()}
        totals = self.total.tolist()
        return {
            name: PluginScores(
                {p: v[i] for p, v in raw.items()},
                {p: v[i] for p, v in norm.items()},
                {p: v[i] for p, v in weighted.items()},
                totals[i],
            )
            for i, name in enumerate(self.names)
        }

    def _index(self, node: str) -> int | None:
        at = self.chosen
        if 0 <= at < len(self.names) and self.names[at] == node:
            return at
        try:
            return self.names.index(node)
        except ValueError:
            return None

    def total_of(self, node: str) -> int | None:
        at = self._index(node)
        return None if at is None else int(self.total[at])

    def runner_up(self, node: str) -> tuple[str, int] | None:
        """The best-scored other node (lowest name among equals)."""
        names, total = self.names, self.total
        at = self._index(node)
        if at is not None and at == self.chosen and self.runner >= 0:
            return names[self.runner], int(total[self.runner])
        if at is None:
            if not len(names):
                return None
            others = total
        else:
            if len(names) < 2:
                return None
            others = total.copy()
            others[at] = np.iinfo(np.int64).min  # below every real total: never the best
        best = others.max()
        tied = np.flatnonzero(others == best)
        if at is not None:
            tied = tied[tied != at]  # only when every other total is int64's minimum too
        return names[self.lowest_named(tied)], int(best)


ALLOWED = "allowed"  # PermitWait.outcome
PERMIT_REJECTED = "rejected"
PERMIT_PREEMPTED = "preempted"  # v1.36: a preemption victim, sent to backoffQ


@record
class PermitWait:
    """One plugin's Permit wait of a Waiting attempt: when it began and would time out
    (simulated seconds), and once the wait ends, when and how: ``allowed`` (the pod
    bound to ``node``), ``rejected`` (``by`` a plugin or the framework, ``message``) or,
    from v1.36, ``preempted`` (by DefaultPreemption)."""

    plugin: str
    start: float
    timeout: float
    end: float | None = None
    outcome: str = ""
    node: str = ""
    by: str = ""
    message: str = ""


@record
class Attempt:
    """One scheduling attempt of a pod, as recorded."""

    pod: str
    time: float
    result: str
    node: str = ""
    message: str = ""
    score_table: ScoreTable | None = None
    filtered: dict[str, FilteredNode] = field(default_factory=dict)
    victims: list[str] = field(default_factory=list)
    profile: str = ""
    feasible: int = 0
    evaluated: int = 0
    # Preemption / permit / volume detail for --explain-pod; free-form, JSON-ready.
    detail: dict[str, Any] = field(default_factory=dict)
    # The same preemption and Permit detail as data, for reports (not in the JSON plan).
    preemption: PreemptionRecord | None = None
    permit: list[PermitWait] = field(default_factory=list)
    # With record="summary" only the chosen node's total and the runner-up are kept.
    summary: tuple[int, tuple[str, int] | None] | None = None
    _scores: dict[str, PluginScores] | None = field(default=None, repr=False)

    @property
    def scores(self) -> dict[str, PluginScores]:
        """Per scored node, each plugin's raw, normalized and weighted score (lazily built)."""
        if self._scores is None:
            self._scores = self.score_table.materialize() if self.score_table is not None else {}
        return self._scores

    @scores.setter
    def scores(self, value: dict[str, PluginScores]) -> None:
        self._scores = value

    def scores_once(self) -> dict[str, PluginScores]:
        """``scores`` without keeping them: for writers that visit each attempt once."""
        if self._scores is not None:
            return self._scores
        return self.score_table.materialize() if self.score_table is not None else {}

    @property
    def tied_with(self) -> list[str]:
        """The other scored nodes that shared the chosen node's total, sorted."""
        table = self.score_table
        if table is None or not self.node or self.node not in table.names:
            return []
        best = table.total[table.names.index(self.node)]
        names = table.names
        return sorted(
            names[i] for i in np.flatnonzero(table.total == best).tolist() if names[i] != self.node
        )

    @property
    def node_total(self) -> int | None:
        """The chosen node's total score, when the attempt scored nodes."""
        if self.summary is not None:
            return self.summary[0]
        if self.score_table is not None and self.node:
            return self.score_table.total_of(self.node)
        return None

    @property
    def runner_up(self) -> tuple[str, int] | None:
        if self.summary is not None:
            return self.summary[1]
        if self.score_table is not None:
            return self.score_table.runner_up(self.node)
        ranked = sorted(self.scores.items(), key=lambda kv: (-kv[1].total, kv[0]))
        others = [(n, s.total) for n, s in ranked if n != self.node]
        return others[0] if others else None


@record
class Decision:
    """A pod's final outcome."""

    pod: str
    outcome: str
    node: str = ""
    message: str = ""
    preempted_by: str = ""
    priority: int = 0
    time: float = 0.0
    score: int | None = None
    # Human explanation where kube-scheduler itself reports nothing (e.g. Skipped).
    note: str = ""
    # The workload owning the pod ("deployment/web"), "" for a bare pod (api/owners.py).
    owner: str = ""


@record
class Plan:
    """A plan's decisions, attempts and notes."""

    decisions: list[Decision] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    profiles: list[str] = field(default_factory=list)
    node_count: int = 0
    warnings: list[str] = field(default_factory=list)
    # How ksched filled in what the input left out (e.g. PDB statuses), for --explain.
    notes: list[str] = field(default_factory=list)
    end_time: float = 0.0

    def summary(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for d in self.decisions:
            counts[d.outcome] = counts.get(d.outcome, 0) + 1
        return dict(sorted(counts.items()))

    def decision_for(self, pod: str) -> Decision | None:
        return next((d for d in self.decisions if d.pod == pod), None)
