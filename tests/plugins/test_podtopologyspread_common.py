"""PodTopologySpread: shared builders, and tests of constraints, default selectors and counting."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from ksched_cli.api.meta import ObjectMeta, OwnerReference
from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod, TopologySpreadConstraint
from ksched_cli.api.selectors import LabelSelector, Requirement, parse_label_selector
from ksched_cli.api.workloads import Workload, parse_workload
from ksched_cli.config.args import LIST_DEFAULTING, PodTopologySpreadArgs
from ksched_cli.engine.cluster import Cluster
from ksched_cli.framework.nodeinfo import NodeInfo
from ksched_cli.plugins.podtopologyspread.common import (
    DO_NOT_SCHEDULE,
    SCHEDULE_ANYWAY,
    MatchCounter,
    default_selector,
    go_round,
    merge_match_label_keys,
    resolve_constraints,
)
from ksched_cli.plugins.podtopologyspread.filtering import CriticalPaths
from ksched_cli.plugins.podtopologyspread.plugin import Plugin
from tests.fakes import FakeHandle, make_node, make_pod

HOSTNAME = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
UNSCHEDULABLE_TAINTS = ({"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"},)


def exists(key: str) -> dict[str, Any]:
    return {"matchExpressions": [{"key": key, "operator": "Exists"}]}


FOO = exists("foo")
BAR = exists("bar")


def tsc(
    max_skew: int,
    key: str,
    when: str = DO_NOT_SCHEDULE,
    selector: Mapping[str, Any] | None = None,
    *,
    min_domains: int | None = None,
    affinity: str | None = None,
    taints: str | None = None,
    match_label_keys: Sequence[str] = (),
) -> dict[str, Any]:
    """A topologySpreadConstraint as written in a manifest."""
    raw: dict[str, Any] = {"maxSkew": max_skew, "topologyKey": key, "whenUnsatisfiable": when}
    if selector is not None:
        raw["labelSelector"] = dict(selector)
    if min_domains is not None:
        raw["minDomains"] = min_domains
    if affinity is not None:
        raw["nodeAffinityPolicy"] = affinity
    if taints is not None:
        raw["nodeTaintsPolicy"] = taints
    if match_label_keys:
        raw["matchLabelKeys"] = list(match_label_keys)
    return raw


def soft(max_skew: int, key: str, selector: Mapping[str, Any] | None, **kw: Any) -> dict[str, Any]:
    return tsc(max_skew, key, SCHEDULE_ANYWAY, selector, **kw)


def node(
    name: str,
    labels: Mapping[str, str] | None = None,
    *,
    hostname: bool = False,
    taints: Sequence[Mapping[str, str]] = (),
) -> Node:
    """A node with exactly ``labels`` (plus the hostname label when asked for)."""
    n = make_node(name, labels=labels, taints=taints)
    if not hostname and HOSTNAME not in (labels or {}):
        n.labels.pop(HOSTNAME)
    return n


def zn(name: str, zone: str, **extra: str) -> Node:
    """The Go tests' usual node: labels zone=<zone> and node=<name>."""
    return node(name, {"zone": zone, "node": name, **extra})


def pod(
    name: str,
    labels: Mapping[str, str] | None = None,
    *,
    on: str = "",
    namespace: str = "default",
    constraints: Sequence[Mapping[str, Any]] = (),
    node_selector: Mapping[str, str] | None = None,
    affinity: tuple[str, str, Sequence[str]] | None = None,
    tolerate: Sequence[str] = (),
    terminating: bool = False,
    owner: tuple[str, str] | None = None,
) -> Pod:
    """A pod; ``affinity`` is one required term (key, operator, values)."""
    spec: dict[str, Any] = {}
    if constraints:
        spec["topologySpreadConstraints"] = [dict(c) for c in constraints]
    if node_selector:
        spec["nodeSelector"] = dict(node_selector)
    if affinity is not None:
        key, op, values = affinity
        term = {"matchExpressions": [{"key": key, "operator": op, "values": list(values)}]}
        required = {"nodeSelectorTerms": [term]}
        spec["affinity"] = {
            "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": required}
        }
    if tolerate:
        spec["tolerations"] = [
            {"key": k, "operator": "Exists", "effect": "NoSchedule"} for k in tolerate
        ]
    p = make_pod(name, namespace=namespace, node=on, labels=labels, spec=spec)
    if terminating:
        p.meta.deletion_timestamp = 1.0
    if owner is not None:
        p.meta.owner_references = (OwnerReference(owner[0], owner[1], True),)
    return p


