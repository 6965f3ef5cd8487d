"""TaintToleration: Filter on NoSchedule/NoExecute taints, score PreferNoSchedule ones.

Port of tainttoleration/taint_toleration.go (v1.30).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..api.pod import Pod, Toleration
from ..framework.columns import BoolArray, IntArray, NodeColumns
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import NodeInfo
from ..framework.status import Code, Status
from ..framework.types import MAX_NODE_SCORE, NodeScore
from ..lazy_numpy import np
from ..versions.features import features_of
from .helpers.normalize import default_normalize_score
from .helpers.prepare import live_columns, one_per_shape
from .helpers.taints import (
    PREFER_NO_SCHEDULE,
    do_not_schedule_taints,
    find_matching_untolerated_taint,
    tolerations_tolerate_taint,
)
from .helpers.vector import default_normalize_array

ERR_REASON_UNTOLERATED = "node(s) had untolerated taint(s)"
NAME = "TaintToleration"
PRE_SCORE_STATE_KEY = "PreScore" + NAME
# Declared by v1.30 but unused: Filter names the offending taint instead.
ERR_REASON_NOT_MATCH = "node(s) had taints that the pod didn't tolerate"


class PreScoreState:
    __slots__ = ("tolerations_prefer_no_schedule",)

    def __init__(self, tolerations: tuple[Toleration, ...]) -> None:
        self.tolerations_prefer_no_schedule = tolerations

    def clone(self) -> PreScoreState:
        return self  # read-only after PreScore


def prefer_no_schedule_tolerations(tolerations: Sequence[Toleration]) -> tuple[Toleration, ...]:
    """Tolerations that can tolerate a PreferNoSchedule taint (an empty effect matches all)."""
    return tuple(t for t in tolerations if not t.effect or t.effect == PREFER_NO_SCHEDULE)


class Plugin:
    name = NAME

    def __init__(self, args: Any = None, handle: Handle | None = None) -> None:
        self.handle = handle
        self.taint_in_message = not features_of(handle).taint_message_v2

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        taints = node_info.node.taints
        if not taints:
            return None
        taint = find_matching_untolerated_taint(taints, pod.tolerations, do_not_schedule_taints)
        if taint is None:
            return None
        if self.taint_in_message:
            reason = f"node(s) had untolerated taint {{{taint.key}: {taint.value}}}"
        else:
            reason = ERR_REASON_UNTOLERATED  # v1.35+: the taint itself is no longer shown
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reason)

    def prepare(self, pods: Sequence[Pod], points: frozenset[str]) -> None:
        """The static masks the pods' Filter and Score read, made before the first attempt."""
        columns = live_columns(self.handle)
        if columns is None:
            return
        if "filter" in points:
            for pod in one_per_shape(pods, lambda p: p.tolerations):
                self.filter_mask(CycleState(), pod, columns)
        if "score" in points:
            columns.static_mask((NAME, "tainted"), lambda ni: bool(ni.node.taints))

    def filter_mask(self, state: CycleState, pod: Pod, columns: NodeColumns) -> BoolArray:
        """Taints never change during a plan: one mask per set of tolerations."""
        return columns.static_mask(
            (NAME, pod.tolerations), lambda ni: self.filter(state, pod, ni) is None
        )

    def score_array(
        self, state: CycleState, pod: Pod, columns: NodeColumns, index: IntArray
    ) -> IntArray | None:
        """Nodes without taints score 0; the few tainted ones are counted one by one."""
        tainted = columns.static_mask((NAME, "tainted"), lambda ni: bool(ni.node.taints))
        out = np.zeros(len(index), dtype=np.int64)
        for i in tainted[index].nonzero()[0].tolist():
            value, status = self.score(state, pod, columns.infos[int(index[i])])
            if status is not None:
                return None
            out[i] = value
        return out

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        if not nodes:
            return None
        state.write(
            PRE_SCORE_STATE_KEY, PreScoreState(prefer_no_schedule_tolerations(pod.tolerations))
        )
        return None

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status | None]:
        s = state.get(PRE_SCORE_STATE_KEY)
        if not isinstance(s, PreScoreState):
            return 0, Status(
                Code.ERROR,
                error=f'failed to read "{PRE_SCORE_STATE_KEY}" from cycleState: not found',
            )
        taints = node_info.node.taints
        if not taints:
            return 0, None
        tolerations = s.tolerations_prefer_no_schedule
        count = 0
        for taint in taints:
            if taint.effect == PREFER_NO_SCHEDULE and not tolerations_tolerate_taint(
                tolerations, taint
            ):
                count += 1
        return count, None

    def score_extensions(self) -> Plugin:
        return self

    def normalize_score(
        self, state: CycleState, pod: Pod, scores: list[NodeScore]
    ) -> Status | None:
        # More untolerated PreferNoSchedule taints means a lower score.
        return default_normalize_score(MAX_NODE_SCORE, True, scores)

    def normalize_array(self, state: CycleState, pod: Pod, scores: IntArray) -> IntArray:
        return default_normalize_array(MAX_NODE_SCORE, True, scores)
