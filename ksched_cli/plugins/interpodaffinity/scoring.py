"""PreScore, Score and NormalizeScore of InterPodAffinity (interpodaffinity/scoring.go)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field

from ...api.pod import Pod
from ...framework.nodeinfo import NodeInfo
from ...framework.podinfo import PodInfo, WeightedAffinityTerm
from ...framework.types import MAX_NODE_SCORE, NodeScore
from ...record import record
from .filtering import IncomingTerm, NamespaceLabels, Term, resolve_term

ScoreMap = dict[str, dict[str, int]]


@record(slots=True, frozen=True)
class WeightedIncomingTerm:
    """A preferred term of the incoming pod, and its weight."""

    term: IncomingTerm
    weight: int


@record(slots=True)
class PreScoreState:
    """Per topology key and value, the summed weights of matching terms."""

    topology_score: ScoreMap = field(default_factory=dict)

    def clone(self) -> PreScoreState:
        # Nothing changes it after PreScore, as kube-scheduler's Clone returns itself.
        return self


def has_preferred_terms(pod: Pod) -> bool:
    aff, anti = pod.pod_affinity, pod.pod_anti_affinity
    return (aff is not None and bool(aff.preferred)) or (anti is not None and bool(anti.preferred))


def resolve_weighted(
    terms: Sequence[WeightedAffinityTerm], namespace_labels: NamespaceLabels
) -> list[WeightedIncomingTerm]:
    return [WeightedIncomingTerm(resolve_term(w.term, namespace_labels), w.weight) for w in terms]


def _add(scores: ScoreMap, key: str, value: str, amount: int) -> None:
    by_value = scores.setdefault(key, {})
    by_value[value] = by_value.get(value, 0) + amount


def _process_term(
    scores: ScoreMap,
    term: Term,
    amount: int,
    pod: Pod,
    ns_labels: Mapping[str, str],
    node_labels: Mapping[str, str],
) -> None:
    key = term.topology_key
    if key in node_labels and term.matches(pod, ns_labels):
        _add(scores, key, node_labels[key], amount)


@record(slots=True)
class ScoreBuilder:
    """Accumulates the topology scores of one PreScore over the existing pods."""

    incoming: Pod
    ns_labels: Mapping[str, str]
    preferred_affinity: list[WeightedIncomingTerm]
    preferred_anti_affinity: list[WeightedIncomingTerm]
    hard_pod_affinity_weight: int
    scores: ScoreMap = field(default_factory=dict)

    def incoming_terms_on(
        self, node_labels: Mapping[str, str]
    ) -> list[tuple[IncomingTerm, int, str]]:
        """The incoming pod's preferred terms whose topology key the node has, signed."""
        out = [
            (w.term, w.weight, node_labels[w.term.topology_key])
            for w in self.preferred_affinity
            if w.term.topology_key in node_labels
        ]
        out.extend(
            (w.term, -w.weight, node_labels[w.term.topology_key])
            for w in self.preferred_anti_affinity
            if w.term.topology_key in node_labels
        )
        return out

    def process_node(self, node_info: NodeInfo) -> None:
        """Every pod may match the incoming pod's terms; only pods with affinity have terms.

        Sums do not depend on order, so the two passes add up to kube-scheduler's one.
        """
        labels = node_info.node.labels
        if not labels:
            return
        mine = self.incoming_terms_on(labels)
        if mine:
            for existing in node_info.pods:
                pod = existing.pod
                for term, amount, value in mine:
                    if term.matches(pod):
                        _add(self.scores, term.topology_key, value, amount)
        for existing in node_info.pods_with_affinity:
            self.process_existing_terms(existing, labels)

    def process_existing_terms(self, existing: PodInfo, node_labels: Mapping[str, str]) -> None:
        """The existing pod's own terms, checked against the incoming pod."""
        pod, ns_labels, scores = self.incoming, self.ns_labels, self.scores
        if self.hard_pod_affinity_weight > 0:
            for t in existing.required_affinity_terms:
                _process_term(scores, t, self.hard_pod_affinity_weight, pod, ns_labels, node_labels)
        for w in existing.preferred_affinity_terms:
            _process_term(scores, w.term, w.weight, pod, ns_labels, node_labels)
        for w in existing.preferred_anti_affinity_terms:
            _process_term(scores, w.term, -w.weight, pod, ns_labels, node_labels)


def node_score(state: PreScoreState, node_labels: Mapping[str, str]) -> int:
    total = 0
    for key, by_value in state.topology_score.items():
        if key in node_labels:
            total += by_value.get(node_labels[key], 0)
    return total


def normalize(scores: list[NodeScore]) -> None:
    """Scale to [0, MaxNodeScore] between the lowest and highest score, as float64 then int64."""
    if not scores:
        return
    low = min(s.score for s in scores)
    spread = max(s.score for s in scores) - low
    for s in scores:
        f = 0.0
        if spread > 0:
            f = float(MAX_NODE_SCORE) * (float(s.score - low) / float(spread))
        s.score = int(f)
