"""InterPodAffinity: builders shared by its test modules, and state/extension tests.

Ported from kube-scheduler's interpodaffinity filtering_test.go (state clone,
AddPod/RemovePod, incoming counts) plus checks specific to ksched.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod
from ksched_cli.config.args import InterPodAffinityArgs
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.podinfo import pod_info
from ksched_cli.framework.status import Code, Status
from ksched_cli.framework.types import NodeScore
from ksched_cli.plugins.interpodaffinity.filtering import (
    PreFilterState,
    incoming_affinity_counts,
    resolve_term,
    resolve_terms,
)
from ksched_cli.plugins.interpodaffinity.plugin import (
    PRE_FILTER_STATE_KEY,
    PRE_SCORE_STATE_KEY,
    Plugin,
)
from ksched_cli.plugins.interpodaffinity.scoring import normalize
from tests.fakes import FakeHandle, make_node, make_pod

Raw = dict[str, Any]

# Namespace labels of scoring_test.go; every other namespace has none of its own.
TEAM_NAMESPACES = {
    "subteam1.team1": {"team": "team1"},
    "subteam2.team1": {"team": "team1"},
    "subteam1.team2": {"team": "team2"},
    "subteam2.team2": {"team": "team2"},
}

_names = itertools.count()


class NsHandle(FakeHandle):
    """FakeHandle whose namespaces carry extra labels."""

    vectorize = False  # True: the plugin takes its array paths (live indexes)

    def __init__(
        self,
        nodes: Sequence[Node],
        pods: Sequence[Pod] = (),
        ns_labels: Mapping[str, Mapping[str, str]] | None = None,
    ) -> None:
        super().__init__(nodes, pods)
        self.ns_labels = ns_labels if ns_labels is not None else TEAM_NAMESPACES
        self.lookups: list[str] = []

    def namespace_labels(self, namespace: str) -> Mapping[str, str]:
        self.lookups.append(namespace)
        return {"kubernetes.io/metadata.name": namespace, **self.ns_labels.get(namespace, {})}


def sel(*reqs: tuple[str, str, Sequence[str]]) -> Raw:
    """A labelSelector of matchExpressions ``(key, operator, values)``."""
    exprs = []
    for key, op, values in reqs:
        expr: Raw = {"key": key, "operator": op}
        if values:
            expr["values"] = list(values)
        exprs.append(expr)
    return {"matchExpressions": exprs}


def term(
    selector: Raw | None,
    topology: str,
    namespaces: Sequence[str] | None = None,
    ns_selector: Raw | None = None,
) -> Raw:
    raw: Raw = {"topologyKey": topology}
    if selector is not None:
        raw["labelSelector"] = selector
    if namespaces is not None:
        raw["namespaces"] = list(namespaces)
    if ns_selector is not None:
        raw["namespaceSelector"] = ns_selector
    return raw


def t_in(key: str, topology: str, *values: str) -> Raw:
    return term(sel((key, "In", values)), topology)


def t_not_in(key: str, topology: str, *values: str) -> Raw:
    return term(sel((key, "NotIn", values)), topology)


def t_exists(key: str, topology: str) -> Raw:
    return term(sel((key, "Exists", ())), topology)


def weighted(weight: int, raw_term: Raw) -> Raw:
    return {"weight": weight, "podAffinityTerm": raw_term}


def affinity(
    req: Sequence[Raw] = (),
    anti: Sequence[Raw] = (),
    pref: Sequence[Raw] = (),
    pref_anti: Sequence[Raw] = (),
) -> Raw:
    """spec.affinity with the given required and preferred (anti-)affinity terms."""
    out: Raw = {}
    if req or pref:
        out["podAffinity"] = {
            "requiredDuringSchedulingIgnoredDuringExecution": list(req),
            "preferredDuringSchedulingIgnoredDuringExecution": list(pref),
        }
    if anti or pref_anti:
        out["podAntiAffinity"] = {
            "requiredDuringSchedulingIgnoredDuringExecution": list(anti),
            "preferredDuringSchedulingIgnoredDuringExecution": list(pref_anti),
        }
    return out


def pod(
    labels: Mapping[str, str] | None = None,
    node: str = "",
    ns: str = "default",
    aff: Raw | None = None,
    name: str | None = None,
) -> Pod:
    spec = {"affinity": aff} if aff else None
    return make_pod(name or f"p{next(_names)}", namespace=ns, node=node, labels=labels, spec=spec)


def node(name: str, labels: Mapping[str, str]) -> Node:
    """A node with exactly ``labels`` (no automatic hostname label, as in the Go tests)."""
    n = make_node(name)
    n.labels.clear()
    n.labels.update(labels)
    return n


def plugin(
    nodes: Sequence[Node],
    pods: Sequence[Pod] = (),
    args: InterPodAffinityArgs | None = None,
) -> tuple[Plugin, NsHandle]:
    handle = NsHandle(nodes, pods)
    return Plugin(args or InterPodAffinityArgs(), handle), handle


def _verdict(status: Status | None) -> tuple[int, list[str]] | None:
    return None if status is None else (status.code, status.reasons)


def run_filters(
    incoming: Pod, pods: Sequence[Pod], nodes: Sequence[Node]
) -> tuple[Status | None, list[Status | None]]:
    """PreFilter, then Filter on every node unless PreFilter did not succeed.

    The array path (live indexes, filter_mask, filter_statuses) must agree."""
    pl, handle = plugin(nodes, pods)
    state = CycleState()
    _, pre = pl.pre_filter(state, incoming)
    vector_pre, vector = _array_filters(incoming, pods, nodes)
    assert _verdict(vector_pre) == _verdict(pre)
    if pre is not None:
        return pre, []
    statuses = [pl.filter(state, incoming, handle.node(n.name)) for n in nodes]
    assert [_verdict(v) for v in vector] == [_verdict(s) for s in statuses]
    return None, statuses


def _array_filters(
    incoming: Pod, pods: Sequence[Pod], nodes: Sequence[Node]
) -> tuple[Status | None, list[Status | None]]:
    pl, handle = plugin(nodes, pods)
    handle.vectorize = True
    state = CycleState()
    _, pre = pl.pre_filter(state, incoming)
    if pre is not None:
        return pre, []
    columns = handle.snapshot.columns
    mask = pl.filter_mask(state, incoming, columns)
    assert mask is not None
    positions = np.array([handle.node(n.name).column_index for n in nodes], dtype=np.int64)
    statuses = pl.filter_statuses(state, incoming, columns, positions)
    assert statuses is not None
    assert [s is None for s in statuses] == mask[positions].tolist()
    return None, statuses


def run_scores(
    incoming: Pod,
    pods: Sequence[Pod],
    nodes: Sequence[Node],
    args: InterPodAffinityArgs | None = None,
) -> tuple[Status | None, list[int]]:
    """PreScore over all nodes, then Score and NormalizeScore unless PreScore did not succeed."""
    pl, handle = plugin(nodes, pods, args)
    state = CycleState()
    infos = [handle.node(n.name) for n in nodes]
    pre = pl.pre_score(state, incoming, infos)
    vector_pre, vector = _array_scores(incoming, pods, nodes, args)
    assert _verdict(vector_pre) == _verdict(pre)
    if pre is not None:
        return pre, []
    scores = []
    for info in infos:
        value, status = pl.score(state, incoming, info)
        assert status is None
        scores.append(NodeScore(info.name, value))
    assert pl.normalize_score(state, incoming, scores) is None
    assert vector == [value.score for value in scores]
    return None, [s.score for s in scores]


def _array_scores(
    incoming: Pod,
    pods: Sequence[Pod],
    nodes: Sequence[Node],
    args: InterPodAffinityArgs | None,
) -> tuple[Status | None, list[int]]:
    """PreScore from the live indexes, then score_array and normalize_array."""
    pl, handle = plugin(nodes, pods, args)
    handle.vectorize = True
    state = CycleState()
    infos = [handle.node(n.name) for n in nodes]
    pre = pl.pre_score(state, incoming, infos)
    if pre is not None:
        return pre, []
    index = np.array([info.column_index for info in infos], dtype=np.int64)
    raw = pl.score_array(state, incoming, handle.snapshot.columns, index)
    assert raw is not None
    normalized = pl.normalize_array(state, incoming, raw)
    assert normalized is not None
    return None, normalized.tolist()


# --- AddPod / RemovePod (TestPreFilterStateAddRemovePod) -------------------------------

LABEL1 = {"region": "r1", "zone": "z11"}
LABEL2 = {"region": "r1", "zone": "z12"}
LABEL3 = {"region": "r2", "zone": "z21"}
FOO_BAR = {"foo": "bar"}
ANTI_FOO_BAR = affinity(anti=[t_in("foo", "region", "bar")])
COMPLEX_TERMS = [
    t_in("foo", "region", "bar", "buzz"),
    t_not_in("service", "zone", "bar", "security", "test"),
]
ANTI_COMPLEX = affinity(anti=COMPLEX_TERMS)
AFF_COMPLEX = affinity(req=COMPLEX_TERMS)
AFF_COMPLEX_ANTI_FOO_BAR = affinity(req=COMPLEX_TERMS, anti=[t_in("foo", "region", "bar")])


def _counts(s: PreFilterState) -> tuple[dict[Any, int], ...]:
    return (s.existing_anti_affinity_counts, s.affinity_counts, s.anti_affinity_counts)


@pytest.mark.parametrize(
    ("pending_aff", "existing_aff_c", "added_node", "added_aff", "want_anti", "want_aff"),
    [
        pytest.param(
            ANTI_FOO_BAR,
            ANTI_FOO_BAR,
            "nodeB",
            ANTI_FOO_BAR,
            {("region", "r1"): 2},
            {},
            id="anti-affinity terms updated after adding and removing a pod",
        ),
        pytest.param(
            ANTI_COMPLEX,
            ANTI_FOO_BAR,
            "nodeA",
            ANTI_COMPLEX,
            {("region", "r1"): 2, ("zone", "z11"): 2, ("zone", "z21"): 1},
            {},
            id="complex anti-affinity terms updated after adding and removing a pod",
        ),
        pytest.param(
            AFF_COMPLEX,
            AFF_COMPLEX_ANTI_FOO_BAR,
            "nodeA",
            ANTI_COMPLEX,
            {},
            {("region", "r1"): 2, ("zone", "z11"): 2},
            id="affinity and anti-affinity updated after adding and removing a pod",
        ),
    ],
)
def test_add_remove_pod(
    pending_aff: Raw,
    existing_aff_c: Raw,
    added_node: str,
    added_aff: Raw,
    want_anti: dict[Any, int],
    want_aff: dict[Any, int],
) -> None:
    nodes = [node("nodeA", LABEL1), node("nodeB", LABEL2), node("nodeC", LABEL3)]
    pending = pod(FOO_BAR, aff=pending_aff, name="pending")
    existing = [pod(FOO_BAR, "nodeA", name="p1"), pod(None, "nodeC", aff=existing_aff_c, name="p2")]
    added = pod(FOO_BAR, added_node, aff=added_aff, name="added")

    def prefilter(pods: Sequence[Pod]) -> tuple[Plugin, NsHandle, CycleState]:
        pl, handle = plugin(nodes, pods)
        state = CycleState()
        assert pl.pre_filter(state, pending) == (None, None)
        return pl, handle, state

    _, _, all_state = prefilter([*existing, added])
    pl, handle, state = prefilter(existing)
    original = state.read(PRE_FILTER_STATE_KEY).clone()
    node_info = handle.node(added_node)

    assert pl.add_pod(state, pending, pod_info(added), node_info) is None
    got = state.read(PRE_FILTER_STATE_KEY)
    assert got.anti_affinity_counts == want_anti
    assert got.affinity_counts == want_aff
    assert _counts(got) == _counts(all_state.read(PRE_FILTER_STATE_KEY))

    assert pl.remove_pod(state, pending, pod_info(added), node_info) is None
    assert _counts(state.read(PRE_FILTER_STATE_KEY)) == _counts(original)


def test_pre_filter_state_clone_is_independent() -> None:
    nodes = [node("nodeA", LABEL1), node("nodeB", LABEL2)]
    pending = pod(FOO_BAR, aff=ANTI_FOO_BAR)
    pl, handle = plugin(nodes, [pod(FOO_BAR, "nodeA")])
    state = CycleState()
    pl.pre_filter(state, pending)
    copy = state.clone()
    victim = pod(FOO_BAR, "nodeA")
    pl.add_pod(copy, pending, pod_info(victim), handle.node("nodeA"))
    assert state.read(PRE_FILTER_STATE_KEY).anti_affinity_counts == {("region", "r1"): 1}
    assert copy.read(PRE_FILTER_STATE_KEY).anti_affinity_counts == {("region", "r1"): 2}


def test_remove_pod_lets_preemption_clear_the_way() -> None:
    """Removing the only matching victim drops its count, so Filter passes again."""
    nodes = [node("nodeA", LABEL1), node("nodeB", LABEL3)]
    victim = pod(FOO_BAR, "nodeA")
    pending = pod(aff=ANTI_FOO_BAR)
    pl, handle = plugin(nodes, [victim])
    state = CycleState()
    pl.pre_filter(state, pending)
    node_a = handle.node("nodeA")
    assert pl.filter(state, pending, node_a) == Status(
        Code.UNSCHEDULABLE, "node(s) didn't match pod anti-affinity rules"
    )
    pl.remove_pod(state, pending, pod_info(victim), node_a)
    assert state.read(PRE_FILTER_STATE_KEY).anti_affinity_counts == {}
    assert pl.filter(state, pending, node_a) is None


def test_extension_points_without_state_are_errors() -> None:
    """TestPreFilterDisabled, and the same for the other readers of the cycle state."""
    pl, handle = plugin([node("n", {})])
    state = CycleState()
    info = handle.node("n")
    p = pod()
    want = Status(
        Code.ERROR, error='error reading "PreFilterInterPodAffinity" from cycleState: not found'
    )
    assert pl.filter(state, p, info) == want
    assert pl.add_pod(state, p, pod_info(p), info) == want
    assert pl.remove_pod(state, p, pod_info(p), info) == want
    want_score = Status(
        Code.ERROR, error='failed to read "PreScoreInterPodAffinity" from cycleState: not found'
    )
    assert pl.score(state, p, info) == (0, want_score)
    assert pl.normalize_score(state, p, []) == want_score


def test_state_keys_and_extensions() -> None:
    pl, _ = plugin([])
    assert pl.name == "InterPodAffinity"
    assert PRE_FILTER_STATE_KEY == "PreFilterInterPodAffinity"
    assert PRE_SCORE_STATE_KEY == "PreScoreInterPodAffinity"
    assert pl.pre_filter_extensions() is pl
    assert pl.score_extensions() is pl


# --- incoming counts (TestGetTPMapMatchingIncomingAffinityAntiAffinity) ------------------

HOST_A = {("hostname", "nodeA"): 1}


def _normal(*labels: str) -> Pod:
    return pod(dict.fromkeys(labels, ""), "nodeA", name="normal-" + "".join(labels))


@pytest.mark.parametrize(
    ("existing", "aff", "want_aff", "want_anti"),
    [
        pytest.param([], None, {}, {}, id="nil test"),
        pytest.param([("aaa",)], None, {}, {}, id="incoming pod without affinity is a no-op"),
        pytest.param(
            [("bbb",)],
            affinity(req=[t_exists("aaa", "hostname")], anti=[t_exists("aaa", "hostname")]),
            {},
            {},
            id="no pod has a label violating the incoming pod's affinity and anti-affinity",
        ),
        pytest.param(
            [("aaa",)],
            affinity(req=[t_exists("aaa", "hostname")], anti=[t_exists("aaa", "hostname")]),
            HOST_A,
            HOST_A,
            id="existing pod matches affinity and anti-affinity, single term",
        ),
        pytest.param(
            [("aaa", "bbb")],
            affinity(
                req=[t_exists("aaa", "hostname"), t_exists("bbb", "hostname")],
                anti=[t_exists("aaa", "hostname")],
            ),
            {("hostname", "nodeA"): 2},
            HOST_A,
            id="existing pod matches affinity and anti-affinity, one count per term",
        ),
        pytest.param(
            [("aaa",)],
            affinity(
                req=[t_exists("aaa", "hostname"), t_exists("bbb", "hostname")],
                anti=[t_exists("aaa", "hostname"), t_exists("bbb", "hostname")],
            ),
            {},
            HOST_A,
            id="existing pod matches anti-affinity but not all affinity terms",
        ),
        pytest.param(
            [("aaa", "bbb")],
            affinity(
                req=[t_exists("aaa", "hostname"), t_exists("ccc", "hostname")],
                anti=[t_exists("aaa", "hostname"), t_exists("ccc", "hostname")],
            ),
            {},
            HOST_A,
            id="anti-affinity with more than one term, partly violated, case 1",
        ),
        pytest.param(
            [("bbb",)],
            affinity(
                req=[t_exists("aaa", "hostname"), t_exists("bbb", "hostname")],
                anti=[t_exists("aaa", "hostname"), t_exists("bbb", "hostname")],
            ),
            {},
            HOST_A,
            id="anti-affinity with more than one term, partly violated, case 2",
        ),
    ],
)
def test_incoming_affinity_counts(
    existing: list[tuple[str, ...]],
    aff: Raw | None,
    want_aff: dict[Any, int],
    want_anti: dict[Any, int],
) -> None:
    handle = NsHandle([node("nodeA", {"hostname": "nodeA"})], [_normal(*ls) for ls in existing])
    info = pod_info(pod(aff=aff))
    got = incoming_affinity_counts(
        resolve_terms(info.required_affinity_terms, handle.namespace_labels),
        resolve_terms(info.required_anti_affinity_terms, handle.namespace_labels),
        handle.snapshot.list(),
    )
    assert got == (want_aff, want_anti)


# --- namespace selector resolution -------------------------------------------------------


def test_namespace_selector_is_resolved_once_per_namespace() -> None:
    handle = NsHandle([])
    raw = term(sel(("app", "In", ["x"])), "zone", ns_selector=sel(("team", "In", ["team1"])))
    incoming = pod(aff=affinity(req=[raw]))
    resolved = resolve_term(pod_info(incoming).required_affinity_terms[0], handle.namespace_labels)
    targets = [
        pod({"app": "x"}, ns="subteam1.team1"),
        pod({"app": "x"}, ns="subteam1.team1"),
        pod({"app": "x"}, ns="subteam1.team2"),
        pod({"app": "y"}, ns="subteam2.team1"),
    ]
    assert [resolved.matches(p) for p in targets] == [True, True, False, False]
    assert handle.lookups == ["subteam1.team1", "subteam1.team2", "subteam2.team1"]


@pytest.mark.parametrize(
    ("ns_selector", "namespaces", "target_ns", "want"),
    [
        pytest.param(None, None, "default", True, id="no namespaces: the pod's own"),
        pytest.param(None, None, "other", False, id="no namespaces: not another"),
        pytest.param({}, None, "other", True, id="empty selector: every namespace"),
        pytest.param(None, ["other"], "default", False, id="listed namespaces only"),
        pytest.param(sel(("team", "In", ["team2"])), ["x"], "subteam2.team2", True, id="selected"),
        pytest.param(sel(("team", "In", ["team2"])), ["x"], "x", True, id="listed"),
    ],
)
def test_incoming_term_namespaces(
    ns_selector: Raw | None, namespaces: list[str] | None, target_ns: str, want: bool
) -> None:
    handle = NsHandle([])
    raw = term(sel(("app", "Exists", ())), "zone", namespaces=namespaces, ns_selector=ns_selector)
    incoming = pod(aff=affinity(req=[raw]))
    resolved = resolve_term(pod_info(incoming).required_affinity_terms[0], handle.namespace_labels)
    assert resolved.matches(pod({"app": ""}, ns=target_ns)) is want


def test_term_without_label_selector_matches_nothing() -> None:
    handle = NsHandle([])
    incoming = pod(aff=affinity(req=[term(None, "zone")]))
    resolved = resolve_term(pod_info(incoming).required_affinity_terms[0], handle.namespace_labels)
    assert not resolved.matches(pod({"app": ""}))


# --- NormalizeScore arithmetic ---------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "want"),
    [
        ([0, 0, 0], [0, 0, 0]),
        ([7, 7], [0, 0]),
        ([-5, 0, 8], [0, 38, 100]),
        ([1, 2, 3, 4], [0, 33, 66, 100]),
        ([-10, -3, -1], [0, 77, 100]),
        ([0, 29, 100], [0, 28, 100]),  # 100 * 0.29 is 28.999999999999996 in float64
        ([], []),
    ],
)
def test_normalize(scores: list[int], want: list[int]) -> None:
    node_scores = [NodeScore(f"n{i}", s) for i, s in enumerate(scores)]
    normalize(node_scores)
    assert [s.score for s in node_scores] == want
