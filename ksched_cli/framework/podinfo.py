"""PodInfo: a pod with its parsed (anti-)affinity terms (framework/types.go)."""

from __future__ import annotations

from collections.abc import Mapping

from ..api.pod import Pod, PodAffinityTerm
from ..api.selectors import LabelSelector
from ..record import record


@record(frozen=True, slots=True)
class AffinityTerm:
    """framework.AffinityTerm: a pod affinity term, namespaces resolved."""

    namespaces: frozenset[str]
    selector: LabelSelector | None  # None matches nothing (labels.Nothing())
    topology_key: str
    namespace_selector: LabelSelector | None

    def matches(self, pod: Pod, ns_labels: Mapping[str, str]) -> bool:
        if pod.namespace in self.namespaces or (
            self.namespace_selector is not None and self.namespace_selector.matches(ns_labels)
        ):
            return self.selector is not None and self.selector.matches(pod.labels)
        return False


@record(frozen=True, slots=True)
class WeightedAffinityTerm:
    """framework.WeightedAffinityTerm: a preferred term and its weight."""

    term: AffinityTerm
    weight: int


def new_affinity_term(pod: Pod, term: PodAffinityTerm) -> AffinityTerm:
    if not term.namespaces and term.namespace_selector is None:
        namespaces = frozenset((pod.namespace,))
    else:
        namespaces = frozenset(term.namespaces)
    return AffinityTerm(namespaces, term.label_selector, term.topology_key, term.namespace_selector)


class PodInfo:
    __slots__ = (
        "pod",
        "preferred_affinity_terms",
        "preferred_anti_affinity_terms",
        "required_affinity_terms",
        "required_anti_affinity_terms",
    )

    def __init__(self, pod: Pod) -> None:
        self.pod = pod
        aff, anti = pod.pod_affinity, pod.pod_anti_affinity
        self.required_affinity_terms = (
            [new_affinity_term(pod, t) for t in aff.required] if aff else []
        )
        self.required_anti_affinity_terms = (
            [new_affinity_term(pod, t) for t in anti.required] if anti else []
        )
        self.preferred_affinity_terms = (
            [WeightedAffinityTerm(new_affinity_term(pod, w.term), w.weight) for w in aff.preferred]
            if aff
            else []
        )
        self.preferred_anti_affinity_terms = (
            [WeightedAffinityTerm(new_affinity_term(pod, w.term), w.weight) for w in anti.preferred]
            if anti
            else []
        )

    @property
    def has_affinity(self) -> bool:
        return self.pod.pod_affinity is not None or self.pod.pod_anti_affinity is not None

    @property
    def has_required_anti_affinity(self) -> bool:
        anti = self.pod.pod_anti_affinity
        return anti is not None and bool(anti.required)

    def __repr__(self) -> str:
        return f"PodInfo({self.pod.key})"


def pod_info(pod: Pod) -> PodInfo:
    """One PodInfo per Pod object, built on first use and kept on the pod."""
    cached = pod.info_cache
    if not isinstance(cached, PodInfo):
        cached = PodInfo(pod)
        pod.info_cache = cached
    return cached
