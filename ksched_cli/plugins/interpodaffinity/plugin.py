"""The InterPodAffinity plugin (interpodaffinity/plugin.go)."""

from __future__ import annotations

from collections.abc import Sequence

from ...api.pod import Pod
from ...config.args import InterPodAffinityArgs
from ...framework.columns import BoolArray, IntArray, NodeColumns
from ...framework.cycle_state import CycleState
from ...framework.interface import Handle
from ...framework.nodeinfo import NodeInfo
from ...framework.podinfo import PodInfo, pod_info
from ...framework.status import SKIP, Code, Status, as_error
from ...framework.types import NodeScore, PreFilterResult
from . import vector
from .filtering import (
    ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
    PreFilterState,
    existing_anti_affinity_counts,
    incoming_affinity_counts,
    inert_shape,
    moves_counts,
    resolve_terms,
    satisfy_existing_pods_anti_affinity,
    satisfy_pod_affinity,
    satisfy_pod_anti_affinity,
)
from .index import existing_terms, live_pre_filter_state, live_scores, prepare_indexes
from .scoring import (
    PreScoreState,
    ScoreBuilder,
    has_preferred_terms,
    node_score,
    normalize,
    resolve_weighted,
)

NAME = "InterPodAffinity"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME
PRE_SCORE_STATE_KEY = "PreScore" + NAME


