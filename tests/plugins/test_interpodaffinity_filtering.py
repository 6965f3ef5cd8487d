"""InterPodAffinity PreFilter and Filter, ported from kube-scheduler's filtering_test.go.

The Go tests' default namespace "" is "default" here; the two cases about
selector values the API server rejects are left out (ksched never sees such pods).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod
from ksched_cli.framework.status import Code, Status
from tests.plugins.test_interpodaffinity import (
    Raw,
    affinity,
    node,
    pod,
    run_filters,
    sel,
    t_exists,
    t_in,
    t_not_in,
    term,
)

AFF = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) didn't match pod affinity rules")
ANTI = Status(Code.UNSCHEDULABLE, "node(s) didn't match pod anti-affinity rules")
EXISTING = Status(Code.UNSCHEDULABLE, "node(s) didn't satisfy existing pods anti-affinity rules")
SKIP = Status(Code.SKIP)

SERVICE = {"service": "securityscan"}
SECURITY = {"security": "S1"}
NODE1 = node("node1", {"region": "r1", "zone": "z11"})
TEAM1 = sel(("team", "In", ["team1"]))
IN_SCAN = sel(("service", "In", ["securityscan", "value2"]))


def on_node1(labels: dict[str, str] = SERVICE, ns: str = "default", aff: Raw | None = None) -> Pod:
    return pod(labels, "node1", ns=ns, aff=aff)


def _single_node_cases() -> list[object]:
    two_terms_ok = [
        term(sel(("service", "Exists", ()), ("wrongkey", "DoesNotExist", ())), "region"),
        term(
            sel(("service", "In", ["securityscan"]), ("service", "NotIn", ["WrongValue"])), "region"
        ),
    ]
    two_terms_bad = [
        two_terms_ok[0],
        term(
            sel(("service", "In", ["securityscan2"]), ("service", "NotIn", ["WrongValue"])),
            "region",
        ),
    ]
    aff_region = t_in("service", "region", "securityscan", "value2")
    anti_node = t_in("service", "node", "antivirusscan", "value2")
    anti_zone = t_in("service", "zone", "securityscan", "value2")
    return [
        pytest.param(
            pod(),
            [],
            SKIP,
            None,
            id="no required pod affinity on a node without pods",
        ),
        pytest.param(
            pod(SECURITY, aff=affinity(req=[aff_region])),
            [on_node1()],
            None,
            None,
            id="affinity In matches the existing pod",
        ),
        pytest.param(
            pod(
                SECURITY,
                aff=affinity(req=[t_not_in("service", "region", "securityscan3", "value3")]),
            ),
            [on_node1()],
            None,
            None,
            id="affinity NotIn matches the existing pod",
        ),
        pytest.param(
            pod(SECURITY, aff=affinity(req=[term(IN_SCAN, "", namespaces=["DiffNameSpace"])])),
            [on_node1(ns="ns")],
            None,
            AFF,
            id="affinity does not match a pod in another namespace",
        ),
        pytest.param(
            pod(SERVICE, aff=affinity(req=[t_in("service", "", "antivirusscan", "value2")])),
            [on_node1()],
            None,
            AFF,
            id="affinity selector does not match the existing pod",
        ),
        pytest.param(
            pod(SECURITY, aff=affinity(req=two_terms_ok)),
            [on_node1()],
            None,
            None,
            id="affinity with several operators in several terms",
        ),
        pytest.param(
            pod(SECURITY, aff=affinity(req=two_terms_bad)),
            [on_node1()],
            None,
            AFF,
            id="the requirements of a selector are ANDed",
        ),
        pytest.param(
            pod(SECURITY, aff=affinity(req=[aff_region], anti=[anti_node])),
            [on_node1()],
            None,
            None,
            id="affinity and anti-affinity both satisfied",
        ),
        pytest.param(
            pod(SECURITY, aff=affinity(req=[aff_region], anti=[anti_node])),
            [on_node1(aff=affinity(anti=[anti_node]))],
            None,
            None,
            id="affinity, anti-affinity and anti-affinity symmetry satisfied",
        ),
        pytest.param(
            pod(SECURITY, aff=affinity(req=[aff_region], anti=[anti_zone])),
            [on_node1()],
            None,
            ANTI,
            id="affinity satisfied but not anti-affinity",
        ),
        pytest.param(
            pod(SERVICE, aff=affinity(req=[aff_region], anti=[anti_node])),
            [on_node1(aff=affinity(anti=[anti_zone]))],
            None,
            EXISTING,
            id="anti-affinity symmetry with the existing pod not satisfied",
        ),
        pytest.param(
            pod(
                SERVICE, aff=affinity(req=[t_not_in("service", "region", "securityscan", "value2")])
            ),
            [pod(SERVICE)],
            None,
            AFF,
            id="affinity the pod itself does not match and no pod matches",
        ),
        pytest.param(
            pod(SERVICE),
            [on_node1(aff=affinity(anti=[anti_zone]))],
            None,
            EXISTING,
            id="existing anti-affinity respected without incoming anti-affinity",
        ),
        pytest.param(
            pod(SERVICE),
            [on_node1(aff=affinity(anti=[t_not_in("service", "zone", "securityscan", "value2")]))],
            SKIP,
            None,
            id="existing anti-affinity not matching skips the plugin",
        ),
        pytest.param(
            pod(
                SERVICE,
                aff=affinity(anti=[t_exists("service", "region"), t_exists("security", "region")]),
            ),
            [on_node1(SECURITY, aff=affinity(anti=[t_exists("security", "zone")]))],
            None,
            ANTI,
            id="incoming anti-affinity hits before existing anti-affinity",
        ),
        pytest.param(
            pod(
                SERVICE,
                aff=affinity(anti=[t_exists("service", "zone"), t_exists("security", "zone")]),
            ),
            [on_node1(SECURITY, aff=affinity(anti=[t_exists("security", "zone")]))],
            None,
            ANTI,
            id="symmetry a1: partial match on the incoming pod's terms",
        ),
        pytest.param(
            pod(SECURITY, aff=affinity(anti=[t_exists("security", "zone")])),
            [
                on_node1(
                    aff=affinity(anti=[t_exists("service", "zone"), t_exists("security", "zone")])
                )
            ],
            None,
            EXISTING,
            id="symmetry a2: partial match on the existing pod's terms",
        ),
        pytest.param(
            pod(
                {"abc": "", "xyz": ""},
                aff=affinity(anti=[t_exists("abc", "zone"), t_exists("def", "zone")]),
            ),
            [
                on_node1(
                    {"def": "", "xyz": ""},
                    aff=affinity(anti=[t_exists("abc", "zone"), t_exists("def", "zone")]),
                )
            ],
            None,
            ANTI,
            id="symmetry b1: both pods' terms partly match",
        ),
        pytest.param(
            pod(
                {"def": "", "xyz": ""},
                aff=affinity(anti=[t_exists("abc", "zone"), t_exists("def", "zone")]),
            ),
            [
                on_node1(
                    {"abc": "", "xyz": ""},
                    aff=affinity(anti=[t_exists("abc", "zone"), t_exists("def", "zone")]),
                )
            ],
            None,
            ANTI,
            id="symmetry b2: both pods' terms partly match",
        ),
        pytest.param(
            pod(SECURITY, aff=affinity(req=[term(IN_SCAN, "region", ns_selector=TEAM1)])),
            [on_node1(ns="subteam1.team1")],
            None,
            None,
            id="affinity with a matching namespace selector",
        ),
        pytest.param(
            pod(SECURITY, aff=affinity(req=[term(IN_SCAN, "region", ns_selector=TEAM1)])),
            [on_node1(ns="subteam1.team2")],
            None,
            AFF,
            id="affinity with a namespace selector not matching",
        ),
        pytest.param(
            pod(
                SECURITY,
                ns="subteam1.team1",
                aff=affinity(anti=[term(IN_SCAN, "zone", ns_selector=TEAM1)]),
            ),
            [on_node1(ns="subteam2.team1")],
            None,
            ANTI,
            id="anti-affinity with a matching namespace selector",
        ),
        pytest.param(
            pod(
                SECURITY,
                ns="subteam1.team1",
                aff=affinity(anti=[term(IN_SCAN, "zone", ns_selector={})]),
            ),
            [on_node1(ns="subteam2.team1")],
            None,
            ANTI,
            id="anti-affinity with an empty namespace selector matches all namespaces",
        ),
        pytest.param(
            pod(
                SECURITY,
                ns="subteam1.team1",
                aff=affinity(anti=[term(IN_SCAN, "zone", ns_selector=TEAM1)]),
            ),
            [on_node1(ns="subteam1.team2")],
            None,
            None,
            id="anti-affinity with a namespace selector not matching",
        ),
    ]


@pytest.mark.parametrize(("incoming", "pods", "want_pre", "want"), _single_node_cases())
def test_required_affinity_single_node(
    incoming: Pod, pods: list[Pod], want_pre: Status | None, want: Status | None
) -> None:
    pre, statuses = run_filters(incoming, [p for p in pods if p.node_name], [NODE1])
    assert pre == want_pre
    if pre is None:
        assert statuses == [want]


CHINA = {"region": "China"}
CHINA_AZ1 = {"region": "China", "az": "az1"}
INDIA = {"region": "India"}


def _rz(name: str, zone: str) -> Node:
    """A node in region r1 and ``zone``, with a hostname label."""
    return node(name, {"region": "r1", "zone": zone, "hostname": name})


def _multi_node_cases() -> list[object]:
    foo_bar_zone = affinity(
        req=[t_in("foo", "zone", "bar"), t_in("service", "zone", "securityscan")]
    )
    group = {"foo": "bar", "service": "securityscan"}
    return [
        pytest.param(
            pod(aff=affinity(req=[t_in("foo", "region", "bar")])),
            [pod({"foo": "bar"}, "node1")],
            [node("node1", CHINA), node("node2", CHINA_AZ1), node("node3", INDIA)],
            None,
            [None, None, AFF],
            id="every node in the topology of a matching pod fits",
        ),
        pytest.param(
            pod(group, aff=foo_bar_zone),
            [pod({"foo": "bar"}, "nodeA")],
            [
                node("nodeA", {"zone": "az1", "hostname": "h1"}),
                node("nodeB", {"zone": "az2", "hostname": "h2"}),
            ],
            None,
            [None, None],
            id="the first pod of a self-affine group may go to any node",
        ),
        pytest.param(
            pod(group, aff=foo_bar_zone),
            [pod({"foo": "bar"}, "nodeA")],
            [
                node("nodeA", {"zoneLabel": "az1", "hostname": "h1"}),
                node("nodeB", {"zoneLabel": "az2", "hostname": "h2"}),
            ],
            None,
            [AFF, AFF],
            id="the first pod of a group still needs the topology keys",
        ),
        pytest.param(
            pod(aff=affinity(anti=[t_in("foo", "region", "abc")])),
            [pod({"foo": "abc"}, "nodeA")],
            [
                node("nodeA", {"region": "r1", "hostname": "nodeA"}),
                node("nodeB", {"region": "r1", "hostname": "nodeB"}),
            ],
            None,
            [ANTI, ANTI],
            id="anti-affinity covers every node of the matching pod's topology",
        ),
        pytest.param(
            pod(
                aff=affinity(
                    anti=[t_in("foo", "region", "abc"), t_in("service", "zone", "securityscan")]
                )
            ),
            [pod({"foo": "abc", "service": "securityscan"}, "nodeA")],
            [_rz("nodeA", "z1"), _rz("nodeB", "z2")],
            None,
            [ANTI, ANTI],
            id="anti-affinity applies when any term matches",
        ),
        pytest.param(
            pod(aff=affinity(anti=[t_in("foo", "region", "abc")])),
            [pod({"foo": "abc"}, "nodeA")],
            [node("nodeA", CHINA), node("nodeB", CHINA_AZ1), node("nodeC", INDIA)],
            None,
            [ANTI, ANTI, None],
            id="anti-affinity leaves other topologies free",
        ),
        pytest.param(
            pod({"foo": "123"}, ns="NS1", aff=affinity(anti=[t_in("foo", "region", "bar")])),
            [
                pod({"foo": "bar"}, "nodeA", ns="NS1"),
                pod(None, "nodeC", ns="NS2", aff=affinity(anti=[t_in("foo", "region", "123")])),
            ],
            [node("nodeA", CHINA), node("nodeB", CHINA_AZ1), node("nodeC", INDIA)],
            None,
            [ANTI, ANTI, None],
            id="an existing pod's anti-affinity is limited to its namespace",
        ),
        pytest.param(
            pod({"foo": ""}),
            [pod(None, "nodeA", aff=affinity(anti=[t_exists("foo", "invalid-node-label")]))],
            [_rz("nodeA", "z1"), _rz("nodeB", "z1")],
            SKIP,
            [],
            id="existing anti-affinity on a topology key no node has skips the plugin",
        ),
        pytest.param(
            pod(aff=affinity(anti=[t_exists("foo", "invalid-node-label")])),
            [pod({"foo": ""}, "nodeA")],
            [_rz("nodeA", "z1"), _rz("nodeB", "z1")],
            None,
            [None, None],
            id="incoming anti-affinity also needs the topology key",
        ),
        pytest.param(
            pod({"foo": "", "bar": ""}),
            [
                pod(None, "nodeA", aff=affinity(anti=[t_exists("foo", "zone")])),
                pod(None, "nodeA", aff=affinity(anti=[t_exists("bar", "region")])),
            ],
            [_rz("nodeA", "z1"), _rz("nodeB", "z2")],
            None,
            [EXISTING, EXISTING],
            id="existing pods' anti-affinity violated on every node",
        ),
        pytest.param(
            pod(aff=affinity(anti=[t_exists("foo", "zone"), t_exists("bar", "region")])),
            [pod({"foo": ""}, "nodeA"), pod({"bar": ""}, "nodeB")],
            [_rz("nodeA", "z1"), _rz("nodeB", "z2")],
            None,
            [ANTI, ANTI],
            id="incoming anti-affinity violated on every node",
        ),
        pytest.param(
            pod({"foo": "", "bar": ""}),
            [
                pod(
                    None,
                    "nodeA",
                    aff=affinity(
                        anti=[t_exists("foo", "invalid-node-label"), t_exists("bar", "zone")]
                    ),
                )
            ],
            [_rz("nodeA", "z1"), _rz("nodeB", "z2")],
            None,
            [EXISTING, None],
            id="existing anti-affinity: a term counts only with its topology key",
        ),
        pytest.param(
            pod(
                aff=affinity(anti=[t_exists("foo", "invalid-node-label"), t_exists("bar", "zone")])
            ),
            [pod({"foo": "", "bar": ""}, "nodeA")],
            [_rz("nodeA", "z1"), _rz("nodeB", "z2")],
            None,
            [ANTI, None],
            id="incoming anti-affinity: a term counts only with its topology key",
        ),
        pytest.param(
            pod({"foo": "", "bar": ""}),
            [
                pod(
                    None,
                    "nodeA",
                    aff=affinity(anti=[t_exists("foo", "region"), t_exists("bar", "zone")]),
                )
            ],
            [_rz("nodeA", "z1"), _rz("nodeB", "z2")],
            None,
            [EXISTING, EXISTING],
            id="existing anti-affinity: every term with a valid topology key",
        ),
        pytest.param(
            pod(aff=affinity(anti=[t_exists("foo", "region"), t_exists("bar", "zone")])),
            [pod({"foo": "", "bar": ""}, "nodeA")],
            [_rz("nodeA", "z1"), _rz("nodeB", "z2")],
            None,
            [ANTI, ANTI],
            id="incoming anti-affinity: every term with a valid topology key",
        ),
        pytest.param(
            pod({"foo": "", "bar": ""}),
            [
                pod(
                    None,
                    "nodeA",
                    aff=affinity(anti=[t_exists("foo", "zone"), t_exists("labelA", "zone")]),
                ),
                pod(
                    None,
                    "nodeB",
                    aff=affinity(anti=[t_exists("bar", "zone"), t_exists("labelB", "zone")]),
                ),
            ],
            [_rz("nodeA", "z1"), _rz("nodeB", "z2"), _rz("nodeC", "z3")],
            None,
            [EXISTING, EXISTING, None],
            id="existing anti-affinity leaves only the third zone",
        ),
        pytest.param(
            pod(aff=affinity(req=[t_exists("foo", "region"), t_exists("bar", "zone")])),
            [pod({"foo": "", "bar": ""}, "nodeA")],
            [_rz("nodeA", "z1"), _rz("nodeB", "z1")],
            None,
            [None, None],
            id="affinity: all terms match one pod, then all topology keys",
        ),
        pytest.param(
            pod(aff=affinity(req=[t_exists("foo", "region"), t_exists("bar", "zone")])),
            [pod({"foo": ""}, "nodeA"), pod({"bar": ""}, "nodeB")],
            [_rz("nodeA", "z1"), _rz("nodeB", "z2")],
            None,
            [AFF, AFF],
            id="affinity: the terms must all match the same pod",
        ),
    ]


@pytest.mark.parametrize(("incoming", "pods", "nodes", "want_pre", "want"), _multi_node_cases())
def test_required_affinity_multiple_nodes(
    incoming: Pod,
    pods: list[Pod],
    nodes: list[Node],
    want_pre: Status | None,
    want: Sequence[Status | None],
) -> None:
    pre, statuses = run_filters(incoming, pods, nodes)
    assert pre == want_pre
    assert statuses == list(want)


def test_first_pod_rule_ends_once_a_pod_matches() -> None:
    """Once some pod matches all terms, nodes outside its topology are rejected."""
    group = {"app": "web"}
    incoming = pod(group, aff=affinity(req=[t_in("app", "zone", "web")]))
    nodes = [_rz("nodeA", "z1"), _rz("nodeB", "z2")]
    assert run_filters(incoming, [], nodes) == (None, [None, None])
    assert run_filters(incoming, [pod(group, "nodeA")], nodes) == (None, [None, AFF])


def test_reasons_follow_kube_scheduler_order() -> None:
    """Affinity is checked first, then the pod's anti-affinity, then existing pods'."""
    incoming = pod(
        {"app": "a"},
        aff=affinity(req=[t_in("app", "zone", "b")], anti=[t_in("app", "region", "c")]),
    )
    pods = [
        pod({"app": "b"}, "nodeA"),
        pod({"app": "c"}, "nodeB"),
        pod(None, "nodeC", aff=affinity(anti=[t_in("app", "region", "a")])),
    ]
    nodes = [
        node("nodeA", {"region": "r1", "zone": "z1"}),
        node("nodeB", {"region": "r2", "zone": "z1"}),
        node("nodeC", {"region": "r3", "zone": "z1"}),
        node("nodeD", {"region": "r2", "zone": "z2"}),
        node("nodeE", {"region": "r4"}),
    ]
    assert run_filters(incoming, pods, nodes) == (None, [None, ANTI, EXISTING, AFF, AFF])
