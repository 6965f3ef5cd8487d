"""Live inter-pod affinity counts per topology pair, kept current on every bind and removal.

kube-scheduler's PreFilter and PreScore scan every existing pod on every attempt, so
their cost grows with the pods already placed. These indexes hold the same sums,
grouped by term, and are updated by the node columns (framework/columns.py) whenever
a pod is bound to or removed from a live node; an attempt then evaluates each distinct
term once against the incoming pod instead of once per existing pod. Only the array
path (``vectorize``) reads them; filtering.py and scoring.py stay the reference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...api.pod import Pod
from ...framework.columns import NodeColumns
from ...framework.nodeinfo import NodeInfo
from ...framework.podinfo import AffinityTerm, PodInfo, pod_info
from .filtering import (
    IncomingTerm,
    PreFilterState,
    TopologyCounts,
    TopologyPair,
    _bump,
    matches_all,
)
from .scoring import ScoreBuilder, ScoreMap

NAME = "InterPodAffinity"
EXISTING_KEY = (NAME, "existing")

PairCounts = dict[TopologyPair, int]
# Per pair: how many term instances are there, and their summed signed weights.
WeightedPairs = dict[TopologyPair, list[int]]


def _count(
    index: dict[AffinityTerm, PairCounts], term: AffinityTerm, pair: TopologyPair, n: int
) -> None:
    pairs = index.setdefault(term, {})
    _bump(pairs, pair, n)
    if not pairs:
        del index[term]


class ExistingTerms:
    """The (anti-)affinity terms of the pods on live nodes, by term and topology pair."""

    def __init__(self, infos: Sequence[NodeInfo]) -> None:
        self.required_anti: dict[AffinityTerm, PairCounts] = {}
        self.required_affinity: dict[AffinityTerm, PairCounts] = {}
        self.preferred: dict[AffinityTerm, WeightedPairs] = {}
        for ni in infos:
            labels = ni.node.labels
            for info in ni.pods_with_affinity:
                self._add(info, labels, 1)

    def pod_changed(self, ni: NodeInfo, pod: Pod, sign: int) -> None:
        info = pod_info(pod)
        if info.has_affinity:
            self._add(info, ni.node.labels, sign)

    def _add(self, info: PodInfo, labels: Mapping[str, str], sign: int) -> None:
        for t in info.required_anti_affinity_terms:
            if t.topology_key in labels:
                _count(self.required_anti, t, (t.topology_key, labels[t.topology_key]), sign)
        for t in info.required_affinity_terms:
            if t.topology_key in labels:
                _count(self.required_affinity, t, (t.topology_key, labels[t.topology_key]), sign)
        for w in info.preferred_affinity_terms:
            self._weigh(w.term, labels, sign, w.weight)
        for w in info.preferred_anti_affinity_terms:
            self._weigh(w.term, labels, sign, -w.weight)

    def _weigh(self, term: AffinityTerm, labels: Mapping[str, str], sign: int, weight: int) -> None:
        key = term.topology_key
        if key not in labels:
            return
        pairs = self.preferred.setdefault(term, {})
        entry = pairs.setdefault((key, labels[key]), [0, 0])
        entry[0] += sign
        entry[1] += sign * weight
        if entry[0] == 0:
            del pairs[(key, labels[key])]
            if not pairs:
                del self.preferred[term]

    def anti_affinity_counts(self, pod: Pod, ns_labels: Mapping[str, str]) -> TopologyCounts:
        """existing_anti_affinity_counts over every live node."""
        counts: TopologyCounts = {}
        for term, pairs in self.required_anti.items():
            if term.matches(pod, ns_labels):
                for pair, n in pairs.items():
                    _bump(counts, pair, n)
        return counts

    def add_scores(
        self, scores: ScoreMap, pod: Pod, ns_labels: Mapping[str, str], hard_weight: int
    ) -> None:
        """ScoreBuilder.process_existing_terms summed over every live node."""
        if hard_weight > 0:
            for term, counts in self.required_affinity.items():
                if term.matches(pod, ns_labels):
                    for (key, value), n in counts.items():
                        _add(scores, key, value, hard_weight * n)
        for term, weighted in self.preferred.items():
            if term.matches(pod, ns_labels):
                for (key, value), (_, weight) in weighted.items():
                    _add(scores, key, value, weight)


def _add(scores: ScoreMap, key: str, value: str, amount: int) -> None:
    by_value = scores.setdefault(key, {})
    by_value[value] = by_value.get(value, 0) + amount


def signature(term: IncomingTerm) -> tuple[object, ...]:
    """What decides which pods an incoming term matches."""
    return (
        term.namespaces,
        term.selector,
        term.topology_key,
        term.all_namespaces,
        term.ns_selector,
    )


class MatchCounts:
    """Pods on live nodes matching every one of ``terms``, counted per topology pair of
    each term whose key the node has (incoming_affinity_counts for one term group)."""

    def __init__(self, terms: Sequence[IncomingTerm], infos: Sequence[NodeInfo]) -> None:
        self.terms = list(terms)
        self.counts: TopologyCounts = {}
        for ni in infos:
            if ni.pods and self._pairs(ni.node.labels):
                for existing in ni.pods:
                    self.pod_changed(ni, existing.pod, 1)

    def _pairs(self, labels: Mapping[str, str]) -> list[TopologyPair]:
        return [
            (t.topology_key, labels[t.topology_key]) for t in self.terms if t.topology_key in labels
        ]

    def pod_changed(self, ni: NodeInfo, pod: Pod, sign: int) -> None:
        if matches_all(self.terms, pod):
            for pair in self._pairs(ni.node.labels):
                _bump(self.counts, pair, sign)


def match_counts(columns: NodeColumns, terms: Sequence[IncomingTerm]) -> TopologyCounts:
    """The live counts for ``terms`` (registered with the columns on first use)."""
    key = (NAME, "match", tuple(signature(t) for t in terms))
    return columns.watcher(key, lambda infos: MatchCounts(terms, infos)).counts


def existing_terms(columns: NodeColumns) -> ExistingTerms:
    return columns.watcher(EXISTING_KEY, ExistingTerms)


def live_pre_filter_counts(s: PreFilterState, columns: NodeColumns) -> None:
    """PreFilter's three topology counts from the live indexes."""
    s.existing_anti_affinity_counts = existing_terms(columns).anti_affinity_counts(
        s.pod, s.namespace_labels
    )
    s.affinity_counts = dict(match_counts(columns, s.affinity_terms)) if s.affinity_terms else {}
    anti: TopologyCounts = {}
    for t in s.anti_affinity_terms:
        for pair, n in match_counts(columns, [t]).items():
            _bump(anti, pair, n)
    s.anti_affinity_counts = anti


def live_scores(builder: ScoreBuilder, columns: NodeColumns) -> None:
    """ScoreBuilder.process_node over every live node, from the live indexes."""
    scores = builder.scores
    for weighted, sign in (
        (builder.preferred_affinity, 1),
        (builder.preferred_anti_affinity, -1),
    ):
        for w in weighted:
            for (key, value), n in match_counts(columns, [w.term]).items():
                _add(scores, key, value, sign * w.weight * n)
    existing_terms(columns).add_scores(
        scores, builder.incoming, builder.ns_labels, builder.hard_pod_affinity_weight
    )
