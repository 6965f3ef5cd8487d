"""One profile's framework: plugin instances per extension point and how they run.

Mirrors framework/runtime/framework.go. Cluster-wide services (snapshot, nominated
pods, clock, waiting pods) come from the engine through ``EngineServices``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ..api.pod import Pod
from ..config.types import Profile
from ..framework import interface as fi
from ..framework.columns import BoolArray, NodeColumns
from ..framework.cycle_state import CycleState
from ..framework.nodeinfo import NodeInfo
from ..framework.nominations import Nominations
from ..framework.podinfo import PodInfo
from ..framework.status import Code, Status, as_error
from ..framework.types import (
    PostFilterResult,
    PreFilterResult,
)
from ..plugins.registry import build_plugin
from ..versions.features import Features
from . import binding, scoring
from .binding import PermitOutcome
from .records import ScoreTable


class EngineServices(Protocol):
    """What a framework needs from the engine that owns it."""

    @property
    def snapshot(self) -> fi.SharedLister: ...

    @property
    def cluster(self) -> Any: ...

    @property
    def features(self) -> Features: ...

    def now(self) -> float: ...

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]: ...

    def waiting_pods(self) -> list[fi.WaitingPod]: ...

    def nominated_node_names(self) -> list[str]: ...

    def nominations(self) -> Nominations: ...

    def get_waiting_pod(self, uid: str) -> fi.WaitingPod | None: ...


class Framework:
    """A profile's plugins, run in kube-scheduler's order with its status rules."""

    def __init__(self, profile: Profile, services: EngineServices) -> None:
        self.profile = profile
        self.scheduler_name = profile.scheduler_name
        # Array paths of plugins (filter masks, score arrays); off for the reference path.
        self.vectorize = True
        self._services = services
        instances: dict[str, fi.Plugin] = {}
        # Per plugin name, the extension points it is enabled at.
        self._points: dict[str, set[str]] = {}

        def points(point: str) -> list[Any]:
            out = []
            for ref in profile.enabled(point):
                if ref.name not in instances:
                    instances[ref.name] = build_plugin(ref.name, profile.args(ref.name), self)
                self._points.setdefault(ref.name, set()).add(point)
                out.append(instances[ref.name])
            return out

        self.pre_enqueue_plugins: list[fi.PreEnqueuePlugin] = points("preEnqueue")
        self.queue_sort_plugins: list[fi.QueueSortPlugin] = points("queueSort")
        self.pre_filter_plugins: list[fi.PreFilterPlugin] = points("preFilter")
        self._pre_filter_extensions = [
            (pl, ext)
            for pl in self.pre_filter_plugins
            if (ext := pl.pre_filter_extensions()) is not None
        ]
        self.filter_plugins: list[fi.FilterPlugin] = points("filter")
        self.post_filter_plugins: list[fi.PostFilterPlugin] = points("postFilter")
        self.pre_score_plugins: list[fi.PreScorePlugin] = points("preScore")
        self.score_plugins: list[fi.ScorePlugin] = points("score")
        self.score_weights = {ref.name: ref.weight for ref in profile.enabled("score")}
        self.reserve_plugins: list[fi.ReservePlugin] = points("reserve")
        self.permit_plugins: list[fi.PermitPlugin] = points("permit")
        self.pre_bind_plugins: list[fi.PreBindPlugin] = points("preBind")
        # Plugins ported from before PreBindPreFlight (v1.35) have none to run.
        self.pre_flight_plugins = [
            pl for pl in self.pre_bind_plugins if isinstance(pl, fi.PreBindPreFlightPlugin)
        ]
        self.bind_plugins: list[fi.BindPlugin] = points("bind")
        self.post_bind_plugins: list[fi.PostBindPlugin] = points("postBind")
        self.plugins = instances

    def prepare(self, pods: Sequence[Pod]) -> None:
        """Before the first attempt: plugins with ``prepare`` build the live indexes the
        pending ``pods`` will read (array paths only), so that no attempt pays for them."""
        if not self.vectorize or not pods:
            return
        for name, pl in self.plugins.items():
            prepare = getattr(pl, "prepare", None)
            if prepare is not None:
                prepare(pods, frozenset(self._points.get(name, ())))

    # --- Handle -------------------------------------------------------------------
    @property
    def snapshot(self) -> fi.SharedLister:
        return self._services.snapshot

    @property
    def cluster(self) -> Any:
        return self._services.cluster

    @property
    def features(self) -> Features:
        return self._services.features

    def now(self) -> float:
        return self._services.now()

    def namespace_labels(self, namespace: str) -> Mapping[str, str]:
        labels: Mapping[str, str] = self._services.cluster.namespace_labels(namespace)
        return labels

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        return self._services.nominated_pods_for_node(node_name)

    def nominated_node_names(self) -> list[str]:
        return self._services.nominated_node_names()

    def nominations(self) -> Nominations:
        return self._services.nominations()

    def iterate_over_waiting_pods(self) -> list[fi.WaitingPod]:
        return self._services.waiting_pods()

    def get_waiting_pod(self, uid: str) -> fi.WaitingPod | None:
        return self._services.get_waiting_pod(uid)

    def reject_waiting_pod(self, uid: str) -> bool:
        waiting = self.get_waiting_pod(uid)
        if waiting is None:
            return False
        waiting.reject("", "removed")
        return True

    # --- PreFilter / Filter ------------------------------------------------------------
    def has_filter_plugins(self) -> bool:
        return bool(self.filter_plugins)

    def has_score_plugins(self) -> bool:
        return bool(self.score_plugins)

    def run_pre_filter(
        self, state: CycleState, pod: Pod
    ) -> tuple[PreFilterResult | None, Status | None]:
        skip: set[str] = set()
        result: PreFilterResult | None = None
        with_nodes: list[str] = []
        returned: Status | None = None
        try:
            for pl in self.pre_filter_plugins:
                res, status = pl.pre_filter(state, pod)
                if status is not None and status.code == Code.SKIP:
                    skip.add(pl.name)
                    continue
                if status is not None and status.code != Code.SUCCESS:
                    status.plugin = pl.name
                    if status.code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                        return None, status
                    if status.code == Code.UNSCHEDULABLE:
                        returned = status
                        continue
                    err = as_error(f'running PreFilter plugin "{pl.name}": {status.message()}')
                    return None, err.with_plugin(pl.name)
                if res is not None and not res.all_nodes():
                    with_nodes.append(pl.name)
                result = res if result is None else result.merge(res)
                if result is not None and result.node_names is not None and not result.node_names:
                    names = with_nodes
                    if self.features.sorted_pre_filter_plugins:
                        names = sorted(with_nodes)  # v1.31+: sets.List
                    return _named(result, with_nodes), _disjoint_pre_filter_results(names)
            return _named(result, with_nodes), returned
        finally:
            state.skip_filter_plugins = skip
            state.active_filters = [pl for pl in self.filter_plugins if pl.name not in skip]

    def _pre_filter_extension(
        self, state: CycleState, pod: Pod, info: PodInfo, node_info: NodeInfo, add: bool
    ) -> Status | None:
        for pl, ext in self._pre_filter_extensions:
            if pl.name in state.skip_filter_plugins:
                continue
            status = (ext.add_pod if add else ext.remove_pod)(state, pod, info, node_info)
            if status is not None and status.code != Code.SUCCESS:
                verb = "AddPod" if add else "RemovePod"
                return as_error(
                    f'running {verb} on PreFilter plugin "{pl.name}": {status.message()}'
                )
        return None

    def has_active_pre_filter_extensions(self, state: CycleState) -> bool:
        """Whether AddPod/RemovePod would reach some plugin PreFilter did not skip."""
        skip = state.skip_filter_plugins
        return any(pl.name not in skip for pl, _ in self._pre_filter_extensions)

    def run_pre_filter_extension_add_pod(
        self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        return self._pre_filter_extension(state, pod, to_add, node_info, True)

    def run_pre_filter_extension_remove_pod(
        self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        return self._pre_filter_extension(state, pod, to_remove, node_info, False)

    def run_filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        active: list[fi.FilterPlugin] | None = state.active_filters
        if active is None:
            active = [pl for pl in self.filter_plugins if pl.name not in state.skip_filter_plugins]
        for pl in active:
            status = pl.filter(state, pod, node_info)
            if status is not None and status.code != Code.SUCCESS:
                return filter_failure(pl.name, status)
        return None

    def filter_masks(
        self, state: CycleState, pod: Pod, columns: NodeColumns
    ) -> list[tuple[fi.FilterPlugin, BoolArray | None]]:
        """Each active filter plugin with its mask over all live nodes (None: per node)."""
        skip = state.skip_filter_plugins
        out: list[tuple[fi.FilterPlugin, BoolArray | None]] = []
        for pl in self.filter_plugins:
            if pl.name in skip:
                continue
            batch = getattr(pl, "filter_mask", None)
            out.append((pl, batch(state, pod, columns) if batch is not None else None))
        return out

    def run_filter_known(
        self,
        state: CycleState,
        pod: Pod,
        node_info: NodeInfo,
        masks: list[tuple[fi.FilterPlugin, BoolArray | None]],
    ) -> Status | None:
        """RunFilterPlugins where the masks already say which plugins pass on this node."""
        i = node_info.column_index
        for pl, mask in masks:
            if mask is not None and mask[i]:
                continue
            status = pl.filter(state, pod, node_info)
            if status is not None and status.code != Code.SUCCESS:
                return filter_failure(pl.name, status)
            if mask is not None:
                # The mask and the plugin disagree: trust the per-node code.
                return self.run_filter(state, pod, node_info)
        return None

    def run_filter_with_nominated_pods(
        self, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> Status | None:
        nominated = self._services.nominated_pods_for_node(node_info.name)
        if nominated:
            added, state_out, info_out = self._add_nominated_pods(state, pod, node_info, nominated)
            if added:
                status = self.run_filter(state_out, pod, info_out)
                if status is not None:
                    return status
        return self.run_filter(state, pod, node_info)

    # Handle's name for the same thing, used by preemption.
    run_filter_plugins_with_nominated_pods = run_filter_with_nominated_pods

    def _add_nominated_pods(
        self, state: CycleState, pod: Pod, node_info: NodeInfo, nominated: list[PodInfo]
    ) -> tuple[bool, CycleState, NodeInfo]:
        info_out = node_info.clone()
        state_out = state.clone()
        added = False
        for pi in nominated:
            if pi.pod.priority >= pod.priority and pi.pod.uid != pod.uid:
                info_out.add_pod(pi.pod)
                status = self.run_pre_filter_extension_add_pod(state_out, pod, pi, info_out)
                if status is not None:
                    raise RuntimeError(status.message())
                added = True
        return added, state_out, info_out

    # --- PostFilter -----------------------------------------------------------------
    def run_post_filter(
        self, state: CycleState, pod: Pod, filtered: Mapping[str, Status]
    ) -> tuple[PostFilterResult | None, Status]:
        result: PostFilterResult | None = None
        reasons: list[str] = []
        rejector = ""
        for pl in self.post_filter_plugins:
            res, status = pl.post_filter(state, pod, filtered)
            if status is None or status.code == Code.SUCCESS:
                return res, Status(Code.SUCCESS, plugin=pl.name)
            if status.code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                return res, status.with_plugin(pl.name)
            if not status.is_rejected():
                return None, as_error(status.message()).with_plugin(pl.name)
            if res is not None and res.nominated_node_name is not None:
                result = res
            reasons.extend(status.all_reasons())
            rejector = rejector or pl.name
        return result, Status(Code.UNSCHEDULABLE, *reasons, plugin=rejector)

    # --- Scoring ----------------------------------------------------------------------
    def run_pre_score(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> Status | None:
        skip: set[str] = set()
        try:
            for pl in self.pre_score_plugins:
                status = pl.pre_score(state, pod, nodes)
                if status is not None and status.code == Code.SKIP:
                    skip.add(pl.name)
                    continue
                if status is not None and status.code != Code.SUCCESS:
                    return as_error(f'running PreScore plugin "{pl.name}": {status.message()}')
            return None
        finally:
            state.skip_score_plugins = skip

    def run_score(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[ScoreTable | None, Status | None]:
        """Score, NormalizeScore and weights (see scoring.py)."""
        return scoring.run_score(self, state, pod, nodes)

    # --- Reserve, Permit, Bind (binding.py) -------------------------------------------
    def run_reserve(self, state: CycleState, pod: Pod, node: str) -> Status | None:
        return binding.run_reserve(self, state, pod, node)

    def run_unreserve(self, state: CycleState, pod: Pod, node: str) -> None:
        binding.run_unreserve(self, state, pod, node)

    def run_permit(self, state: CycleState, pod: Pod, node: str) -> PermitOutcome:
        return binding.run_permit(self, state, pod, node)

    def run_pre_bind_pre_flights(self, state: CycleState, pod: Pod, node: str) -> Status | None:
        return binding.run_pre_bind_pre_flights(self, state, pod, node)

    def run_pre_bind(self, state: CycleState, pod: Pod, node: str) -> Status | None:
        return binding.run_pre_bind(self, state, pod, node)

    def run_bind(self, state: CycleState, pod: Pod, node: str) -> Status | None:
        return binding.run_bind(self, state, pod, node)

    def run_post_bind(self, state: CycleState, pod: Pod, node: str) -> None:
        binding.run_post_bind(self, state, pod, node)


def filter_failure(plugin: str, status: Status) -> Status:
    """A Filter plugin's non-success: rejections keep their reasons, the rest become errors."""
    if not status.is_rejected():
        status = as_error(f'running "{plugin}" filter plugin: {status.message()}')
    status.plugin = plugin
    return status


def _named(result: PreFilterResult | None, plugins: list[str]) -> PreFilterResult | None:
    """The merged result, naming the plugins that narrowed it."""
    if result is None or not plugins:
        return result
    return PreFilterResult(result.node_names, tuple(plugins))


def _disjoint_pre_filter_results(plugins: list[str]) -> Status:
    """The PreFilter plugins' node sets have no node in common."""
    if len(plugins) == 1:
        msg = f"node(s) didn't satisfy plugin {plugins[0]}"
    else:
        msg = f"node(s) didn't satisfy plugin(s) [{' '.join(plugins)}] simultaneously"
    return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, msg)
