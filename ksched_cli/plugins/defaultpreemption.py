"""DefaultPreemption: the PostFilter that evicts lower-priority pods (v1.30)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..api.pod import PREEMPT_NEVER, Pod
from ..api.policy import PodDisruptionBudget
from ..config.args import DefaultPreemptionArgs
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import NodeInfo
from ..framework.podinfo import PodInfo
from ..framework.preemption import Evaluator
from ..framework.status import Code, Status
from ..framework.types import PostFilterResult
from .preemption_fast import resource_only, select_victims_by_resources

NAME = "DefaultPreemption"
NO_VICTIMS = "No preemption victims found for incoming pod"


class Plugin:
    name = NAME

    def __init__(self, args: DefaultPreemptionArgs | None, handle: Handle) -> None:
        self.args = args or DefaultPreemptionArgs()
        self.handle = handle

    def post_filter(
        self, state: CycleState, pod: Pod, filtered: Mapping[str, Status]
    ) -> tuple[PostFilterResult | None, Status | None]:
        evaluator = Evaluator(self.handle, self, state)
        result, status = evaluator.preempt(pod, filtered)
        if result is not None:
            result.detail = {"lines": [f"preemption: {line}" for line in evaluator.explain]}
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
        if resource_only(self.handle, state, node_info):
            return select_victims_by_resources(self.handle, state, pod, node_info, pdbs)
        return self._select_victims(state.clone(), pod, node_info.clone(), pdbs)

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
        # Python's sort is stable: equal pods keep the node's pod-list order (§5).
        potential.sort(key=lambda pi: (-pi.pod.priority, _start(pi.pod)))
        violating, non_violating = filter_pods_with_pdb_violation(potential, pdbs)
        victims: list[Pod] = []
        num_violating = 0
        for group, counts in ((violating, True), (non_violating, False)):
            for pi in group:
                node_info.add_pod(pi.pod)
                self._extension(state, pod, pi, node_info, add=True)
                status = handle.run_filter_plugins_with_nominated_pods(state, pod, node_info)
                if status is not None and status.code != Code.SUCCESS:
                    node_info.remove_pod(pi.pod)
                    self._extension(state, pod, pi, node_info, add=False)
                    victims.append(pi.pod)
                    num_violating += counts
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


def lower_priority_in_visit_order(pod: Pod, node_info: NodeInfo) -> list[PodInfo]:
    """The lower-priority pods in the order SelectVictimsOnNode's removal loop meets them.

    Go ranges over the slice header taken before the loop while each removal moves the
    last pod into the removed slot, so the order is reproduced on a copy of the array.
    """
    backing = list(node_info.pods)
    length = len(backing)
    potential: list[PodInfo] = []
    for i in range(len(backing)):
        pi = backing[i]
        if pi.pod.priority >= pod.priority:
            continue
        potential.append(pi)
        slot = next(j for j in range(length) if backing[j] is pi)
        backing[slot] = backing[length - 1]
        length -= 1
    return potential


def _start(pod: Pod) -> float:
    return pod.start_time if pod.start_time is not None else 0.0


def filter_pods_with_pdb_violation(
    infos: Sequence[PodInfo], pdbs: Sequence[PodDisruptionBudget]
) -> tuple[list[PodInfo], list[PodInfo]]:
    """Split pods into those whose eviction would violate a PDB and the rest, in order."""
    allowed = [pdb.disruptions_allowed or 0 for pdb in pdbs]
    violating: list[PodInfo] = []
    non_violating: list[PodInfo] = []
    for info in infos:
        pod = info.pod
        violated = False
        if pod.labels:
            for i, pdb in enumerate(pdbs):
                if pdb.meta.namespace != pod.namespace or pdb.selector is None:
                    continue
                if pdb.selector.is_empty or not pdb.selector.matches(pod.labels):
                    continue
                if pod.name in pdb.disrupted_pods:
                    continue
                allowed[i] -= 1
                if allowed[i] < 0:
                    violated = True
        (violating if violated else non_violating).append(info)
    return violating, non_violating
