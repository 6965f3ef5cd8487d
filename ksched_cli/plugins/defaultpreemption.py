"""DefaultPreemption: the PostFilter that evicts lower-priority pods (v1.30)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..api.pod import PREEMPT_NEVER, Pod
from ..api.policy import PodDisruptionBudget
from ..config.args import DefaultPreemptionArgs
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import NodeInfo
from ..framework.podinfo import PodInfo
from ..framework.status import Code, Status
from ..framework.types import PostFilterResult
from ..versions.features import features_of
from .noderesources.fit import PRE_FILTER_STATE_KEY as FIT_STATE_KEY
from .noderesources.fit import PreFilterState as FitState
from .preemption_room import DryRunNumbers
from .preemption_victims import (
    lower_priority_in_visit_order,
    reprieve,
)
from .resource_only import (
    fit_decides_first,
    inert_checked_filters,
    resource_only,
    screen_dry_runs,
    select_victims_by_resources,
)

if TYPE_CHECKING:
    from ..framework.preemption import Screened

NAME = "DefaultPreemption"
NO_VICTIMS = "No preemption victims found for incoming pod"


class Plugin:
    name = NAME

    def __init__(self, args: DefaultPreemptionArgs | None, handle: Handle) -> None:
        self.args = args or DefaultPreemptionArgs()
        self.handle = handle
        self._sort_victims = features_of(handle).victims_sorted_after_reprieve
        # Decided once per PostFilter: dry runs may work on resource numbers alone,
        # everywhere or on nodes whose moving pods these filters ignore.
        self._resource_only = False
        self._inert_checked: list[Any] | None = None
        self._inert: dict[str, bool] = {}
        # Verdicts per preemptor shape (the checked plugins' inert_key), across PostFilters.
        self._inert_by_key: dict[tuple[object, ...], dict[str, bool]] = {}
        # Every live node's Fit numbers for this PostFilter's dry runs, made on first use.
        self._numbers: DryRunNumbers | None = None
        self._numbers_made = False

    def post_filter(
        self, state: CycleState, pod: Pod, filtered: Mapping[str, Status]
    ) -> tuple[PostFilterResult | None, Status | None]:
        self._resource_only = resource_only(self.handle, state)
        self._inert_checked = (
            None if self._resource_only else inert_checked_filters(self.handle, state)
        )
        self._inert = self._inert_memo(state, pod)
        self._numbers, self._numbers_made = None, False
        from ..framework.preemption import Evaluator  # only when a pod fails (start-up)

        evaluator = Evaluator(self.handle, self, state)
        result, status = evaluator.preempt(pod, filtered)
        if result is not None:
            lines = evaluator.explain_lines
            result.detail = lambda: {"lines": [f"preemption: {line}" for line in lines()]}
            result.record = evaluator.record
        message = status.message()
        if message:
            return result, Status(status.code, f"preemption: {message}")
        return result, status

    # --- the Evaluator's interface ------------------------------------------------------
    def offset_and_num_candidates(self, num_nodes: int) -> tuple[int, int]:
        """Offset 0 (kube-scheduler: random, see semantics.md §5) and calculateNumCandidates."""
        n = num_nodes * self.args.min_candidate_nodes_percentage // 100
        n = max(n, self.args.min_candidate_nodes_absolute)
        return 0, min(n, num_nodes)

    def pod_eligible_to_preempt_others(
        self, pod: Pod, nominated_status: Status | None
    ) -> tuple[bool, str]:
        if pod.preemption_policy == PREEMPT_NEVER:
            return False, "not eligible due to preemptionPolicy=Never."
        nominated = pod.nominated_node_name
        if nominated:
            if (
                nominated_status is not None
                and nominated_status.code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE
            ):
                return True, ""
            info = self.handle.snapshot.get(nominated)
            if info is not None:
                for pi in info.pods:
                    if pi.pod.priority < pod.priority and pi.pod.terminating_by_preemption:
                        return False, "not eligible due to a terminating pod on the nominated node."
        return True, ""

    def select_victims_on_node(
        self, state: CycleState, pod: Pod, node_info: NodeInfo, pdbs: Sequence[PodDisruptionBudget]
    ) -> tuple[list[Pod], int, Status | None]:
        if self._resource_only:
            numbers = self._dry_run_numbers(state, pod)
            return select_victims_by_resources(
                self.handle, state, pod, node_info, pdbs, numbers=numbers
            )
        movers = self._movers(state, pod, node_info)
        if movers is not None:
            checked = self._inert_checked or ()
            numbers = self._dry_run_numbers(state, pod)
            return select_victims_by_resources(
                self.handle, state, pod, node_info, pdbs, movers, checked, numbers
            )
        return self._select_victims(state.clone(), pod, node_info.clone(), pdbs)

    def _dry_run_numbers(self, state: CycleState, pod: Pod) -> DryRunNumbers | None:
        if not self._numbers_made:
            self._numbers_made = True
            infos = self.handle.snapshot.list()
            columns = infos[0].columns if infos else None
            request = state.get(FIT_STATE_KEY)
            if columns is not None and isinstance(request, FitState):
                nominations = self.handle.nominations()
                self._numbers = DryRunNumbers(request, columns, nominations, pod)
        return self._numbers

    def _movers(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> frozenset[str] | None:
        """The lower-priority pods whose removal changes a pod-dependent filter's state;
        None when some nominated pod the dry run adds would (or nothing can tell)."""
        checked = self._inert_checked
        if checked is None:
            return None
        priority, uid = pod.priority, pod.uid
        for pi in self.handle.nominated_pods_for_node(node_info.name):
            other = pi.pod
            added = other.priority >= priority and other.uid != uid
            if added and not self._is_inert(checked, state, pod, other):
                return None
        known = self._inert
        movers = []
        for pi in node_info.pods:
            other = pi.pod
            if other.priority < priority:
                inert = known.get(other.uid)
                if inert is None:
                    inert = self._is_inert(checked, state, pod, other)
                if not inert:
                    movers.append(other.uid)
        return frozenset(movers)

    def _is_inert(self, checked: list[Any], state: CycleState, pod: Pod, other: Pod) -> bool:
        inert = self._inert.get(other.uid)
        if inert is None:
            inert = True
            for pl in checked:
                if not pl.inert_pod(state, pod, other):
                    inert = False
                    break
            self._inert[other.uid] = inert
        return inert

    def _inert_memo(self, state: CycleState, pod: Pod) -> dict[str, bool]:
        """Where this PostFilter keeps inert verdicts: shared with earlier preemptors
        whose every checked plugin gives the same ``inert_key`` (equal answers)."""
        keys: list[object] = []
        for pl in self._inert_checked or ():
            key_of = getattr(pl, "inert_key", None)
            key = key_of(state, pod) if key_of is not None else None
            if key is None:
                return {}
            keys.append((pl.name, key))
        if not keys:
            return {}
        return self._inert_by_key.setdefault(tuple(keys), {})

    def screen_nodes(
        self,
        state: CycleState,
        pod: Pod,
        potential: Sequence[NodeInfo],
        statuses: Mapping[str, Status],
    ) -> Screened | None:
        if not (self._resource_only or fit_decides_first(self.handle, state)):
            return None
        numbers = self._dry_run_numbers(state, pod)
        if numbers is None:
            return None
        return screen_dry_runs(state, potential, statuses, numbers)

    def _select_victims(
        self, state: CycleState, pod: Pod, node_info: NodeInfo, pdbs: Sequence[PodDisruptionBudget]
    ) -> tuple[list[Pod], int, Status | None]:
        """SelectVictimsOnNode on copies: remove, check, reprieve with the real plugins."""
        handle = self.handle
        potential = lower_priority_in_visit_order(pod, node_info)
        for pi in potential:
            node_info.remove_pod(pi.pod)
            self._extension(state, pod, pi, node_info, add=False)
        if not potential:
            return [], 0, Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, NO_VICTIMS)
        status = handle.run_filter_plugins_with_nominated_pods(state, pod, node_info)
        if status is not None and status.code != Code.SUCCESS:
            return [], 0, status

        def fits(pi: PodInfo) -> bool:
            node_info.add_pod(pi.pod)
            self._extension(state, pod, pi, node_info, add=True)
            status = handle.run_filter_plugins_with_nominated_pods(state, pod, node_info)
            if status is not None and status.code != Code.SUCCESS:
                node_info.remove_pod(pi.pod)
                self._extension(state, pod, pi, node_info, add=False)
                return False
            return True

        victims, num_violating = reprieve(potential, pdbs, fits, self._sort_victims)
        return victims, num_violating, None

    def _extension(
        self, state: CycleState, pod: Pod, pi: PodInfo, node_info: NodeInfo, add: bool
    ) -> None:
        run = (
            self.handle.run_pre_filter_extension_add_pod
            if add
            else self.handle.run_pre_filter_extension_remove_pod
        )
        status = run(state, pod, pi, node_info)
        if status is not None and status.code != Code.SUCCESS:
            raise RuntimeError(status.message())
