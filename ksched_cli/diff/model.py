"""What ``ksched diff`` found: config changes, per-pod placement changes, counts.

The JSON/YAML form of these types is documented in docs/diff-output.md.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..engine import records as rec
from ..record import record
from ..whatif.model import WhatIfReport

# A pod that was already bound in the input and that nothing touched.
RUNNING = "Running"
# Outcomes that leave a pending pod without a node (plan's exit code 2).
NOT_PLACED = frozenset({rec.UNSCHEDULABLE, rec.SCHEDULER_ERROR, rec.GATED, rec.SKIPPED})
# What `--fail-on unschedulable` fails on.
REGRESSED = NOT_PLACED | {rec.PREEMPTED}

# Change kinds, in the order they are listed for a pod.
ADDED = "added"
REMOVED = "removed"
OUTCOME = "outcome"
MOVED = "moved"
VICTIMS = "victims"

FAIL_ON_ANY = "any"
FAIL_ON_UNSCHEDULABLE = "unschedulable"


class Absent:
    """A config field set on one side only (``None`` can be a real value)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = Absent()


@record(frozen=True)
class SettingChange:
    """A scalar (or whole list) that differs: ``field`` is a dotted path."""

    field: str
    base: Any = ABSENT
    head: Any = ABSENT


@record(frozen=True)
class PluginChange:
    """``change`` is enabled, disabled, weight (score only) or reordered (``plugin`` empty).

    base/head: the score weight for enabled/disabled/weight at ``score``, the plugin
    order for reordered, ABSENT otherwise.
    """

    point: str
    plugin: str
    change: str
    base: Any = ABSENT
    head: Any = ABSENT


@record(frozen=True)
class ArgsChange:
    plugin: str
    field: str
    base: Any = ABSENT
    head: Any = ABSENT


@record
class ProfileDiff:
    scheduler_name: str
    status: str  # modified, added, removed
    settings: list[SettingChange] = field(default_factory=list)
    plugins: list[PluginChange] = field(default_factory=list)
    args: list[ArgsChange] = field(default_factory=list)


@record
class ConfigDiff:
    settings: list[SettingChange] = field(default_factory=list)
    profiles: list[ProfileDiff] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.settings and not self.profiles


@record(frozen=True)
class PodState:
    """A pod's final state on one side of the diff."""

    outcome: str  # Scheduled, Unschedulable, Gated, Skipped, Preempted or Running
    node: str = ""
    message: str = ""
    preempted_by: str = ""
    victims: tuple[str, ...] = ()


@record(frozen=True)
class SideScores:
    """The two contested nodes in one side's placing attempt for a moved pod."""

    # Weighted score per plugin plus "total", for whichever of the two nodes were scored.
    scores: dict[str, dict[str, int]]
    # total(head's node) - total(base's node); None unless both nodes were scored.
    margin: int | None
    note: str = ""  # why a node has no score on this side


@record(frozen=True)
class PluginShift:
    """How far one plugin moved the contest towards head's node.

    base/head: weighted(head's node) - weighted(base's node) on that side.
    """

    plugin: str
    base: int
    head: int

    @property
    def shift(self) -> int:
        return self.head - self.base


@record(frozen=True)
class Margin:
    base_node: str
    head_node: str
    base: SideScores
    head: SideScores
    # Every plugin with a non-zero shift, largest shift towards head's node first.
    drivers: tuple[PluginShift, ...] = ()


@record(frozen=True)
class PodChange:
    pod: str
    kinds: tuple[str, ...]
    base: PodState | None  # None: the pod is not in base's manifests
    head: PodState | None
    margin: Margin | None = None
    owner: str = ""  # the owning workload ("deployment/web"), "" for a bare pod

    @property
    def regression(self) -> bool:
        """Head leaves the pod unplaced or preempted where base did not."""
        if self.head is None or self.head.outcome not in REGRESSED:
            return False
        return self.base is None or self.base.outcome != self.head.outcome


@record
class Side:
    config: str
    manifests: list[str]
    outcomes: dict[str, int]  # the plan's summary, outcome -> count
    nodes: int = 0


@record
class DiffResult:
    base: Side
    head: Side
    config: ConfigDiff
    changes: list[PodChange]
    pods: int  # pods compared: the union of both sides
    warnings: list[str] = field(default_factory=list)
    # What the head side's what-if operations did (``--drain`` etc. on ``ksched diff``).
    whatif: WhatIfReport | None = None

    def summary(self) -> dict[str, int]:
        def count(kind: str) -> int:
            return sum(1 for c in self.changes if kind in c.kinds)

        def both(test: Any) -> int:
            return sum(
                1
                for c in self.changes
                if c.base is not None and c.head is not None and test(c.base, c.head)
            )

        return {
            "pods": self.pods,
            "changed": len(self.changes),
            "unchanged": self.pods - len(self.changes),
            "moved": count(MOVED),
            "becameUnschedulable": both(
                lambda b, h: h.outcome in NOT_PLACED and b.outcome not in NOT_PLACED
            ),
            "becameScheduled": both(
                lambda b, h: b.outcome in NOT_PLACED and h.outcome == rec.SCHEDULED
            ),
            "newlyPreempted": both(
                lambda b, h: h.outcome == rec.PREEMPTED and b.outcome != rec.PREEMPTED
            ),
            "noLongerPreempted": both(
                lambda b, h: b.outcome == rec.PREEMPTED and h.outcome != rec.PREEMPTED
            ),
            "victimsChanged": count(VICTIMS),
            "added": count(ADDED),
            "removed": count(REMOVED),
            "regressions": sum(1 for c in self.changes if c.regression),
        }

    def fails(self, fail_on: str) -> bool:
        """Whether the CI exit code should say "placements changed"."""
        if fail_on == FAIL_ON_UNSCHEDULABLE:
            return any(c.regression for c in self.changes)
        return bool(self.changes)
