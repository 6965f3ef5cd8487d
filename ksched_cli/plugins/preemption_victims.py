"""Victim selection shared by DefaultPreemption's general and resource-only paths.

The order pods are visited, reprieved and counted against PodDisruptionBudgets
(default_preemption.go: SelectVictimsOnNode, filterPodsWithPDBViolation).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..api.pod import Pod
from ..api.policy import PodDisruptionBudget
from ..framework.nodeinfo import NodeInfo
from ..framework.podinfo import PodInfo


def lower_priority_in_visit_order(pod: Pod, node_info: NodeInfo) -> list[PodInfo]:
    """The lower-priority pods in the order SelectVictimsOnNode's removal loop meets them.

    Go ranges over the pod slice while each RemovePod moves the last live pod into the
    removed one's slot. That slot is never after the current index, so the loop still
    meets every pod in slice order (tests/plugins/test_preemption_victims.py replays
    the Go loop to check it).
    """
    priority = pod.priority
    return [pi for pi in node_info.pods if pi.pod.priority < priority]


def reprieve(
    potential: list[PodInfo],
    pdbs: Sequence[PodDisruptionBudget],
    fits: Callable[[PodInfo], bool],
    sort_victims: bool = False,
) -> tuple[list[Pod], int]:
    """Give back pods, most important first, PDB-violating ones first; the rest are victims.

    ``fits(pod_info)`` puts the pod back and keeps it if the preemptor still fits (else it
    takes it away again). Returns the victims and how many of them violate a PDB. With
    ``sort_victims`` (v1.32+, and v1.30.7) victims from both groups are sorted most
    important first again, so the first victim is the highest-priority one.
    """
    # Python's sort is stable: equal pods keep the node's pod-list order (§5).
    potential.sort(key=_importance)
    violating, non_violating = filter_pods_with_pdb_violation(potential, pdbs)
    victims: list[PodInfo] = []
    num_violating = 0
    for group, counts in ((violating, True), (non_violating, False)):
        for pi in group:
            if not fits(pi):
                victims.append(pi)
                num_violating += counts
    if sort_victims and violating and non_violating:
        victims.sort(key=_importance)
    return [pi.pod for pi in victims], num_violating


def _importance(pi: PodInfo) -> tuple[int, float]:
    """MoreImportantPod as a sort key: higher priority, then earlier start, first."""
    return -pi.pod.priority, _start(pi.pod)


def _start(pod: Pod) -> float:
    return pod.start_time if pod.start_time is not None else 0.0


def filter_pods_with_pdb_violation(
    infos: Sequence[PodInfo], pdbs: Sequence[PodDisruptionBudget]
) -> tuple[list[PodInfo], list[PodInfo]]:
    """Split pods into those whose eviction would violate a PDB and the rest, in order."""
    if not pdbs:
        return [], list(infos)
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
