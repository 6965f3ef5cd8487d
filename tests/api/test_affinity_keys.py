"""mutatePodAffinity (pkg/registry/core/pod/strategy.go, MatchLabelKeysInPodAffinity),
rule by rule: In for matchLabelKeys, NotIn for mismatchLabelKeys, appended in that order,
keys the pod lacks ignored, nil selectors left alone, preferred terms too."""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.api.affinity_keys import merge_affinity_label_keys
from ksched_cli.api.selectors import Requirement
from tests.fakes import make_pod


def _term(**extra: Any) -> dict[str, Any]:
    return {"labelSelector": {"matchLabels": {"app": "web"}},
            "topologyKey": "kubernetes.io/hostname", **extra}


def _affinity(kind: str, term: dict[str, Any], preferred: bool = False) -> dict[str, Any]:
    if preferred:
        body = {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 10, "podAffinityTerm": term}]}
    else:
        body = {"requiredDuringSchedulingIgnoredDuringExecution": [term]}
    return {"affinity": {kind: body}, "containers": [{"name": "c", "image": "i"}]}


APP = Requirement("app", "In", ("web",))


@pytest.mark.parametrize(
    ("name", "kind", "term", "preferred", "want"),
    [
        ("matchLabelKeys: key In (value)", "podAffinity", _term(matchLabelKeys=["version"]),
         False, (APP, Requirement("version", "In", ("v2",)))),
        ("mismatchLabelKeys: key NotIn (value)", "podAntiAffinity",
         _term(mismatchLabelKeys=["tenant"]), False,
         (APP, Requirement("tenant", "NotIn", ("a",)))),
        ("both, matchLabelKeys first", "podAntiAffinity",
         _term(matchLabelKeys=["version"], mismatchLabelKeys=["tenant"]), True,
         (APP, Requirement("version", "In", ("v2",)), Requirement("tenant", "NotIn", ("a",)))),
        ("a key the pod lacks is ignored", "podAffinity", _term(matchLabelKeys=["missing"]),
         False, (APP,)),
    ],
)
def test_merge(
    name: str, kind: str, term: dict[str, Any], preferred: bool, want: tuple[Requirement, ...]
) -> None:
    pod = make_pod("p", labels={"app": "web", "version": "v2", "tenant": "a"},
                   spec=_affinity(kind, term, preferred))
    merge_affinity_label_keys(pod)
    affinity = pod.pod_affinity if kind == "podAffinity" else pod.pod_anti_affinity
    assert affinity is not None
    merged = affinity.preferred[0].term if preferred else affinity.required[0]
    assert merged.label_selector is not None
    assert merged.label_selector.requirements == want, name


def test_nil_selector_stays_nil() -> None:
    term = {"topologyKey": "kubernetes.io/hostname", "matchLabelKeys": ["version"]}
    pod = make_pod("p", labels={"version": "v2"}, spec=_affinity("podAffinity", term))
    merge_affinity_label_keys(pod)
    assert pod.pod_affinity is not None
    assert pod.pod_affinity.required[0].label_selector is None
