"""The preemption Evaluator (framework/preemption/preemption.go) with semantics.md §5's
deterministic choices: offset 0, sequential dry runs, final tie to the lowest node name.

Victims are returned in the PostFilterResult; the engine deletes them after the
preemptor's own failure has been handled.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import field, replace
from functools import partial
from typing import Any, Protocol

from ..api.pod import Pod
from ..api.policy import PodDisruptionBudget
from ..record import record
from .cycle_state import CycleState
from .extender import ExtenderError, Extenders
from .interface import Handle
from .nodeinfo import NodeInfo
from .status import Code, Status
from .types import (
    Diagnosis,
    FitError,
    PostFilterResult,
    PreemptionCandidate,
    PreemptionRecord,
)

NOT_HELPFUL = "Preemption is not helpful for scheduling"
NO_CANDIDATE = "no candidate node for preemption"
INT32_MAX = 2**31 - 1
INT64_MIN = -(2**63)


@record
class Candidate:
    """A node where preemption could make room, and the victims it takes."""

    name: str
    victims: list[Pod]
    num_pdb_violations: int


class PreemptionInterface(Protocol):
    """What a preemption plugin supplies to the Evaluator."""

    def offset_and_num_candidates(self, num_nodes: int) -> tuple[int, int]: ...

    def pod_eligible_to_preempt_others(
        self, pod: Pod, nominated_status: Status | None
    ) -> tuple[bool, str]: ...

    def select_victims_on_node(
        self, state: CycleState, pod: Pod, node_info: NodeInfo, pdbs: Sequence[PodDisruptionBudget]
    ) -> tuple[list[Pod], int, Status | None]:
        """Victims on ``node_info``; must not change ``state`` or ``node_info`` (it clones)."""
        ...

    def screen_nodes(
        self,
        state: CycleState,
        pod: Pod,
        potential: Sequence[NodeInfo],
        statuses: Mapping[str, Status],
    ) -> Screened | None:
        """Optional shortcut: the potential nodes whose ``select_victims_on_node`` outcome
        is a failure known without a dry run (None: no shortcut)."""
        ...


class Screened(Protocol):
    """``skips[k]``: potential node k fails without a dry run, ``status(k)`` says how."""

    skips: list[bool]

    def status(self, k: int) -> Status: ...


@record
class Evaluator:
    """The preemption Evaluator of one attempt, with its explanation."""

    handle: Handle
    plugin: PreemptionInterface
    state: CycleState
    # Lines of explanation; the many per-node ones are made only when asked for.
    explain: list[str | Callable[[], str | list[str]]] = field(default_factory=list)
    # The same as data (``record``); the per-node entries come from ``_visited`` on demand.
    trace: PreemptionRecord = field(default_factory=PreemptionRecord)
    _visited: list[tuple[str, Candidate | Status | int]] = field(default_factory=list)
    _screened: Screened | None = None

    def record(self) -> PreemptionRecord:
        """What this evaluation tried, with every visited node's candidacy."""
        made = replace(self.trace, candidates=[], not_candidates=[])
        for name, found in self._visited:
            if isinstance(found, Candidate):
                victims = [v.key for v in found.victims]
                made.candidates.append(PreemptionCandidate(name, victims, found.num_pdb_violations))
            else:
                made.not_candidates.append((name, _status_of(found, self._screened).message()))
        return made

    def explain_lines(self) -> list[str]:
        lines: list[str] = []
        for entry in self.explain:
            made = entry if isinstance(entry, str) else entry()
            lines.extend([made] if isinstance(made, str) else made)
        return lines

    def preempt(
        self, pod: Pod, statuses: Mapping[str, Status]
    ) -> tuple[PostFilterResult | None, Status]:
        ok, msg = self.plugin.pod_eligible_to_preempt_others(
            pod, statuses.get(pod.nominated_node_name)
        )
        if not ok:
            self.explain.append(f"not eligible: {msg}")
            self.trace.ineligible = msg
            return None, Status(Code.UNSCHEDULABLE, msg)
        candidates, node_statuses = self._find_candidates(pod, statuses)
        if not candidates:
            fit = FitError(pod, len(node_statuses), Diagnosis(node_to_status=node_statuses))
            return PostFilterResult(nominated_node_name=""), Status(Code.UNSCHEDULABLE, str(fit))
        candidates, error = self._call_extenders(pod, candidates)
        if error is not None:
            return None, error
        if not candidates:
            return None, Status(Code.UNSCHEDULABLE, NO_CANDIDATE)
        best = self._select_candidate(candidates)
        self.explain.append(f"chose {best.name}: victims {_keys(best.victims)}")
        self.trace.chosen = best.name
        self.trace.chosen_victims = [v.key for v in best.victims]
        return PostFilterResult(nominated_node_name=best.name, victims=list(best.victims)), Status(
            Code.SUCCESS
        )

    def _find_candidates(
        self, pod: Pod, statuses: Mapping[str, Status]
    ) -> tuple[list[Candidate], dict[str, Status]]:
        all_nodes = self.handle.snapshot.list()
        potential: list[NodeInfo] = []
        unresolvable: dict[str, Status] = {}
        for ni in all_nodes:
            status = statuses.get(ni.name)
            if status is not None and status.code == Code.UNSCHEDULABLE:
                potential.append(ni)
            elif status is None or status.code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                unresolvable[ni.name] = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, NOT_HELPFUL)
        if not potential:
            self.explain.append("no node where preemption might help")
            self.trace.no_potential_nodes = True
            return [], unresolvable
        pdbs = list(self.handle.cluster.pdbs)
        offset, num_candidates = self.plugin.offset_and_num_candidates(len(potential))
        screened = self.plugin.screen_nodes(self.state, pod, potential, statuses)
        candidates, node_statuses = self._dry_run(
            pod, potential, pdbs, offset, num_candidates, screened
        )
        node_statuses.update(unresolvable)
        return candidates, node_statuses

    def _dry_run(
        self,
        pod: Pod,
        potential: Sequence[NodeInfo],
        pdbs: Sequence[PodDisruptionBudget],
        offset: int,
        num_candidates: int,
        screened: Screened | None = None,
    ) -> tuple[list[Candidate], dict[str, Status]]:
        non_violating: list[Candidate] = []
        violating: list[Candidate] = []
        # Per visited node its candidacy, status, or index in ``screened``: screened
        # statuses are only made if no candidate is found (or for the explanation).
        visited: list[tuple[str, Candidate | Status | int]] = []
        skips = screened.skips if screened is not None else None
        for i in range(len(potential)):
            at = (offset + i) % len(potential)
            info = potential[at]
            if skips is not None and skips[at]:
                visited.append((info.name, at))
                continue
            # The plugin works on copies of the node and the state (or on neither).
            victims, violations, status = self.plugin.select_victims_on_node(
                self.state, pod, info, pdbs
            )
            if (status is None or status.code == Code.SUCCESS) and victims:
                cand = Candidate(info.name, victims, violations)
                (violating if violations else non_violating).append(cand)
                visited.append((info.name, cand))
                if non_violating and len(non_violating) + len(violating) >= num_candidates:
                    break
                continue
            if status is None or status.code == Code.SUCCESS:
                status = Status(
                    Code.ERROR, error=f'expected at least one victim pod on node "{info.name}"'
                )
            visited.append((info.name, status))
        self.explain.append(partial(_visit_lines, visited, screened))
        self._visited, self._screened = visited, screened
        if non_violating or violating:
            return non_violating + violating, {}
        return [], {name: _status_of(found, screened) for name, found in visited}

    def _call_extenders(
        self, pod: Pod, candidates: list[Candidate]
    ) -> tuple[list[Candidate], Status | None]:
        """Extenders with a preempt verb narrow the candidates before one is chosen."""
        extenders: Extenders | None = getattr(self.handle.cluster, "extenders", None)
        if not extenders or not candidates:
            return candidates, None
        from .extender_types import Victims  # only with extenders (start-up)

        victims = {c.name: Victims(list(c.victims), c.num_pdb_violations) for c in candidates}
        infos = {ni.name: ni for ni in self.handle.snapshot.list()}
        try:
            narrowed = extenders.process_preemption(pod, victims, infos)
        except ExtenderError as err:
            return [], Status(Code.ERROR, error=str(err))
        kept = [
            Candidate(c.name, narrowed[c.name].pods, narrowed[c.name].num_pdb_violations)
            for c in candidates
            if c.name in narrowed
        ]
        self.explain.append(f"extenders kept {', '.join(c.name for c in kept) or 'none'}")
        self.trace.extenders_kept = [c.name for c in kept]
        return kept, None

    def _select_candidate(self, candidates: list[Candidate]) -> Candidate:
        if len(candidates) == 1:
            return candidates[0]
        by_name = {c.name: c for c in candidates}
        name, criterion = pick_one_node_for_preemption(by_name)
        self.explain.append(f"decided by {criterion}")
        self.trace.criterion = criterion
        return by_name[name]


