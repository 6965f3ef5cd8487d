"""PreFilter state, its AddPod/RemovePod updates, and Filter (podtopologyspread/filtering.go)."""

from __future__ import annotations

from collections.abc import Sequence

from ...api.node import Node
from ...api.pod import Pod
from ...framework.nodeinfo import NodeInfo
from ...framework.status import Code, Status
from ...record import record
from .common import (
    NAME,
    Constraint,
    CountKey,
    MatchCounter,
    NodeInclusion,
    TopologyPair,
    node_has_keys,
)

PRE_FILTER_STATE_KEY = "PreFilter" + NAME
ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints"
ERR_REASON_NODE_LABEL_NOT_MATCH = ERR_REASON_CONSTRAINTS_NOT_MATCH + " (missing required label)"
MAX_INT32 = 2**31 - 1


class CriticalPaths:
    """The two domains with the fewest matching pods; ``num0`` is always the minimum.

    The second entry is only a lower bound after updates, which is enough while
    updates touch a single node, as nominated pods and preemption dry runs do.
    """

    __slots__ = ("num0", "num1", "value0", "value1")

    def __init__(self) -> None:
        self.value0, self.num0 = "", MAX_INT32
        self.value1, self.num1 = "", MAX_INT32

    def update(self, value: str, num: int) -> None:
        if value == self.value0:
            self.num0 = num
        elif value == self.value1:
            self.num1 = num
        elif num < self.num0:
            self.value1, self.num1 = self.value0, self.num0
            self.value0, self.num0 = value, num
            return
        elif num < self.num1:
            self.value1, self.num1 = value, num
            return
        else:
            return
        if self.num0 > self.num1:
            self.value0, self.num0, self.value1, self.num1 = (
                self.value1,
                self.num1,
                self.value0,
                self.num0,
            )

    def pairs(self) -> tuple[tuple[str, int], tuple[str, int]]:
        return (self.value0, self.num0), (self.value1, self.num1)

    def clone(self) -> CriticalPaths:
        copy = CriticalPaths()
        copy.value0, copy.num0, copy.value1, copy.num1 = (
            self.value0,
            self.num0,
            self.value1,
            self.num1,
        )
        return copy


@record(eq=False, slots=True)
class PreFilterState:
    """Matching pods per topology pair of the pod's hard constraints.

    ``constraints``, ``self_match``, ``domains_num`` and ``inclusion`` never
    change after PreFilter, so clones share them.
    """

    constraints: list[Constraint]
    self_match: list[int]
    inclusion: NodeInclusion
    critical_paths: dict[str, CriticalPaths]
    domains_num: dict[str, int]
    match_num: dict[TopologyPair, int]

    def clone(self) -> PreFilterState:
        return PreFilterState(
            constraints=self.constraints,
            self_match=self.self_match,
            inclusion=self.inclusion,
            critical_paths={k: p.clone() for k, p in self.critical_paths.items()},
            domains_num=self.domains_num,
            match_num=dict(self.match_num),
        )

    def min_match_num(self, key: str, min_domains: int) -> int | None:
        """The global minimum for skew, 0 below ``min_domains`` domains; None if unknown."""
        paths = self.critical_paths.get(key)
        domains = self.domains_num.get(key)
        if paths is None or domains is None:
            return None
        return 0 if domains < min_domains else paths.num0


def _node_counts(
    info: NodeInfo,
    constraints: Sequence[Constraint],
    counter: MatchCounter,
    keys: Sequence[CountKey | None],
    inclusion: NodeInclusion,
) -> dict[TopologyPair, int]:
    """One node's counts per pair; a later constraint on the same key overwrites, as in Go."""
    labels = info.node.labels
    affinity_ok, taints_ok = inclusion.verdicts(info.node)
    counts: dict[TopologyPair, int] = {}
    for c, key in zip(constraints, keys, strict=True):
        if c.includes(affinity_ok, taints_ok):
            counts[(c.topology_key, labels[c.topology_key])] = counter.count(info, key)
    return counts


def build_pre_filter_state(
    pod: Pod, constraints: list[Constraint], nodes: Sequence[NodeInfo], counter: MatchCounter
) -> PreFilterState:
    """calPreFilterState over every node of the snapshot."""
    inclusion = NodeInclusion(pod, constraints)
    keys = [counter.key(c.selector, pod.namespace) for c in constraints]
    match_num: dict[TopologyPair, int] = {}
    for info in nodes:
        if not node_has_keys(info.node.labels, constraints):
            continue
        for pair, count in _node_counts(info, constraints, counter, keys, inclusion).items():
            match_num[pair] = match_num.get(pair, 0) + count
    return pre_filter_state_from_counts(pod, constraints, match_num, inclusion)


def pre_filter_state_from_counts(
    pod: Pod,
    constraints: list[Constraint],
    match_num: dict[TopologyPair, int],
    inclusion: NodeInclusion,
) -> PreFilterState:
    """The state from the matching-pod count of every pair, in first-counted order."""
    domains_num: dict[str, int] = {}
    for key, _ in match_num:
        domains_num[key] = domains_num.get(key, 0) + 1
    paths = {c.topology_key: CriticalPaths() for c in constraints}
    for (key, value), num in match_num.items():
        paths[key].update(value, num)
    return PreFilterState(
        constraints=constraints,
        self_match=[1 if c.matches(pod.labels) else 0 for c in constraints],
        inclusion=inclusion,
        critical_paths=paths,
        domains_num=domains_num,
        match_num=match_num,
    )


def update_with_pod(
    state: PreFilterState, updated: Pod, preemptor: Pod, node: Node, delta: int
) -> None:
    """Count ``updated`` in (delta 1) or out (delta -1) of the pairs of ``node``."""
    if updated.namespace != preemptor.namespace:
        return
    labels = node.labels
    if not node_has_keys(labels, state.constraints):
        return
    affinity_ok, taints_ok = state.inclusion.verdicts(node)
    for c in state.constraints:
        # Unlike counting, a terminating pod is not skipped here (nor in kube-scheduler).
        if not c.matches(updated.labels) or not c.includes(affinity_ok, taints_ok):
            continue
        pair = (c.topology_key, labels[c.topology_key])
        num = state.match_num.get(pair, 0) + delta
        state.match_num[pair] = num
        state.critical_paths[c.topology_key].update(pair[1], num)


def filter_node(state: PreFilterState, node: Node) -> Status | None:
    """matchNum + selfMatch - globalMin must stay within maxSkew for every constraint."""
    labels = node.labels
    for c, self_match in zip(state.constraints, state.self_match, strict=True):
        key = c.topology_key
        if key not in labels:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_NODE_LABEL_NOT_MATCH)
        min_num = state.min_match_num(key, c.min_domains)
        if min_num is None:
            # kube-scheduler logs the missing key and moves on to the next constraint.
            continue
        skew = state.match_num.get((key, labels[key]), 0) + self_match - min_num
        if skew > c.max_skew:
            return Status(Code.UNSCHEDULABLE, ERR_REASON_CONSTRAINTS_NOT_MATCH)
    return None
