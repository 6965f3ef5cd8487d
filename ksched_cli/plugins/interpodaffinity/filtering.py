"""PreFilter and Filter of InterPodAffinity (interpodaffinity/filtering.go)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field
from typing import Protocol

from ...api.pod import Pod
from ...api.selectors import LabelSelector
from ...framework.nodeinfo import NodeInfo
from ...framework.podinfo import AffinityTerm, PodInfo
from ...record import record
from .overlay import CountsOverlay, overlay

ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH = (
    "node(s) didn't satisfy existing pods anti-affinity rules"
)
ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules"
ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules"

NO_LABELS: Mapping[str, str] = {}

TopologyPair = tuple[str, str]
TopologyCounts = dict[TopologyPair, int]
# A state's counts: its own dict, or a clone's view of the original's (overlay.py).
Counts = TopologyCounts | CountsOverlay
NamespaceLabels = Callable[[str], Mapping[str, str]]


class Term(Protocol):
    """What the counters need of a term: an existing pod's or a resolved incoming one."""

    @property
    def topology_key(self) -> str: ...

    def matches(self, pod: Pod, ns_labels: Mapping[str, str]) -> bool: ...


@record(slots=True, eq=False)
class IncomingTerm:
    """An incoming pod's term with its namespaceSelector folded into the namespaces.

    kube-scheduler lists the namespaces the selector picks when the cycle starts.
    Every pod lives in an existing namespace, so asking the selector about a pod's
    own namespace (once per namespace) gives the same answer without listing them.
    """

    namespaces: frozenset[str]
    selector: LabelSelector | None
    topology_key: str
    all_namespaces: bool
    ns_selector: LabelSelector | None
    namespace_labels: NamespaceLabels
    # The verdict per namespace seen so far; this runs for every pod in the cluster.
    _in_namespace: dict[str, bool] = field(default_factory=dict)

    def _namespace_selected(self, namespace: str) -> bool:
        hit = (
            namespace in self.namespaces
            or self.all_namespaces
            or (
                self.ns_selector is not None
                and self.ns_selector.matches(self.namespace_labels(namespace))
            )
        )
        self._in_namespace[namespace] = hit
        return hit

    def matches(self, pod: Pod, ns_labels: Mapping[str, str] = NO_LABELS) -> bool:
        """The pod's namespace labels are never needed: the selector is already resolved."""
        if self.selector is None:
            return False
        meta = pod.meta
        hit = self._in_namespace.get(meta.namespace)
        if hit is None:
            hit = self._namespace_selected(meta.namespace)
        if not hit:
            return False
        labels = meta.labels
        for req in self.selector.requirements:  # noqa: SIM110 - cheaper than all() per pod
            if not req.matches(labels):
                return False
        return True


def resolve_term(term: AffinityTerm, namespace_labels: NamespaceLabels) -> IncomingTerm:
    """mergeAffinityTermNamespacesIfNotEmpty: an empty selector keeps matching everything."""
    ns_sel = term.namespace_selector
    everything = ns_sel is not None and ns_sel.is_empty
    return IncomingTerm(
        namespaces=term.namespaces,
        selector=term.selector,
        topology_key=term.topology_key,
        all_namespaces=everything,
        ns_selector=None if everything else ns_sel,
        namespace_labels=namespace_labels,
    )


def resolve_terms(
    terms: Iterable[AffinityTerm], namespace_labels: NamespaceLabels
) -> list[IncomingTerm]:
    return [resolve_term(t, namespace_labels) for t in terms]


def _bump(counts: Counts, pair: TopologyPair, value: int) -> None:
    """Add to a pair's count, dropping it at zero (counts go down on RemovePod)."""
    total = counts.get(pair, 0) + value
    if total == 0:
        counts.pop(pair, None)
    else:
        counts[pair] = total


def matches_all(terms: Sequence[Term], pod: Pod) -> bool:
    """podMatchesAllAffinityTerms: false for no terms at all."""
    if not terms:
        return False
    return all(t.matches(pod, NO_LABELS) for t in terms)


def update_with_affinity_terms(
    counts: Counts,
    terms: Sequence[Term],
    pod: Pod,
    node_labels: Mapping[str, str],
    value: int,
) -> None:
    if matches_all(terms, pod):
        for t in terms:
            key = t.topology_key
            if key in node_labels:
                _bump(counts, (key, node_labels[key]), value)


def update_with_anti_affinity_terms(
    counts: Counts,
    terms: Sequence[Term],
    pod: Pod,
    ns_labels: Mapping[str, str],
    node_labels: Mapping[str, str],
    value: int,
) -> None:
    for t in terms:
        key = t.topology_key
        if key in node_labels and t.matches(pod, ns_labels):
            _bump(counts, (key, node_labels[key]), value)