def setup(
    nodes: Sequence[Node],
    pods: Sequence[Pod] = (),
    *,
    args: PodTopologySpreadArgs | None = None,
    workloads: Sequence[Workload] = (),
) -> tuple[Plugin, FakeHandle]:
    """The plugin over a snapshot of ``nodes`` with the running ``pods`` placed."""
    cluster = Cluster(nodes=list(nodes), pods=list(pods))
    for w in workloads:
        listed = {
            "Service": cluster.services,
            "ReplicaSet": cluster.replica_sets,
            "StatefulSet": cluster.stateful_sets,
            "ReplicationController": cluster.replication_controllers,
        }[w.kind]
        listed.append(w)
    handle = FakeHandle(nodes, pods, cluster)
    return Plugin(args or PodTopologySpreadArgs(defaulting_type=LIST_DEFAULTING), handle), handle


def default_tsc(max_skew: int, key: str, when: str) -> TopologySpreadConstraint:
    return TopologySpreadConstraint(max_skew, key, when, None)


def service(selector: Mapping[str, str] | None, namespace: str = "default") -> Workload:
    spec: dict[str, Any] = {} if selector is None else {"selector": dict(selector)}
    raw = {"metadata": {"name": "svc", "namespace": namespace}, "spec": spec}
    return parse_workload("Service", raw)


def workload(kind: str, name: str, selector: Mapping[str, Any] | None) -> Workload:
    """A controller object with only the selector PodTopologySpread reads."""
    meta = ObjectMeta(name=name, namespace="default")
    if kind == "ReplicationController":
        values = None if selector is None else dict(selector)
        return Workload(kind, meta, None if values is None else sel(
            {"matchLabels": values}), values)
    return Workload(kind, meta, None if selector is None else sel(selector))


def sel(raw: Mapping[str, Any]) -> LabelSelector:
    parsed = parse_label_selector(dict(raw), "test")
    assert parsed is not None
    return parsed


def labels_in(**values: str) -> tuple[Requirement, ...]:
    return tuple(Requirement(k, "In", (v,)) for k, v in sorted(values.items()))


# -- matchLabelKeys --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("selector", "keys", "pod_labels", "want"),
    [
        pytest.param(
            FOO,
            ["bar"],
            {"foo": "", "bar": "a"},
            labels_in(bar="a") + sel(FOO).requirements,
            id="ANDed with a non-empty selector",
        ),
        pytest.param(
            {}, ["foo"], {"foo": "a"}, labels_in(foo="a"), id="ANDed with an empty selector"
        ),
        pytest.param(
            FOO, ["bar"], {"foo": ""}, sel(FOO).requirements, id="key missing from the pod"
        ),
        pytest.param(None, ["foo"], {"foo": "a"}, None, id="nil selector stays nil"),
        pytest.param(
            FOO,
            ["bar", "bar"],
            {"bar": "x"},
            labels_in(bar="x") + sel(FOO).requirements,
            id="duplicate keys merge once",
        ),
    ],
)
def test_merge_match_label_keys(
    selector: Mapping[str, Any] | None,
    keys: list[str],
    pod_labels: dict[str, str],
    want: tuple[Requirement, ...] | None,
) -> None:
    got = merge_match_label_keys(None if selector is None else sel(selector), keys, pod_labels)
    assert (None if got is None else got.requirements) == want


def test_resolve_constraints_defaults_and_policies() -> None:
    p = pod(
        "p",
        {"foo": ""},
        constraints=[
            tsc(1, "zone", selector=FOO),
            soft(2, "node", BAR, min_domains=3, affinity="Ignore", taints="Honor"),
        ],
    )
    hard = resolve_constraints(p.topology_spread_constraints, p.labels, DO_NOT_SCHEDULE)
    assert [
        (c.max_skew, c.topology_key, c.min_domains, c.node_affinity_policy, c.node_taints_policy)
        for c in hard
    ] == [(1, "zone", 1, "Honor", "Ignore")]
    soft_ones = resolve_constraints(p.topology_spread_constraints, p.labels, SCHEDULE_ANYWAY)
    assert [
        (c.max_skew, c.topology_key, c.min_domains, c.node_affinity_policy, c.node_taints_policy)
        for c in soft_ones
    ] == [(2, "node", 3, "Ignore", "Honor")]


