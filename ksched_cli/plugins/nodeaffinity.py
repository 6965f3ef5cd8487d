"""NodeAffinity: nodeSelector, required and preferred node affinity, and the
scheduler-enforced ``addedAffinity`` (nodeaffinity/node_affinity.go, v1.30)."""

from __future__ import annotations

from collections.abc import Sequence

from ..api.pod import Pod
from ..config.args import NodeAffinityArgs
from ..framework.columns import BoolArray, IntArray, NodeColumns
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import NodeInfo
from ..framework.status import SKIP, Code, Status
from ..framework.types import MAX_NODE_SCORE, NodeScore, PreFilterResult
from ..lazy_numpy import np
from .helpers.nodeaffinity import (
    CompiledNodeSelector,
    CompiledPreferredTerms,
    CompiledTerm,
    RequiredNodeAffinity,
    aggregate_errors,
)
from .helpers.normalize import default_normalize_score

NAME = "NodeAffinity"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME
PRE_SCORE_STATE_KEY = "PreScore" + NAME
OBJECT_NAME_FIELD = "metadata.name"

ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector"
ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity"
ERR_REASON_CONFLICT = "pod affinity terms conflict"


class PreFilterState:
    __slots__ = ("required",)

    def __init__(self, required: RequiredNodeAffinity) -> None:
        self.required = required

    def clone(self) -> PreFilterState:
        return self  # independent of the pods on nodes


class PreScoreState:
    __slots__ = ("preferred",)

    def __init__(self, preferred: CompiledPreferredTerms | None) -> None:
        self.preferred = preferred

    def clone(self) -> PreScoreState:
        return self


def pod_preferred_terms(pod: Pod) -> CompiledPreferredTerms | None:
    """The pod's preferred terms; None when the field is absent (an empty list is not)."""
    aff = pod.node_affinity
    if aff is None or not (pod.node_affinity_preferred_set or aff.preferred):
        return None
    return CompiledPreferredTerms(aff.preferred)


def node_names_from_match_fields(pod: Pod) -> tuple[frozenset[str] | None, bool]:
    """The node names the required terms pin the pod to via ``metadata.name In``.

    Returns (names, conflict): names is None when some term leaves every node
    eligible; conflict is True when every term pins but their union is empty.
    """
    aff = pod.node_affinity
    if aff is None or aff.required is None or not aff.required.terms:
        return None, False
    names: set[str] = set()
    for term in aff.required.terms:
        term_names: set[str] | None = None
        for req in term.match_fields:
            if req.key == OBJECT_NAME_FIELD and req.operator == "In":
                # Requirements of a term are ANDed: intersect.
                values = set(req.values)
                term_names = values if term_names is None else term_names & values
        if term_names is None:
            return None, False  # terms are ORed and this one allows every node
        names |= term_names
    return frozenset(names), not names


class Plugin:
    name = NAME

    def __init__(self, args: NodeAffinityArgs | None, handle: Handle | None = None) -> None:
        self.handle = handle
        self.added_selector: CompiledNodeSelector | None = None
        self.added_preferred: CompiledPreferredTerms | None = None
        added = args.added_affinity if args is not None else None
        if added is None:
            return
        if added.required is not None:
            self.added_selector = CompiledNodeSelector(added.required)
            if self.added_selector.errors:
                raise ValueError(
                    "parsing addedAffinity.requiredDuringSchedulingIgnoredDuringExecution: "
                    + aggregate_errors(self.added_selector.errors)
                )
        if added.preferred:
            self.added_preferred = CompiledPreferredTerms(added.preferred)
            if self.added_preferred.errors:
                raise ValueError(
                    "parsing addedAffinity.preferredDuringSchedulingIgnoredDuringExecution: "
                    + aggregate_errors(self.added_preferred.errors)
                )

    # PreFilter / Filter

    def pre_filter(
        self, state: CycleState, pod: Pod
    ) -> tuple[PreFilterResult | None, Status | None]:
        aff = pod.node_affinity
        no_required = aff is None or aff.required is None
        if no_required and self.added_selector is None and not pod.node_selector:
            return None, SKIP
        state.write(PRE_FILTER_STATE_KEY, PreFilterState(RequiredNodeAffinity(pod)))
        names, conflict = node_names_from_match_fields(pod)
        if conflict:
            return None, Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_CONFLICT)
        if names is None:
            return None, None
        return PreFilterResult(names), None

    def pre_filter_extensions(self) -> None:
        return None

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        node = node_info.node
        if self.added_selector is not None and not self.added_selector.matches(node):
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_ENFORCED)
        s = state.get(PRE_FILTER_STATE_KEY)
        # Without PreFilter state (PreFilter disabled), compute it here as kube-scheduler does.
        required = s.required if isinstance(s, PreFilterState) else RequiredNodeAffinity(pod)
        if required.matches(node):
            return None
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_POD)

    # PreScore / Score

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        if not nodes:
            return None
        preferred = pod_preferred_terms(pod)
        if preferred is not None and preferred.errors:
            return Status(Code.ERROR, error=aggregate_errors(preferred.errors))
        if preferred is None and self.added_preferred is None:
            return SKIP
        state.write(PRE_SCORE_STATE_KEY, PreScoreState(preferred))
        return None

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status | None]:
        node = node_info.node
        count = 0
        if self.added_preferred is not None:
            count += self.added_preferred.score(node)
        s = state.get(PRE_SCORE_STATE_KEY)
        if isinstance(s, PreScoreState):
            preferred = s.preferred
        else:
            preferred = pod_preferred_terms(pod)
            if preferred is not None and preferred.errors:
                return 0, Status(Code.ERROR, error=aggregate_errors(preferred.errors))
        if preferred is not None:
            count += preferred.score(node)
        return count, None

    def score_array(
        self, state: CycleState, pod: Pod, columns: NodeColumns, index: IntArray
    ) -> IntArray | None:
        """The weights of the terms each node matches, summed: a term's matches depend on
        node labels only, which do not change in a plan, so each term's mask is computed
        once whichever pod asks. None without PreScore's state."""
        s = state.get(PRE_SCORE_STATE_KEY)
        if not isinstance(s, PreScoreState):
            return None
        scores = np.zeros(len(index), dtype=np.int64)
        for compiled in (self.added_preferred, s.preferred):
            for term, weight in compiled.terms if compiled is not None else ():
                scores += weight * _term_mask(columns, term)[index]
        return scores

    def score_extensions(self) -> Plugin:
        return self

    def normalize_score(
        self, state: CycleState, pod: Pod, scores: list[NodeScore]
    ) -> Status | None:
        return default_normalize_score(MAX_NODE_SCORE, False, scores)


def _term_mask(columns: NodeColumns, term: CompiledTerm) -> BoolArray:
    def matches(node_info: NodeInfo) -> bool:
        return term.matches(node_info.node.labels, node_info.node.meta.name)

    return columns.static_mask((NAME, term.labels, term.fields, term.errors), matches)
