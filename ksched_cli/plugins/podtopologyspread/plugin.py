"""PodTopologySpread: hard constraints filter, soft ones score (podtopologyspread/plugin.go)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Any

from ...api.pod import Pod, TopologySpreadConstraint
from ...config.args import SYSTEM_DEFAULTING, PodTopologySpreadArgs
from ...framework.columns import BoolArray, IntArray, NodeColumns
from ...framework.cycle_state import CycleState
from ...framework.interface import Handle
from ...framework.nodeinfo import NodeInfo
from ...framework.podinfo import PodInfo
from ...framework.status import SKIP, Status, as_error
from ...framework.types import NodeScore, PreFilterResult
from ..helpers.prepare import live_columns, one_per_shape
from .common import (
    DO_NOT_SCHEDULE,
    NAME,
    SCHEDULE_ANYWAY,
    SYSTEM_DEFAULT_CONSTRAINTS,
    Constraint,
    MatchCounter,
    default_selector,
    resolve_constraints,
)
from .filtering import (
    PRE_FILTER_STATE_KEY,
    PreFilterState,
    build_pre_filter_state,
    filter_node,
    update_with_pod,
)
from .score_vector import build_pre_score_state, live_positions, normalize_array, score_array
from .scoring import (
    PRE_SCORE_STATE_KEY,
    PreScoreState,
    count_pairs,
    init_pre_score_state,
    normalize_scores,
    score_node,
)
from .vector import build_state, filter_mask

__all__ = ["NAME", "Plugin", "PodTopologySpread"]


class PodTopologySpread:
    """PreFilter (+AddPod/RemovePod), Filter, PreScore, Score and NormalizeScore."""

    name = NAME

    def __init__(self, args: PodTopologySpreadArgs | None, handle: Handle) -> None:
        args = args or PodTopologySpreadArgs()
        self._system_defaulted = args.defaulting_type == SYSTEM_DEFAULTING
        self._defaults: tuple[TopologySpreadConstraint, ...] = (
            SYSTEM_DEFAULT_CONSTRAINTS
            if self._system_defaulted
            else tuple(args.default_constraints)
        )
        self._handle = handle
        self._counter = MatchCounter()
        # The defaults resolved per action, when no matchLabelKeys makes them per pod.
        self._resolved_defaults: dict[str, list[Constraint]] = {}
        self._defaults_per_pod = any(c.match_label_keys for c in self._defaults)
        # inert_pod's answers per constraint selectors, then per pod uid.
        self._inert_by_shape: dict[tuple[Any, ...], dict[str, bool]] = {}
        self._inert_state: PreFilterState | None = None
        self._inert_known: dict[str, bool] = {}

    # -- constraints -------------------------------------------------------

    @property
    def default_constraints(self) -> tuple[TopologySpreadConstraint, ...]:
        """The profile's default constraints (the system ones unless args list others)."""
        return self._defaults

    def constraints(self, pod: Pod, action: str) -> list[Constraint]:
        """The pod's own constraints for ``action``, else the defaults built for it."""
        if pod.topology_spread_constraints:
            return resolve_constraints(pod.topology_spread_constraints, pod.labels, action)
        return self._default_constraints(pod, action)

    def _default_constraints(self, pod: Pod, action: str) -> list[Constraint]:
        constraints = self._resolved_defaults.get(action)
        if constraints is None:
            constraints = resolve_constraints(self._defaults, pod.labels, action)
            if not self._defaults_per_pod:  # Constraints are frozen: one list serves all
                self._resolved_defaults[action] = constraints
        if not constraints:
            return []
        selector = default_selector(pod, self._handle.cluster)
        if selector.is_empty:
            return []
        return [replace(c, selector=selector) for c in constraints]

    def prepare(self, pods: Sequence[Pod], points: frozenset[str]) -> None:
        """The matching-pod columns and static masks the pods' PreFilter reads, made
        before the first attempt (build_state, for one pod of each shape)."""
        columns = live_columns(self._handle)
        if columns is None or "preFilter" not in points:
            return
        if not any(c.when_unsatisfiable == DO_NOT_SCHEDULE for c in self._defaults):
            pods = [p for p in pods if p.topology_spread_constraints]  # the rest have none
        for pod in one_per_shape(pods, _spread_shape):
            constraints = self.constraints(pod, DO_NOT_SCHEDULE)
            if constraints:
                build_state(pod, constraints, columns)

    # -- PreFilter / Filter ------------------------------------------------

    def pre_filter(
        self, state: CycleState, pod: Pod
    ) -> tuple[PreFilterResult | None, Status | None]:
        constraints = self.constraints(pod, DO_NOT_SCHEDULE)
        if not constraints:
            return None, SKIP
        nodes = self._handle.snapshot.list()
        columns = nodes[0].columns if nodes and getattr(self._handle, "vectorize", False) else None
        built = build_state(pod, constraints, columns) if columns is not None else None
        if built is None:
            built = build_pre_filter_state(pod, constraints, nodes, self._counter)
        state.write(PRE_FILTER_STATE_KEY, built)
        return None, None

    def filter_mask(self, state: CycleState, pod: Pod, columns: NodeColumns) -> BoolArray | None:
        s = state.get(PRE_FILTER_STATE_KEY)
        return filter_mask(s, columns) if isinstance(s, PreFilterState) else None

    def pre_filter_extensions(self) -> PodTopologySpread:
        return self

    def add_pod(
        self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        return self._update(state, pod, to_add, node_info, 1)

    def remove_pod(
        self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        return self._update(state, pod, to_remove, node_info, -1)

    def _update(
        self, state: CycleState, pod: Pod, other: PodInfo, node_info: NodeInfo, delta: int
    ) -> Status | None:
        s = state.get(PRE_FILTER_STATE_KEY)
        if not isinstance(s, PreFilterState):
            return _missing(PRE_FILTER_STATE_KEY, "reading")
        update_with_pod(s, other.pod, pod, node_info.node, delta)
        return None

    def inert_key(self, state: CycleState, pod: Pod) -> object | None:
        """What inert_pod's answers depend on besides the other pod (None: unknown)."""
        s = state.get(PRE_FILTER_STATE_KEY)
        return _inert_shape(s, pod) if isinstance(s, PreFilterState) else None

    def inert_pod(self, state: CycleState, pod: Pod, other: Pod) -> bool:
        """Whether AddPod/RemovePod of ``other`` leaves this cycle's state as it is (it
        matches no constraint's selector in the pod's namespace); Filter reads only the
        state and the node's labels, so its verdicts then stay the same too."""
        s = state.get(PRE_FILTER_STATE_KEY)
        if not isinstance(s, PreFilterState):
            return False
        if other.namespace != pod.namespace:
            return True
        if s is not self._inert_state:
            # Pods with the same selectors share answers across attempts.
            self._inert_state = s
            self._inert_known = self._inert_by_shape.setdefault(_inert_shape(s, pod), {})
        known = self._inert_known
        inert = known.get(other.uid)
        if inert is None:
            labels = other.labels
            inert = known[other.uid] = not any(c.matches(labels) for c in s.constraints)
        return inert

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        s = state.get(PRE_FILTER_STATE_KEY)
        if not isinstance(s, PreFilterState):
            return _missing(PRE_FILTER_STATE_KEY, "reading")
        return filter_node(s, node_info.node)

    # -- PreScore / Score --------------------------------------------------

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        all_nodes = self._handle.snapshot.list()
        if not all_nodes:
            return SKIP
        # Nodes without every key still get hostname spreading under System defaulting.
        require_all = bool(pod.topology_spread_constraints) or not self._system_defaulted
        constraints = self.constraints(pod, SCHEDULE_ANYWAY)
        if not constraints:
            return SKIP
        keys = [self._counter.key(c.selector, pod.namespace) for c in constraints]
        live = live_positions(nodes) if getattr(self._handle, "vectorize", False) else None
        s = None
        if live is not None:
            s = build_pre_score_state(pod, constraints, keys, *live, require_all)
        if s is None:
            s = init_pre_score_state(constraints, keys, nodes, require_all)
            count_pairs(s, pod, all_nodes, require_all, self._counter)
        state.write(PRE_SCORE_STATE_KEY, s)
        return None

    def score_array(
        self, state: CycleState, pod: Pod, columns: NodeColumns, index: IntArray
    ) -> IntArray | None:
        s = state.get(PRE_SCORE_STATE_KEY)
        return score_array(s, pod, columns, index) if isinstance(s, PreScoreState) else None

    def normalize_array(self, state: CycleState, pod: Pod, scores: IntArray) -> IntArray | None:
        s = state.get(PRE_SCORE_STATE_KEY)
        return normalize_array(s, scores) if isinstance(s, PreScoreState) else None

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status | None]:
        s = state.get(PRE_SCORE_STATE_KEY)
        if not isinstance(s, PreScoreState):
            return 0, _missing(PRE_SCORE_STATE_KEY, "error reading")
        return score_node(s, node_info, self._counter), None

    def score_extensions(self) -> PodTopologySpread:
        return self

    def normalize_score(
        self, state: CycleState, pod: Pod, scores: list[NodeScore]
    ) -> Status | None:
        s = state.get(PRE_SCORE_STATE_KEY)
        if not isinstance(s, PreScoreState):
            return _missing(PRE_SCORE_STATE_KEY, "error reading")
        normalize_scores(s, scores)
        return None


def _missing(key: str, verb: str) -> Status:
    """The error kube-scheduler reports when the state was never written."""
    return as_error(f'{verb} "{key}" from cycleState: not found')


Plugin = PodTopologySpread


def _inert_shape(s: PreFilterState, pod: Pod) -> tuple[Any, ...]:
    return (pod.namespace, tuple(c.selector for c in s.constraints))


def _spread_shape(pod: Pod) -> Hashable:
    """What a pod's constraints and their inclusion policies are made of."""
    affinity = pod.node_affinity
    shape = (
        pod.namespace,
        tuple(sorted(pod.labels.items())),
        pod.meta.controller_ref(),
        pod.topology_spread_constraints,
        tuple(sorted(pod.node_selector.items())),
        affinity.required if affinity is not None else None,
        pod.tolerations,
    )
    try:
        hash(shape)
    except TypeError:
        return id(pod)
    return shape
