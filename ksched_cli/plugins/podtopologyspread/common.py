"""Constraints, node eligibility, default selectors, pod counts (podtopologyspread/common.go)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...api.node import Node
from ...api.pod import Pod, TopologySpreadConstraint
from ...api.selectors import LabelSelector, NodeSelector, Requirement
from ...framework.nodeinfo import NodeInfo
from ...framework.podinfo import PodInfo
from ...record import record
from ..helpers.taints import do_not_schedule_taints, find_matching_untolerated_taint

if TYPE_CHECKING:  # workload objects only in annotations: their module loads with them
    from ...api.workloads import Workload

NAME = "PodTopologySpread"

HOSTNAME_LABEL = "kubernetes.io/hostname"
ZONE_LABEL = "topology.kubernetes.io/zone"
DO_NOT_SCHEDULE = "DoNotSchedule"
SCHEDULE_ANYWAY = "ScheduleAnyway"
HONOR = "Honor"
IGNORE = "Ignore"

SYSTEM_DEFAULT_CONSTRAINTS = (
    TopologySpreadConstraint(3, HOSTNAME_LABEL, SCHEDULE_ANYWAY, None),
    TopologySpreadConstraint(5, ZONE_LABEL, SCHEDULE_ANYWAY, None),
)

TopologyPair = tuple[str, str]


@record(frozen=True, slots=True)
class Constraint:
    """A spread constraint with its selector resolved; ``selector=None`` selects nothing."""

    max_skew: int
    topology_key: str
    selector: LabelSelector | None
    min_domains: int = 1
    node_affinity_policy: str = HONOR
    node_taints_policy: str = IGNORE

    def matches(self, labels: Mapping[str, str]) -> bool:
        return self.selector is not None and self.selector.matches(labels)

    def includes(self, affinity_ok: bool, taints_ok: bool) -> bool:
        """matchNodeInclusionPolicies, given the node's affinity and taint verdicts."""
        if self.node_affinity_policy == HONOR and not affinity_ok:
            return False
        return not (self.node_taints_policy == HONOR and not taints_ok)


def merge_match_label_keys(
    selector: LabelSelector | None, keys: Iterable[str], pod_labels: Mapping[str, str]
) -> LabelSelector | None:
    """AND the pod's values for ``keys`` into the selector; a nil selector stays nil."""
    extra = tuple(
        Requirement(k, "In", (pod_labels[k],)) for k in dict.fromkeys(keys) if k in pod_labels
    )
    if selector is None or not extra:
        return selector
    return LabelSelector(extra + selector.requirements)


def resolve_constraints(
    raw: Iterable[TopologySpreadConstraint], pod_labels: Mapping[str, str], action: str
) -> list[Constraint]:
    """filterTopologySpreadConstraints: the constraints with ``whenUnsatisfiable == action``."""
    return [
        Constraint(
            max_skew=c.max_skew,
            topology_key=c.topology_key,
            selector=merge_match_label_keys(c.label_selector, c.match_label_keys, pod_labels),
            min_domains=1 if c.min_domains is None else c.min_domains,
            node_affinity_policy=c.node_affinity_policy or HONOR,
            node_taints_policy=c.node_taints_policy or IGNORE,
        )
        for c in raw
        if c.when_unsatisfiable == action
    ]


def node_has_keys(labels: Mapping[str, str], constraints: Sequence[Constraint]) -> bool:
    """nodeLabelsMatchSpreadConstraints: every topology key is a label of the node."""
    return all(c.topology_key in labels for c in constraints)


@record(frozen=True, slots=True)
class RequiredNodeAffinity:
    """The pod's nodeSelector and required affinity terms (nodeaffinity.GetRequiredNodeAffinity)."""

    node_selector: Mapping[str, str]
    terms: NodeSelector | None

    @classmethod
    def of(cls, pod: Pod) -> RequiredNodeAffinity:
        affinity = pod.node_affinity
        return cls(pod.node_selector, affinity.required if affinity is not None else None)

    @property
    def is_empty(self) -> bool:
        return not self.node_selector and self.terms is None

    def matches(self, node: Node) -> bool:
        labels = node.labels
        if any(labels.get(k) != v for k, v in self.node_selector.items()):
            return False
        return self.terms is None or self.terms.matches(labels, node.name)


class NodeInclusion:
    """Per-node verdicts for the nodeAffinityPolicy/nodeTaintsPolicy of one pod's constraints."""

    __slots__ = ("_affinity", "_check_affinity", "_check_taints", "_tolerations")

    def __init__(self, pod: Pod, constraints: Sequence[Constraint]) -> None:
        self._affinity = RequiredNodeAffinity.of(pod)
        self._tolerations = pod.tolerations
        # Only evaluate what some constraint honors: the checks run once per node.
        self._check_affinity = not self._affinity.is_empty and any(
            c.node_affinity_policy == HONOR for c in constraints
        )
        self._check_taints = any(c.node_taints_policy == HONOR for c in constraints)

    def verdicts(self, node: Node) -> tuple[bool, bool]:
        """(matches the pod's required node affinity, tolerates the node's taints)."""
        affinity_ok = not self._check_affinity or self._affinity.matches(node)
        taints_ok = not self._check_taints or (
            find_matching_untolerated_taint(node.taints, self._tolerations, do_not_schedule_taints)
            is None
        )
        return affinity_ok, taints_ok


