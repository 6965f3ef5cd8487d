"""Small framework value types (framework/interface.go, types.go)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import field
from itertools import chain
from typing import Any

from ..api.pod import Pod
from ..record import record
from .status import Status

MAX_NODE_SCORE = 100
MIN_NODE_SCORE = 0
MAX_TOTAL_SCORE = 2**63 - 1


@record(slots=True)
class PreFilterResult:
    """A set of node names the pod may go to; ``None`` node_names means all nodes."""

    node_names: frozenset[str] | None = None
    # The PreFilter plugins that narrowed the set (set by the framework on the merged
    # result; v1.32+ names them for the nodes left out and counts them as rejectors).
    plugins: tuple[str, ...] = ()

    def all_nodes(self) -> bool:
        return self.node_names is None

    def merge(self, other: PreFilterResult | None) -> PreFilterResult | None:
        mine = self.node_names
        theirs = None if other is None else other.node_names
        if mine is None and theirs is None:
            return None
        if mine is None:
            return PreFilterResult(theirs)
        if theirs is None:
            return PreFilterResult(mine)
        return PreFilterResult(mine & theirs)


@record(slots=True)
class PreemptionCandidate:
    """A node where the dry run found victims: their keys (in eviction order) and how
    many PodDisruptionBudgets evicting them would violate."""

    node: str
    victims: list[str]
    pdb_violations: int


@record
class PreemptionRecord:
    """What preemption tried, as data for reports (the explanation lines say the same).

    ``candidates`` and ``not_candidates`` are in the dry run's visiting order;
    ``not_candidates`` pairs a node with the status that ruled it out. ``ineligible`` is
    why the pod may not preempt at all; ``no_potential_nodes`` that no node was worth a
    dry run; ``extenders_kept`` the candidates extenders left (None: none asked);
    ``criterion`` which pickOneNodeForPreemption rule decided among several.
    """

    candidates: list[PreemptionCandidate] = field(default_factory=list)
    not_candidates: list[tuple[str, str]] = field(default_factory=list)
    chosen: str = ""
    chosen_victims: list[str] = field(default_factory=list)
    criterion: str = ""
    ineligible: str = ""
    no_potential_nodes: bool = False
    extenders_kept: list[str] | None = None


@record(slots=True)
class PostFilterResult:
    """``nominated_node_name`` None is kube-scheduler's ModeNoop; "" clears a nomination."""

    nominated_node_name: str | None = None
    # ksched detail for the plan: victims chosen by preemption, and an explanation
    # (made only when the plan keeps it: dry runs can explain thousands of nodes).
    victims: list[Pod] = field(default_factory=list)
    detail: Callable[[], dict[str, Any]] | None = None
    # The same as data, made only when the plan keeps it.
    record: Callable[[], PreemptionRecord] | None = None


@record(slots=True)
class NodeScore:
    """framework.NodeScore: a node's score from one plugin."""

    name: str
    score: int


@record
class Diagnosis:
    """framework.Diagnosis: why the filters left no feasible node."""

    node_to_status: dict[str, Status] = field(default_factory=dict)
    # v1.32+ NodeToStatus: the status of every node not in node_to_status (None: v1.30,
    # where such nodes are left out of the message).
    absent_status: Status | None = None
    unschedulable_plugins: set[str] = field(default_factory=set)
    pending_plugins: set[str] = field(default_factory=set)
    pre_filter_msg: str = ""
    post_filter_msg: str = ""
    # Rejected nodes of a successful filter pass whose statuses were not made, because
    # the output reads none of them (summary records): they count as evaluated only.
    unrecorded: int = 0

    def add_plugin_status(self, status: Status) -> None:
        if not status.plugin:
            return
        if status.is_rejected():
            self.unschedulable_plugins.add(status.plugin)
        if status.code.name == "PENDING":
            self.pending_plugins.add(status.plugin)


NO_NODE_AVAILABLE = "0/{} nodes are available"


@record
class FitError(Exception):
    """framework.FitError: no node fits the pod."""

    pod: Pod
    num_all_nodes: int
    diagnosis: Diagnosis

    def __str__(self) -> str:
        msg = NO_NODE_AVAILABLE.format(self.num_all_nodes) + ":"
        diag = self.diagnosis
        if diag.pre_filter_msg:
            msg += f" {diag.pre_filter_msg}."
        else:
            statuses = diag.node_to_status.values()
            histogram = Counter(chain.from_iterable(s.reasons for s in statuses))
            histogram.update(s.error for s in statuses if s.error is not None)
            absent = self.num_all_nodes - len(diag.node_to_status)
            if diag.absent_status is not None and absent > 0:
                for reason in diag.absent_status.reasons:
                    histogram[reason] += absent
            parts = sorted(f"{count} {reason}" for reason, count in histogram.items())
            if parts:
                msg += " " + ", ".join(parts) + "."
        if diag.post_filter_msg:
            msg += f" {diag.post_filter_msg}"
        return msg


@record(eq=False)
class QueuedPodInfo:
    """A pod in the scheduling queue, with the bookkeeping QueueSort and backoff use."""

    pod: Pod
    timestamp: float = 0.0
    attempts: int = 0
    initial_attempt_timestamp: float | None = None
    unschedulable_plugins: set[str] = field(default_factory=set)
    pending_plugins: set[str] = field(default_factory=set)
    gated: bool = False
    # v1.34+ backoff counts failures by kind instead of attempts.
    unschedulable_count: int = 0
    consecutive_errors: int = 0


PODS_TO_ACTIVATE_KEY = "kubernetes.io/pods-to-activate"


class PodsToActivate:
    """Pods a plugin asks to move to activeQ at the end of the cycle (uid -> pod).

    Stored in the CycleState under PODS_TO_ACTIVATE_KEY; shared, not copied, by clones.
    """

    def __init__(self) -> None:
        self.pods: dict[str, Pod] = {}

    def clone(self) -> PodsToActivate:
        return self
