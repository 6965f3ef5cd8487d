"""matchLabelKeys and mismatchLabelKeys of pod (anti-)affinity terms (v1.31+).

With MatchLabelKeysInPodAffinity on (beta from v1.31) the API server folds both lists
into each term's labelSelector when it creates a pod (``mutatePodAffinity`` in
pkg/registry/core/pod/strategy.go): a key the pod carries becomes ``key In (value)``
(matchLabelKeys) or ``key NotIn (value)`` (mismatchLabelKeys), appended to the
selector's requirements; a nil selector selects nothing and is left alone. The
scheduler never reads the lists itself. v1.30's API server drops them (gate off).
"""

from __future__ import annotations

from collections.abc import Mapping

from .pod import Pod, PodAffinity, PodAffinityTerm, WeightedPodAffinityTerm
from .selectors import Requirement


def merge_affinity_label_keys(pod: Pod) -> None:
    """Fold the pod's affinity label keys into its selectors, in place."""
    if not any(_has_keys(a) for a in (pod.pod_affinity, pod.pod_anti_affinity)):
        return
    if pod.pod_affinity is not None:
        pod.pod_affinity = _merged(pod.pod_affinity, pod.labels)
    if pod.pod_anti_affinity is not None:
        pod.pod_anti_affinity = _merged(pod.pod_anti_affinity, pod.labels)
    pod.info_cache = None  # the scheduler's view of the terms is built again


def _has_keys(affinity: PodAffinity | None) -> bool:
    if affinity is None:
        return False
    terms = (*affinity.required, *(w.term for w in affinity.preferred))
    return any(t.match_label_keys or t.mismatch_label_keys for t in terms)


def _merged(affinity: PodAffinity, labels: Mapping[str, str]) -> PodAffinity:
    return PodAffinity(
        required=tuple(_term(t, labels) for t in affinity.required),
        preferred=tuple(
            WeightedPodAffinityTerm(w.weight, _term(w.term, labels)) for w in affinity.preferred
        ),
    )


def _term(term: PodAffinityTerm, labels: Mapping[str, str]) -> PodAffinityTerm:
    selector = term.label_selector
    if selector is None or not (term.match_label_keys or term.mismatch_label_keys):
        return term
    extra = tuple(
        Requirement(key, operator, (labels[key],))
        for keys, operator in ((term.match_label_keys, "In"), (term.mismatch_label_keys, "NotIn"))
        for key in keys
        if key in labels
    )
    if not extra:
        return term
    return PodAffinityTerm(
        selector.with_requirements(extra),
        term.namespaces,
        term.topology_key,
        term.namespace_selector,
        term.match_label_keys,
        term.mismatch_label_keys,
    )