# -- DefaultSelector ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("workloads", "owner", "want"),
    [
        pytest.param([], None, (), id="nothing selects the pod"),
        pytest.param([service({"foo": "bar"})], None, labels_in(foo="bar"), id="matching service"),
        pytest.param([service({"baz": "kep"})], None, (), id="service not matching"),
        pytest.param([service({"foo": "bar"}, namespace="other")], None, (), id="other namespace"),
        pytest.param([service(None)], None, (), id="nil service selector selects nothing"),
        pytest.param(
            [service({"foo": "bar"}), service({"baz": "kar"})],
            None,
            labels_in(baz="kar", foo="bar"),
            id="two services merge",
        ),
        pytest.param(
            [workload("ReplicaSet", "rs1", FOO)],
            ("ReplicaSet", "rs1"),
            sel(FOO).requirements,
            id="owning replicaset",
        ),
        pytest.param(
            [workload("ReplicaSet", "rs1", FOO)],
            ("ReplicaSet", "rs2"),
            (),
            id="replicaset not found",
        ),
        pytest.param(
            [workload("StatefulSet", "ss1", FOO), service({"foo": "bar"})],
            ("StatefulSet", "ss1"),
            labels_in(foo="bar") + sel(FOO).requirements,
            id="service plus statefulset",
        ),
        pytest.param(
            [workload("ReplicationController", "rc1", {"app": "x"})],
            ("ReplicationController", "rc1"),
            labels_in(app="x"),
            id="replicationcontroller map",
        ),
        pytest.param(
            [workload("ReplicaSet", "rs1", {})],
            ("ReplicaSet", "rs1"),
            (),
            id="empty replicaset selector adds nothing",
        ),
        pytest.param(
            [workload("ReplicaSet", "rs1", FOO)],
            ("Deployment", "rs1"),
            (),
            id="unsupported owner kind",
        ),
    ],
)
def test_default_selector(
    workloads: list[Workload], owner: tuple[str, str] | None, want: tuple[Requirement, ...]
) -> None:
    cluster = Cluster()
    for w in workloads:
        {
            "Service": cluster.services,
            "ReplicaSet": cluster.replica_sets,
            "StatefulSet": cluster.stateful_sets,
            "ReplicationController": cluster.replication_controllers,
        }[w.kind].append(w)
    p = pod("p", {"foo": "bar", "baz": "kar"}, owner=owner)
    assert default_selector(p, cluster).requirements == want


# -- criticalPaths ---------------------------------------------------------------------


def test_critical_paths_track_the_two_smallest() -> None:
    paths = CriticalPaths()
    for value, num in [("a", 3), ("b", 1), ("c", 2), ("d", 5)]:
        paths.update(value, num)
    assert paths.pairs() == (("b", 1), ("c", 2))
    paths.update("b", 4)  # the minimum grows past the second: they swap
    assert paths.pairs() == (("c", 2), ("b", 4))
    copy = paths.clone()
    copy.update("c", 0)
    assert paths.pairs() == (("c", 2), ("b", 4))
    assert copy.pairs() == (("c", 0), ("b", 4))


# -- counting --------------------------------------------------------------------------


def test_match_counter_follows_pod_changes() -> None:
    info = NodeInfo(node("n1"))
    counter = MatchCounter()
    key = counter.key(sel(FOO), "default")
    assert counter.key(sel({}), "default") is None
    assert counter.key(None, "default") is None
    info.add_pod(pod("a", {"foo": ""}, on="n1"))
    info.add_pod(pod("b", {"foo": ""}, on="n1", namespace="other"))
    info.add_pod(pod("c", {"foo": ""}, on="n1", terminating=True))
    assert counter.count(info, key) == 1
    extra = pod("d", {"foo": "x"}, on="n1")
    info.add_pod(extra)
    assert counter.count(info, key) == 2
    clone = info.clone()
    clone.remove_pod(extra)
    assert counter.count(clone, key) == 1
    assert counter.count(info, key) == 2
    assert counter.count(info, None) == 0


@pytest.mark.parametrize(
    ("value", "want"),
    [(0.0, 0), (0.49999999999999994, 0), (0.5, 1), (1.5, 2), (2.5, 3), (2.4999, 2), (-2.5, -3)],
)
def test_go_round_halves_away_from_zero(value: float, want: int) -> None:
    assert go_round(value) == want