class Plugin:
    """PreFilter (with AddPod/RemovePod), Filter, PreScore, Score and NormalizeScore."""

    name = NAME

    def __init__(self, args: InterPodAffinityArgs | None, handle: Handle) -> None:
        self.args = args if args is not None else InterPodAffinityArgs()
        self.handle = handle
        # inert_pod's answers per incoming pod shape, then per pod uid.
        self._inert_by_shape: dict[tuple[object, ...], dict[str, bool]] = {}
        self._inert_state: PreFilterState | None = None
        self._inert_known: dict[str, bool] = {}

    # PreFilter and its extensions

    def pre_filter(
        self, state: CycleState, pod: Pod
    ) -> tuple[PreFilterResult | None, Status | None]:
        info = pod_info(pod)
        columns = self._columns()
        if (
            columns is not None
            and not info.required_affinity_terms
            and not info.required_anti_affinity_terms
            and not existing_terms(columns).required_anti
        ):
            return None, SKIP  # no terms either way: the counts below would all be empty
        ns_labels_of = self.handle.namespace_labels
        s = PreFilterState(
            pod=pod,
            affinity_terms=resolve_terms(info.required_affinity_terms, ns_labels_of),
            anti_affinity_terms=resolve_terms(info.required_anti_affinity_terms, ns_labels_of),
            namespace_labels=ns_labels_of(pod.namespace),
        )
        if columns is not None:
            s = live_pre_filter_state(s, columns)
        else:
            snapshot = self.handle.snapshot
            s.existing_anti_affinity_counts = existing_anti_affinity_counts(
                pod, s.namespace_labels, snapshot.have_pods_with_required_anti_affinity_list()
            )
            s.affinity_counts, s.anti_affinity_counts = incoming_affinity_counts(
                s.affinity_terms, s.anti_affinity_terms, snapshot.list()
            )
        if (
            not s.existing_anti_affinity_counts
            and not s.affinity_terms
            and not s.anti_affinity_terms
        ):
            return None, SKIP
        state.write(PRE_FILTER_STATE_KEY, s)
        return None, None

    def prepare(self, pods: Sequence[Pod], points: frozenset[str]) -> None:
        """The live indexes the pending pods will read, built before the first attempt."""
        columns = self._columns()
        if columns is None:
            return
        required = "preFilter" in points
        preferred = "preScore" in points
        if preferred and self.args.ignore_preferred_terms_of_existing_pods:
            preferred = any(has_preferred_terms(p) for p in pods)
        if required or preferred:
            ns_labels_of = self.handle.namespace_labels
            prepare_indexes(columns, pods, ns_labels_of, required, preferred)

    def _columns(self) -> NodeColumns | None:
        """The live node columns when array paths are on (see index.py)."""
        if not getattr(self.handle, "vectorize", False):
            return None
        infos = self.handle.snapshot.list()
        return infos[0].columns if infos else None

    def pre_filter_extensions(self) -> Plugin:
        return self

    def add_pod(
        self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        return self._update(state, to_add, node_info, 1)

    def remove_pod(
        self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        return self._update(state, to_remove, node_info, -1)

    def _update(
        self, state: CycleState, info: PodInfo, node_info: NodeInfo, sign: int
    ) -> Status | None:
        s = _pre_filter_state(state)
        if isinstance(s, Status):
            return s
        s.update_with_pod(info, node_info, sign)
        return None

    def inert_key(self, state: CycleState, pod: Pod) -> object | None:
        """What inert_pod's answers depend on besides the other pod (None: unknown)."""
        s = state.get(PRE_FILTER_STATE_KEY)
        return inert_shape(s) if isinstance(s, PreFilterState) else None

    def inert_pod(self, state: CycleState, pod: Pod, other: Pod) -> bool:
        """Whether AddPod/RemovePod of ``other`` leaves this cycle's counts as they are;
        Filter reads only the counts and the node's labels, so its verdicts stay too."""
        s = state.get(PRE_FILTER_STATE_KEY)
        if not isinstance(s, PreFilterState):
            return False
        if s is not self._inert_state:
            # Pods alike in what the counts look at share answers across attempts.
            self._inert_state = s
            self._inert_known = self._inert_by_shape.setdefault(inert_shape(s), {})
        known = self._inert_known
        inert = known.get(other.uid)
        if inert is None:
            inert = known[other.uid] = not moves_counts(s, pod_info(other))
        return inert

    # Filter

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        s = _pre_filter_state(state)
        if isinstance(s, Status):
            return s
        if not satisfy_pod_affinity(s, node_info):
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_RULES_NOT_MATCH)
        if not satisfy_pod_anti_affinity(s, node_info):
            return Status(Code.UNSCHEDULABLE, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH)
        if not satisfy_existing_pods_anti_affinity(s, node_info):
            return Status(Code.UNSCHEDULABLE, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)
        return None

    def filter_mask(self, state: CycleState, pod: Pod, columns: NodeColumns) -> BoolArray | None:
        s = state.get(PRE_FILTER_STATE_KEY)
        if not isinstance(s, PreFilterState):
            return None
        return (
            vector.affinity_mask(s, columns)
            & vector.anti_affinity_mask(s, columns)
            & vector.existing_anti_affinity_mask(s, columns)
        )

    def filter_statuses(
        self, state: CycleState, pod: Pod, columns: NodeColumns, positions: IntArray
    ) -> list[Status | None] | None:
        s = state.get(PRE_FILTER_STATE_KEY)
        if not isinstance(s, PreFilterState):
            return None
        return vector.filter_statuses(s, columns, positions)

    # PreScore, Score, NormalizeScore

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        if not nodes:
            return SKIP
        has_constraints = has_preferred_terms(pod)
        if self.args.ignore_preferred_terms_of_existing_pods and not has_constraints:
            return SKIP
        info = pod_info(pod)
        columns = self._columns()
        if columns is not None and not has_constraints:
            existing = existing_terms(columns)
            if not existing.preferred and not (
                self.args.hard_pod_affinity_weight > 0 and existing.required_affinity
            ):
                return SKIP  # nothing on either side could add to a score
        ns_labels_of = self.handle.namespace_labels
        builder = ScoreBuilder(
            incoming=pod,
            ns_labels=ns_labels_of(pod.namespace),
            preferred_affinity=resolve_weighted(info.preferred_affinity_terms, ns_labels_of),
            preferred_anti_affinity=resolve_weighted(
                info.preferred_anti_affinity_terms, ns_labels_of
            ),
            hard_pod_affinity_weight=self.args.hard_pod_affinity_weight,
        )
        if columns is not None:
            live_scores(builder, columns)
        else:
            snapshot = self.handle.snapshot
            # Without preferred terms of its own, only pods with affinity can add to a score.
            all_nodes = (
                snapshot.list() if has_constraints else snapshot.have_pods_with_affinity_list()
            )
            for node_info in all_nodes:
                builder.process_node(node_info)
        if not builder.scores:
            return SKIP
        state.write(PRE_SCORE_STATE_KEY, PreScoreState(builder.scores))
        return None

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status | None]:
        s = state.get(PRE_SCORE_STATE_KEY)
        if not isinstance(s, PreScoreState):
            return 0, as_error(f'failed to read "{PRE_SCORE_STATE_KEY}" from cycleState: not found')
        return node_score(s, node_info.node.labels), None

    def score_array(
        self, state: CycleState, pod: Pod, columns: NodeColumns, index: IntArray
    ) -> IntArray | None:
        s = state.get(PRE_SCORE_STATE_KEY)
        if not isinstance(s, PreScoreState):
            return None
        out: IntArray = vector.score_array(s.topology_score, columns)[index]
        return out

    def normalize_array(self, state: CycleState, pod: Pod, scores: IntArray) -> IntArray | None:
        s = state.get(PRE_SCORE_STATE_KEY)
        if not isinstance(s, PreScoreState):
            return None
        return vector.normalize_array(scores) if s.topology_score else scores

    def score_extensions(self) -> Plugin:
        return self

    def normalize_score(
        self, state: CycleState, pod: Pod, scores: list[NodeScore]
    ) -> Status | None:
        s = state.get(PRE_SCORE_STATE_KEY)
        if not isinstance(s, PreScoreState):
            return as_error(f'failed to read "{PRE_SCORE_STATE_KEY}" from cycleState: not found')
        if s.topology_score:
            normalize(scores)
        return None


def _pre_filter_state(state: CycleState) -> PreFilterState | Status:
    s = state.get(PRE_FILTER_STATE_KEY)
    if not isinstance(s, PreFilterState):
        return as_error(f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: not found')
    return s