@record(slots=True)
class PreFilterState:
    """Topology counts computed at PreFilter; AddPod/RemovePod keep them current."""

    pod: Pod
    affinity_terms: list[IncomingTerm]
    anti_affinity_terms: list[IncomingTerm]
    namespace_labels: Mapping[str, str]
    existing_anti_affinity_counts: Counts = field(default_factory=dict)
    affinity_counts: Counts = field(default_factory=dict)
    anti_affinity_counts: Counts = field(default_factory=dict)
    # Clones read these counts: copy them before changing them.
    lent: bool = False

    def clone(self) -> PreFilterState:
        # The clone reads this state's counts and keeps its own changes apart.
        self.lent = True
        return PreFilterState(
            self.pod,
            self.affinity_terms,
            self.anti_affinity_terms,
            self.namespace_labels,
            overlay(self.existing_anti_affinity_counts),
            overlay(self.affinity_counts),
            overlay(self.anti_affinity_counts),
        )

    def update_with_pod(self, info: PodInfo, node_info: NodeInfo, multiplier: int) -> None:
        if self.lent:
            self.existing_anti_affinity_counts = overlay(self.existing_anti_affinity_counts)
            self.affinity_counts = overlay(self.affinity_counts)
            self.anti_affinity_counts = overlay(self.anti_affinity_counts)
            self.lent = False
        labels = node_info.node.labels
        update_with_anti_affinity_terms(
            self.existing_anti_affinity_counts,
            info.required_anti_affinity_terms,
            self.pod,
            self.namespace_labels,
            labels,
            multiplier,
        )
        update_with_affinity_terms(
            self.affinity_counts, self.affinity_terms, info.pod, labels, multiplier
        )
        update_with_anti_affinity_terms(
            self.anti_affinity_counts,
            self.anti_affinity_terms,
            info.pod,
            NO_LABELS,
            labels,
            multiplier,
        )


def moves_counts(state: PreFilterState, info: PodInfo) -> bool:
    """Whether update_with_pod could change any count for this pod on some node."""
    pod = state.pod
    if any(t.matches(pod, state.namespace_labels) for t in info.required_anti_affinity_terms):
        return True
    if matches_all(state.affinity_terms, info.pod):
        return True
    return any(t.matches(info.pod) for t in state.anti_affinity_terms)


def inert_shape(state: PreFilterState) -> tuple[object, ...]:
    """All moves_counts reads of the incoming pod: equal shapes, equal answers."""
    pod = state.pod

    def terms(ts: Sequence[IncomingTerm]) -> tuple[object, ...]:
        return tuple(
            (t.namespaces, t.selector, t.topology_key, t.all_namespaces, t.ns_selector) for t in ts
        )

    return (
        pod.namespace,
        tuple(sorted(pod.labels.items())),
        tuple(sorted(state.namespace_labels.items())),
        terms(state.affinity_terms),
        terms(state.anti_affinity_terms),
    )


def existing_anti_affinity_counts(
    pod: Pod, ns_labels: Mapping[str, str], nodes: Iterable[NodeInfo]
) -> TopologyCounts:
    """Topologies where some existing pod's required anti-affinity term matches ``pod``."""
    counts: TopologyCounts = {}
    for node_info in nodes:
        labels = node_info.node.labels
        for existing in node_info.pods_with_required_anti_affinity:
            update_with_anti_affinity_terms(
                counts, existing.required_anti_affinity_terms, pod, ns_labels, labels, 1
            )
    return counts


def _pairs_on(terms: Sequence[IncomingTerm], labels: Mapping[str, str]) -> list[TopologyPair]:
    return [(t.topology_key, labels[t.topology_key]) for t in terms if t.topology_key in labels]


def incoming_affinity_counts(
    affinity: Sequence[IncomingTerm],
    anti_affinity: Sequence[IncomingTerm],
    nodes: Iterable[NodeInfo],
) -> tuple[TopologyCounts, TopologyCounts]:
    """Topologies of existing pods matching all affinity terms, and each anti-affinity term."""
    aff: TopologyCounts = {}
    anti: TopologyCounts = {}
    if not affinity and not anti_affinity:
        return aff, anti
    for node_info in nodes:
        if not node_info.pods:
            continue  # an empty node counts nothing
        labels = node_info.node.labels
        # A node lacking every topology key can add nothing; skip its pods.
        aff_pairs = _pairs_on(affinity, labels)
        anti_here = [
            (t, (t.topology_key, labels[t.topology_key]))
            for t in anti_affinity
            if t.topology_key in labels
        ]
        if not aff_pairs and not anti_here:
            continue
        for existing in node_info.pods:
            pod = existing.pod
            if aff_pairs and all(t.matches(pod) for t in affinity):
                for pair in aff_pairs:
                    _bump(aff, pair, 1)
            for term, pair in anti_here:
                if term.matches(pod):
                    _bump(anti, pair, 1)
    return aff, anti


def satisfy_existing_pods_anti_affinity(state: PreFilterState, node_info: NodeInfo) -> bool:
    counts = state.existing_anti_affinity_counts
    if counts:
        for pair in node_info.node.labels.items():
            if counts.get(pair, 0) > 0:
                return False
    return True


def satisfy_pod_anti_affinity(state: PreFilterState, node_info: NodeInfo) -> bool:
    counts = state.anti_affinity_counts
    if counts:
        labels = node_info.node.labels
        for term in state.anti_affinity_terms:
            key = term.topology_key
            if key in labels and counts.get((key, labels[key]), 0) > 0:
                return False
    return True


def satisfy_pod_affinity(state: PreFilterState, node_info: NodeInfo) -> bool:
    labels = node_info.node.labels
    pods_exist = True
    for term in state.affinity_terms:
        key = term.topology_key
        if key not in labels:
            return False
        if state.affinity_counts.get((key, labels[key]), 0) <= 0:
            pods_exist = False
    if pods_exist:
        return True
    # The first pod of a group with affinity to itself must not wait forever: it may
    # go anywhere with the topology keys when no pod matches yet and it matches itself.
    return not state.affinity_counts and matches_all(state.affinity_terms, state.pod)
