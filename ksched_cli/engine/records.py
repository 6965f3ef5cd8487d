"""What the engine decided: per-pod outcomes and per-attempt detail (plan-output.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SCHEDULED = "Scheduled"
UNSCHEDULABLE = "Unschedulable"
GATED = "Gated"
PREEMPTED = "Preempted"
SKIPPED = "Skipped"
NOMINATED = "Nominated"
WAITING = "Waiting"
REJECTED = "Rejected"


@dataclass
class FilteredNode:
    plugin: str
    reasons: list[str]
    code: str = "Unschedulable"


@dataclass
class PluginScores:
    """One node's scores: raw and normalized per plugin (for --explain-pod), weighted for json."""

    raw: dict[str, int] = field(default_factory=dict)
    normalized: dict[str, int] = field(default_factory=dict)
    weighted: dict[str, int] = field(default_factory=dict)
    total: int = 0


@dataclass
class Attempt:
    pod: str
    time: float
    result: str
    node: str = ""
    message: str = ""
    tied_with: list[str] = field(default_factory=list)
    scores: dict[str, PluginScores] = field(default_factory=dict)
    filtered: dict[str, FilteredNode] = field(default_factory=dict)
    victims: list[str] = field(default_factory=list)
    profile: str = ""
    feasible: int = 0
    evaluated: int = 0
    # Preemption / permit / volume detail for --explain-pod; free-form, JSON-ready.
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def runner_up(self) -> tuple[str, int] | None:
        ranked = sorted(self.scores.items(), key=lambda kv: (-kv[1].total, kv[0]))
        others = [(n, s.total) for n, s in ranked if n != self.node]
        return others[0] if others else None


@dataclass
class Decision:
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


@dataclass
class Plan:
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
