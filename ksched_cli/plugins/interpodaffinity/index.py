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
from dataclasses import field

from ...api.pod import Pod
from ...framework.columns import NodeColumns
from ...framework.nodeinfo import NodeInfo
from ...framework.podinfo import AffinityTerm, PodInfo, pod_info
from ...record import record
from .filtering import (
    IncomingTerm,
    NamespaceLabels,
    PreFilterState,
    TopologyCounts,
    TopologyPair,
    _bump,
    matches_all,
    resolve_terms,
)
from .pairs import PairTable, domains
from .scoring import ScoreBuilder, ScoreMap, resolve_weighted

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

    def __init__(self, columns: NodeColumns, infos: Sequence[NodeInfo]) -> None:
        self._columns = columns
        self.required_anti: dict[AffinityTerm, PairTable] = {}
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
                table = self.required_anti.get(t)
                if table is None:
                    table = self.required_anti[t] = PairTable(self._columns)
                table.bump(t.topology_key, labels[t.topology_key], sign)
                if not table.counts:
                    del self.required_anti[t]
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

    def anti_affinity_tables(
        self, pod: Pod, ns_labels: Mapping[str, str]
    ) -> list[tuple[str, PairTable]]:
        """The existing required anti-affinity terms matching ``pod``: key and counts."""
        return [
            (term.topology_key, table)
            for term, table in self.required_anti.items()
            if term.matches(pod, ns_labels)
        ]

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

    def __init__(
        self, columns: NodeColumns, terms: Sequence[IncomingTerm], infos: Sequence[NodeInfo]
    ) -> None:
        self.terms = list(terms)
        self.table = PairTable(columns)
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
            for key, value in self._pairs(ni.node.labels):
                self.table.bump(key, value, sign)


def match_table(columns: NodeColumns, terms: Sequence[IncomingTerm]) -> PairTable:
    """The live counts for ``terms`` (registered with the columns on first use)."""
    key = (NAME, "match", tuple(signature(t) for t in terms))
    return columns.watcher(key, lambda infos: MatchCounts(columns, terms, infos)).table


def existing_terms(columns: NodeColumns) -> ExistingTerms:
    return columns.watcher(EXISTING_KEY, lambda infos: ExistingTerms(columns, infos))


@record(slots=True)
class LivePreFilterState(PreFilterState):
    """A PreFilter state built from the live tables, which filter_mask reads per node
    for as long as no pod has been bound or removed since (``changes``)."""

    columns: NodeColumns | None = None
    changes: int = -1
    affinity_table: PairTable | None = None
    anti_tables: list[PairTable] = field(default_factory=list)
    existing_tables: list[tuple[str, PairTable]] = field(default_factory=list)

    def update_with_pod(self, info: PodInfo, node_info: NodeInfo, multiplier: int) -> None:
        # The counts may be the live tables' own dicts: change copies, never those.
        if self.columns is not None:
            self.existing_anti_affinity_counts = dict(self.existing_anti_affinity_counts.items())
            self.affinity_counts = dict(self.affinity_counts.items())
            self.anti_affinity_counts = dict(self.anti_affinity_counts.items())
            self.columns = None
        PreFilterState.update_with_pod(self, info, node_info, multiplier)

    def current(self, columns: NodeColumns) -> bool:
        return columns is self.columns and columns.changes == self.changes


def _merged(tables: Sequence[PairTable]) -> TopologyCounts:
    """The tables' counts summed; one table's are handed over without a copy."""
    if len(tables) == 1:
        return tables[0].share()
    counts: TopologyCounts = {}
    for table in tables:
        for pair, n in table.counts.items():
            _bump(counts, pair, n)
    return counts


def live_pre_filter_state(s: PreFilterState, columns: NodeColumns) -> LivePreFilterState:
    """PreFilter's three topology counts from the live tables."""
    live = LivePreFilterState(s.pod, s.affinity_terms, s.anti_affinity_terms, s.namespace_labels)
    live.columns, live.changes = columns, columns.changes
    live.existing_tables = existing_terms(columns).anti_affinity_tables(s.pod, s.namespace_labels)
    live.existing_anti_affinity_counts = _merged([t for _, t in live.existing_tables])
    if s.affinity_terms:
        live.affinity_table = match_table(columns, s.affinity_terms)
        live.affinity_counts = live.affinity_table.share()
    live.anti_tables = [match_table(columns, [t]) for t in s.anti_affinity_terms]
    live.anti_affinity_counts = _merged(live.anti_tables)
    return live


def live_scores(builder: ScoreBuilder, columns: NodeColumns) -> None:
    """ScoreBuilder.process_node over every live node, from the live indexes."""
    scores = builder.scores
    for weighted, sign in (
        (builder.preferred_affinity, 1),
        (builder.preferred_anti_affinity, -1),
    ):
        for w in weighted:
            for (key, value), n in match_table(columns, [w.term]).counts.items():
                _add(scores, key, value, sign * w.weight * n)
    existing_terms(columns).add_scores(
        scores, builder.incoming, builder.ns_labels, builder.hard_pod_affinity_weight
    )


def prepare_indexes(
    columns: NodeColumns,
    pods: Sequence[Pod],
    namespace_labels: NamespaceLabels,
    required: bool,
    preferred: bool,
) -> None:
    """Build, before the first attempt, the live tables the pods' PreFilter (``required``)
    and PreScore (``preferred``) will read: the existing pods' terms and one table per
    distinct incoming term group. The same tables are otherwise built by the first pod
    of each shape, and are kept current the same way from then on."""
    existing_terms(columns)
    seen: set[tuple[object, ...]] = set()
    for pod in pods:
        if pod.pod_affinity is None and pod.pod_anti_affinity is None:
            continue
        info = pod_info(pod)
        shape = (
            pod.namespace,
            tuple(info.required_affinity_terms) if required else (),
            tuple(info.required_anti_affinity_terms) if required else (),
            tuple(info.preferred_affinity_terms) if preferred else (),
            tuple(info.preferred_anti_affinity_terms) if preferred else (),
        )
        if shape in seen:
            continue
        seen.add(shape)
        groups: list[list[IncomingTerm]] = []
        if required:
            affinity = resolve_terms(info.required_affinity_terms, namespace_labels)
            groups.append(affinity)
            groups.extend(
                [t] for t in resolve_terms(info.required_anti_affinity_terms, namespace_labels)
            )
        if preferred:
            for weighted in (info.preferred_affinity_terms, info.preferred_anti_affinity_terms):
                groups.extend([w.term] for w in resolve_weighted(weighted, namespace_labels))
        for terms in groups:
            if terms:
                match_table(columns, terms)
                for t in terms:
                    domains(t.topology_key, columns)
