"""DynamicResources as the default profile runs it from v1.34 (DRA GA).

Port of dynamicresources/dynamicresources.go (v1.35.7) for the pods ksched reads:
ksched loads no ResourceClaim, DeviceClass or ResourceSlice objects and reads past
``spec.resourceClaims`` (with a warning, manifests/read_past.py), so every pod is a pod
without claims. For those the plugin
admits at PreEnqueue, skips at PreFilter (so Filter never runs) and scores 0 on every
node, which NormalizeScore leaves at 0: the column appears, totals do not move.
As a PostFilter before DefaultPreemption it adds `no new claims to deallocate` to the
message of every pod that fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api.pod import Pod
from ..framework.columns import IntArray, NodeColumns
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import NodeInfo
from ..framework.status import SKIP, Code, Status, as_error
from ..framework.types import PostFilterResult, PreFilterResult
from ..lazy_numpy import np

NAME = "DynamicResources"
STATE_KEY = NAME


class _StateData:
    """The empty claim set PreFilter records before it skips a pod without claims."""

    def clone(self) -> _StateData:
        return self


class Plugin:
    name = NAME

    def __init__(self, args: Any = None, handle: Handle | None = None) -> None:
        # Before v1.34 the gate is off and the registered plugin is disabled.
        self.enabled = handle is not None and handle.features.dra_in_default_profile

    def pre_enqueue(self, pod: Pod) -> Status | None:
        return None

    def pre_filter(self, state: CycleState, pod: Pod) -> tuple[PreFilterResult | None, Status]:
        if self.enabled:
            state.write(STATE_KEY, _StateData())
        return None, SKIP

    def pre_filter_extensions(self) -> None:
        return None

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        return None

    def post_filter(
        self, state: CycleState, pod: Pod, statuses: Mapping[str, Status]
    ) -> tuple[PostFilterResult | None, Status]:
        if not self.enabled:
            return None, Status(Code.UNSCHEDULABLE, "plugin disabled")
        # A PreFilter plugin that rejected the pod as unresolvable stops PreFilter before
        # this plugin's turn: its state was never written, and reading it is an error
        # (which also keeps DefaultPreemption from running).
        if not isinstance(state.get(STATE_KEY), _StateData):
            return None, as_error("not found")
        # PreFilter recorded an empty claim set, so there is nothing to free.
        return None, Status(Code.UNSCHEDULABLE, "no new claims to deallocate")

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Status | None:
        # v1.30 (gate off) lists PreScore; the disabled plugin does nothing there.
        return None

    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        return None

    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        return None

    def pre_bind_pre_flight(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        if not self.enabled:
            return SKIP
        if not isinstance(state.get(STATE_KEY), _StateData):
            return as_error("not found")
        return SKIP  # PreFilter recorded an empty claim set: nothing to bind

    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        return None

    def post_bind(self, state: CycleState, pod: Pod, node_name: str) -> None:
        return None

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status | None]:
        return 0, None

    def score_array(
        self, state: CycleState, pod: Pod, columns: NodeColumns, index: IntArray
    ) -> IntArray:
        """A pod without claims scores 0 everywhere: nothing to compute per node."""
        return np.zeros(len(index), dtype=np.int64)

    def score_extensions(self) -> None:
        # DefaultNormalizeScore leaves an all-zero list at zero.
        return None