def _status_of(found: Candidate | Status | int, screened: Screened | None) -> Status:
    if isinstance(found, Status):
        return found
    assert screened is not None and isinstance(found, int)
    return screened.status(found)


def _keys(victims: Sequence[Pod]) -> str:
    # Plain text for --explain-pod, not a Python list repr.
    return ", ".join(v.key for v in victims) or "none"


def _visit_lines(
    visited: list[tuple[str, Candidate | Status | int]], screened: Screened | None
) -> list[str]:
    return [
        f"candidate {name}: victims {_keys(found.victims)}; "
        f"{found.num_pdb_violations} PDB violation(s)"
        if isinstance(found, Candidate)
        else f"not a candidate {name}: {_status_of(found, screened).message()}"
        for name, found in visited
    ]


def _start_time(pod: Pod) -> float:
    return pod.start_time if pod.start_time is not None else 0.0


def earliest_start_of_highest_priority(victims: Sequence[Pod]) -> float | None:
    if not victims:
        return None
    earliest = _start_time(victims[0])
    top = victims[0].priority
    for pod in victims:
        if pod.priority == top:
            earliest = min(earliest, _start_time(pod))
        elif pod.priority > top:
            top, earliest = pod.priority, _start_time(pod)
    return earliest


_CRITERIA: list[tuple[str, Any]] = [
    ("fewest PDB violations", lambda c: -c.num_pdb_violations),
    ("lowest highest-victim priority", lambda c: -c.victims[0].priority),
    (
        "smallest sum of victim priorities",
        lambda c: -sum(v.priority + INT32_MAX + 1 for v in c.victims),
    ),
    ("fewest victims", lambda c: -len(c.victims)),
    (
        "latest start time of the highest-priority victims",
        lambda c: (
            INT64_MIN
            if (t := earliest_start_of_highest_priority(c.victims)) is None
            else round(t * 1e9)
        ),
    ),
]


def pick_one_node_for_preemption(candidates: Mapping[str, Candidate]) -> tuple[str, str]:
    """pickOneNodeForPreemption's ordered criteria; a remaining tie goes to the lowest name."""
    names = sorted(candidates)
    for criterion, score in _CRITERIA:
        values = {n: score(candidates[n]) for n in names}
        best = max(values.values())
        names = [n for n in names if values[n] == best]
        if len(names) == 1:
            return names[0], criterion
    return names[0], "lowest node name (tie)"
