"""Typed protocols for every extension point and for the handle plugins receive.

Mirrors kube-scheduler's framework/interface.go. Plugins return ``None`` for a
Success status. Score plugins receive the NodeInfo rather than its name (the
lookup kube-scheduler does first is the caller's job here).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..api.pod import Pod
from ..versions.features import Features
from .cluster_view import ClusterView
from .columns import BoolArray, IntArray, NodeColumns
from .cycle_state import CycleState
from .nodeinfo import NodeInfo
from .nominations import Nominations
from .podinfo import PodInfo
from .status import Status
from .types import NodeScore, PostFilterResult, PreFilterResult, QueuedPodInfo


@runtime_checkable
class Plugin(Protocol):
    name: str


@runtime_checkable
class PreEnqueuePlugin(Plugin, Protocol):
    def pre_enqueue(self, pod: Pod) -> Status | None: ...


@runtime_checkable
class QueueSortPlugin(Plugin, Protocol):
    def less(self, a: QueuedPodInfo, b: QueuedPodInfo) -> bool: ...


class PreFilterExtensions(Protocol):
    def add_pod(
        self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo
    ) -> Status | None: ...

    def remove_pod(
        self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo
    ) -> Status | None: ...


@runtime_checkable
class PreFilterPlugin(Plugin, Protocol):
    def pre_filter(
        self, state: CycleState, pod: Pod
    ) -> tuple[PreFilterResult | None, Status | None]: ...

    def pre_filter_extensions(self) -> PreFilterExtensions | None: ...


@runtime_checkable
class FilterPlugin(Plugin, Protocol):
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None: ...


@runtime_checkable
class BatchFilterPlugin(Plugin, Protocol):
    """Optional: Filter over every live node at once.

    Returns a boolean per node (node-tree order, True = passes), or None when this pod
    needs the per-node path. Where the mask is False, ``filter`` on that node must
    return the rejecting status: the engine calls it to get the exact reasons.
    """

    def filter_mask(
        self, state: CycleState, pod: Pod, columns: NodeColumns
    ) -> BoolArray | None: ...


@runtime_checkable
class BatchScorePlugin(Plugin, Protocol):
    """Optional: Score for the live nodes at ``index`` at once (None: use per-node Score)."""

    def score_array(
        self, state: CycleState, pod: Pod, columns: NodeColumns, index: IntArray
    ) -> IntArray | None: ...


@runtime_checkable
class PostFilterPlugin(Plugin, Protocol):
    def post_filter(
        self, state: CycleState, pod: Pod, filtered: Mapping[str, Status]
    ) -> tuple[PostFilterResult | None, Status | None]: ...


@runtime_checkable
class PreScorePlugin(Plugin, Protocol):
    def pre_score(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> Status | None: ...


class ScoreExtensions(Protocol):
    def normalize_score(
        self, state: CycleState, pod: Pod, scores: list[NodeScore]
    ) -> Status | None: ...


class BatchScoreExtensions(Protocol):
    """Optional on a ScoreExtensions object: NormalizeScore on an array (None: per-node)."""

    def normalize_array(self, state: CycleState, pod: Pod, scores: IntArray) -> IntArray | None: ...


@runtime_checkable
class ScorePlugin(Plugin, Protocol):
    def score(
        self, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> tuple[int, Status | None]: ...

    def score_extensions(self) -> ScoreExtensions | None: ...


@runtime_checkable
class ReservePlugin(Plugin, Protocol):
    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status | None: ...

    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None: ...


@runtime_checkable
class PermitPlugin(Plugin, Protocol):
    def permit(
        self, state: CycleState, pod: Pod, node_name: str
    ) -> tuple[Status | None, float]: ...


@runtime_checkable
class PreBindPlugin(Plugin, Protocol):
    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status | None: ...


@runtime_checkable
class PreBindPreFlightPlugin(PreBindPlugin, Protocol):
    """PreBindPreFlight (v1.35+): None when the plugin's PreBind has work for the pod on the
    node, a Skip status when it has none, an Error when it cannot tell."""

    def pre_bind_pre_flight(self, state: CycleState, pod: Pod, node_name: str) -> Status | None: ...


@runtime_checkable
class BindPlugin(Plugin, Protocol):
    def bind(self, state: CycleState, pod: Pod, node_name: str) -> Status | None: ...


@runtime_checkable
class PostBindPlugin(Plugin, Protocol):
    def post_bind(self, state: CycleState, pod: Pod, node_name: str) -> None: ...


class SharedLister(Protocol):
    """The node snapshot of the current cycle, in node-tree order."""

    def list(self) -> Sequence[NodeInfo]: ...

    def get(self, name: str) -> NodeInfo | None: ...

    def have_pods_with_affinity_list(self) -> Sequence[NodeInfo]: ...

    def have_pods_with_required_anti_affinity_list(self) -> Sequence[NodeInfo]: ...


class WaitingPod(Protocol):
    pod: Pod

    def pending_plugins(self) -> list[str]: ...

    def allow(self, plugin: str) -> None: ...

    def reject(self, plugin: str, message: str) -> None: ...


class Handle(Protocol):
    """What a plugin may ask of the scheduler (framework.Handle)."""

    @property
    def snapshot(self) -> SharedLister: ...

    @property
    def cluster(self) -> ClusterView:
        """The informer view (SharedInformerFactory's listers)."""
        ...

    def now(self) -> float:
        """The simulated clock, in seconds since the start of the plan."""
        ...

    @property
    def features(self) -> Features:
        """The behaviour switches of the kube-scheduler release replayed."""
        ...

    def namespace_labels(self, namespace: str) -> Mapping[str, str]: ...

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]: ...

    def nominated_node_names(self) -> list[str]:
        """Nodes with nominated pods, in the order they were first nominated to."""
        ...

    def nominations(self) -> Nominations:
        """Every nominated pod, as the nominator keeps them."""
        ...

    def run_filter_plugins_with_nominated_pods(
        self, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> Status | None: ...

    def run_pre_filter_extension_add_pod(
        self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo
    ) -> Status | None: ...

    def run_pre_filter_extension_remove_pod(
        self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo
    ) -> Status | None: ...

    def iterate_over_waiting_pods(self) -> list[WaitingPod]: ...

    def get_waiting_pod(self, uid: str) -> WaitingPod | None: ...

    def reject_waiting_pod(self, uid: str) -> bool: ...


PluginFactory = Callable[[Any, Handle], Plugin]