def _find(workloads: Iterable[Workload], namespace: str, name: str) -> Workload | None:
    return next((w for w in workloads if w.namespace == namespace and w.meta.name == name), None)


def _selects(selector: Mapping[str, str], labels: Mapping[str, str]) -> bool:
    return all(k in labels and labels[k] == v for k, v in selector.items())


def default_selector(pod: Pod, cluster: Any) -> LabelSelector:
    """helper.DefaultSelector: Services selecting the pod plus its controller's selector."""
    label_set: dict[str, str] = {}
    for service in cluster.services:
        chosen = service.selector_map
        if (
            service.namespace == pod.namespace
            and chosen is not None
            and _selects(chosen, pod.labels)
        ):
            label_set.update(chosen)
    extra: tuple[Requirement, ...] = ()
    owner = pod.meta.controller_ref()
    if owner is not None:
        if owner.kind == "ReplicationController":
            rc = _find(cluster.replication_controllers, pod.namespace, owner.name)
            if rc is not None:
                label_set.update(rc.selector_map or {})
        elif owner.kind in ("ReplicaSet", "StatefulSet"):
            listed = cluster.replica_sets if owner.kind == "ReplicaSet" else cluster.stateful_sets
            found = _find(listed, pod.namespace, owner.name)
            if found is not None and found.selector is not None:
                extra = found.selector.requirements
    own = tuple(Requirement(k, "In", (v,)) for k, v in sorted(label_set.items()))
    return LabelSelector(own + extra)


def count_matching(pods: Iterable[PodInfo], selector: LabelSelector, namespace: str) -> int:
    """countPodsMatchSelector for a non-empty selector: terminating pods do not count."""
    return sum(1 for info in pods if counts_toward(info.pod, selector, namespace))


def counts_toward(pod: Pod, selector: LabelSelector, namespace: str) -> bool:
    """Whether ``count_matching`` counts ``pod``: a pod not terminating, in ``namespace``,
    whose labels match."""
    meta = pod.meta
    return (
        meta.deletion_timestamp is None
        and meta.namespace == namespace
        and selector.matches(meta.labels)
    )


@record(frozen=True, slots=True)
class CountKey:
    """What a count depends on, interned to ``id`` for cheap memo lookups."""

    id: int
    selector: LabelSelector
    namespace: str


class _NodeMemo:
    __slots__ = ("counts", "generation", "pods", "snapshot")

    def __init__(self, info: NodeInfo) -> None:
        self.pods = info.pods
        self.generation = info.generation
        self.snapshot = tuple(info.pods)
        self.counts: dict[int, int] = {}


class MatchCounter:
    """Matching-pod counts per node, kept until the node's pods change.

    A hit needs the same pod list object at the same generation (NodeInfo bumps the
    generation on every add and remove), or else the very same PodInfo objects in
    the same order, as in a clone. Pods are assumed not to be mutated in place.
    """

    __slots__ = ("_keys", "_nodes")

    def __init__(self) -> None:
        self._keys: dict[tuple[LabelSelector, str], int] = {}
        self._nodes: dict[str, _NodeMemo] = {}

    def key(self, selector: LabelSelector | None, namespace: str) -> CountKey | None:
        """None when the selector can match nothing countable (nil or empty selectors)."""
        if selector is None or selector.is_empty:
            return None
        ident = self._keys.setdefault((selector, namespace), len(self._keys))
        return CountKey(ident, selector, namespace)

    def _memo(self, info: NodeInfo) -> dict[int, int]:
        memo = self._nodes.get(info.name)
        if memo is not None:
            if memo.pods is info.pods and memo.generation == info.generation:
                return memo.counts
            if memo.snapshot == tuple(info.pods):
                memo.pods, memo.generation = info.pods, info.generation
                return memo.counts
        memo = _NodeMemo(info)
        self._nodes[info.name] = memo
        return memo.counts

    def count(self, info: NodeInfo, key: CountKey | None) -> int:
        if key is None:
            return 0
        counts = self._memo(info)
        found = counts.get(key.id)
        if found is None:
            found = count_matching(info.pods, key.selector, key.namespace)
            counts[key.id] = found
        return found


def go_round(value: float) -> int:
    """math.Round: halves round away from zero (Python's round() goes to even)."""
    floor = math.floor(abs(value))
    rounded = floor + 1 if abs(value) - floor >= 0.5 else floor
    return rounded if value >= 0 else -rounded
