"""InterPodAffinity's and PodTopologySpread's pod hints, v1.35 against v1.36
(switch ``nominated_pod_hints_v2``).

Rows are the add and delete rows of v1.36.2's Test_isSchedulableAfterPodChange tables
(interpodaffinity/plugin_test.go, podtopologyspread/plugin_test.go), with v1.35.7's answer
from its code beside. The update rows have no counterpart: a plan sends no pod update
events. Rows marked "code" follow the code where the tables have no row.
"""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.api.pod import Pod
from ksched_cli.engine.queueing_hints import (
    ADD,
    AFTER_BACKOFF,
    DELETE,
    SKIP,
    PodEvent,
    worth_requeuing,
)
from ksched_cli.framework.types import QueuedPodInfo
from ksched_cli.plugins.podtopologyspread.plugin import PodTopologySpread
from ksched_cli.versions.releases import release
from tests.fakes import FakeHandle, make_node, make_pod

Q, S = AFTER_BACKOFF, SKIP


def _required(kind: str, key: str, values: list[str]) -> dict[str, Any]:
    """PodAffinityIn / PodAntiAffinityIn(key, "region", values, required)."""
    term = {
        "labelSelector": {
            "matchExpressions": [{"key": key, "operator": "In", "values": values}]
        },
        "topologyKey": "region",
    }
    return {"affinity": {kind: {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}}


def _anti(key: str, values: list[str]) -> dict[str, Any]:
    return _required("podAntiAffinity", key, values)


def _affinity(key: str, values: list[str]) -> dict[str, Any]:
    return _required("podAffinity", key, values)


SCAN = ["securityscan", "value2"]


def _pod(name: str, labels: dict[str, str] | None = None, spec: dict[str, Any] | None = None,
         node: str = "", nominated: str = "", namespace: str = "default") -> Pod:
    pod = make_pod(name, node=node, labels=labels, spec=spec, namespace=namespace)
    pod.nominated_node_name = nominated
    return pod


def _event(action: str, pod: Pod) -> PodEvent:
    return PodEvent(action, pod, pod.node_name)


def _judge(rejector: str, target: Pod, event: PodEvent, plugins: dict[str, Any]) -> list[str]:
    info = QueuedPodInfo(pod=target)
    info.unschedulable_plugins = {rejector}
    return [
        worth_requeuing(info, event, plugins, release(v).features) for v in ("1.35", "1.36")
    ]


AFFINITY_TARGET = _pod("p", spec=_affinity("service", SCAN))
ANTI_TARGET = _pod("p", spec=_anti("service", SCAN))

IPA_ROWS = [
    ("add a pod which matches the pod affinity", AFFINITY_TARGET,
     _event(ADD, _pod("other", {"service": "securityscan"}, node="fake-node")), Q, Q),
    ("add an un-scheduled pod", AFFINITY_TARGET,
     _event(ADD, _pod("other", {"service": "securityscan"})), S, S),
    ("add a pod which doesn't match the pod affinity", AFFINITY_TARGET,
     _event(ADD, _pod("other", {"aaa": "a"}, node="fake-node")), S, S),
    ("delete a pod which doesn't match pod's anti-affinity", ANTI_TARGET,
     _event(DELETE, _pod("other", {"aaa": "a"}, node="fake-node")), S, S),
    ("delete a pod which matches pod's anti-affinity", ANTI_TARGET,
     _event(DELETE, _pod("other", {"service": "securityscan"}, node="fake-node")), Q, Q),
    ("delete a pod with anti-affinity that matches pending pod",
     _pod("p", {"service": "securityscan"}),
     _event(DELETE, _pod("other", node="fake-node", spec=_anti("service", SCAN))), S, Q),
    ("delete a pod with anti-affinity that doesn't match pending pod",
     _pod("p", {"service": "foo"}),
     _event(DELETE, _pod("other", node="fake-node", spec=_anti("service", SCAN))), S, S),
    ("delete a pod which doesn't match pending pod's anti-affinity and has anti-affinity "
     "that doesn't match pending pod", _pod("p", {"service": "foo"}, _anti("service", SCAN)),
     _event(DELETE, _pod("other", {"service": "foo"}, _anti("service", SCAN),
                         node="fake-node")), S, S),
    ("delete a nominated pod which doesn't match pod's anti-affinity", ANTI_TARGET,
     _event(DELETE, _pod("other", {"aaa": "a"}, nominated="fake-node")), S, S),
    ("delete a nominated pod which matches pod's anti-affinity", ANTI_TARGET,
     _event(DELETE, _pod("other", {"service": "securityscan"}, nominated="fake-node")), S, Q),
    # code: the reverse check applies to a nominated pod too.
    ("code: delete a nominated pod with anti-affinity that matches pending pod",
     _pod("p", {"service": "securityscan"}),
     _event(DELETE, _pod("other", spec=_anti("service", SCAN), nominated="fake-node")), S, Q),
    # code: a pod neither bound nor nominated is skipped before any term is read.
    ("code: delete an unscheduled pod with anti-affinity that matches pending pod",
     _pod("p", {"service": "securityscan"}),
     _event(DELETE, _pod("other", spec=_anti("service", SCAN))), S, S),
    # code: the pending pod's own nomination ending (its own failed attempt) is judged as
    # any other pod's: a pod repelling its own labels is queued.
    ("code: own nomination ended, anti-affinity to its own labels",
     _pod("p", {"service": "securityscan"}, _anti("service", SCAN)),
     _event(DELETE, _pod("p", {"service": "securityscan"}, _anti("service", SCAN),
                         nominated="fake-node")), S, Q),
]


@pytest.mark.parametrize(("name", "target", "event", "want_135", "want_136"), IPA_ROWS,
                         ids=[row[0] for row in IPA_ROWS])
def test_inter_pod_affinity_pod_hint(
    name: str, target: Pod, event: PodEvent, want_135: str, want_136: str
) -> None:
    assert _judge("InterPodAffinity", target, event, {}) == [want_135, want_136], name


FOO_SPREAD = {
    "topologySpreadConstraints": [
        {
            "maxSkew": 1,
            "topologyKey": "zone",
            "whenUnsatisfiable": "DoNotSchedule",
            "labelSelector": {"matchExpressions": [{"key": "foo", "operator": "Exists"}]},
        }
    ]
}
SPREAD_TARGET = _pod("p", {"foo": ""}, FOO_SPREAD)

PTS_ROWS = [
    ("add pod with labels match topologySpreadConstraints selector",
     _event(ADD, _pod("p2", {"foo": ""}, node="fake-node")), Q, Q),
    ("add un-scheduled pod", _event(ADD, _pod("p2", {"foo": ""})), S, S),
    ("delete un-scheduled pod", _event(DELETE, _pod("p2", {"foo": ""})), S, S),
    ("add pod with different namespace",
     _event(ADD, _pod("p2", {"foo": ""}, node="fake-node", namespace="fake-namespace")), S, S),
    ("add pod with labels don't match topologySpreadConstraints selector",
     _event(ADD, _pod("p2", {"bar": ""}, node="fake-node")), S, S),
    ("delete pod with labels that match topologySpreadConstraints selector",
     _event(DELETE, _pod("p2", {"foo": ""}, node="fake-node")), Q, Q),
    ("delete nominated pod with labels that don't match topologySpreadConstraints selector",
     _event(DELETE, _pod("p2", {"bar": ""}, nominated="fake-node")), S, S),
    ("delete nominated pod with labels that match topologySpreadConstraints selector",
     _event(DELETE, _pod("p2", {"foo": ""}, nominated="fake-node")), S, Q),
    ("delete pod with labels that don't match topologySpreadConstraints selector",
     _event(DELETE, _pod("p2", {"bar": ""}, node="fake-node")), S, S),
    # code: a nominated pod of another namespace is not involved.
    ("code: delete nominated pod of another namespace",
     _event(DELETE, _pod("p2", {"foo": ""}, nominated="fake-node", namespace="other")), S, S),
    # code: the pending pod itself is involved in both releases (same UID).
    ("code: own nomination ended", _event(DELETE, _pod("p", {"foo": ""}, FOO_SPREAD,
                                                       nominated="fake-node")), Q, Q),
]


@pytest.mark.parametrize(("name", "event", "want_135", "want_136"), PTS_ROWS,
                         ids=[row[0] for row in PTS_ROWS])
def test_pod_topology_spread_pod_hint(
    name: str, event: PodEvent, want_135: str, want_136: str
) -> None:
    plugin = PodTopologySpread(None, FakeHandle([make_node("fake-node")]))
    plugins = {"PodTopologySpread": plugin}
    assert _judge("PodTopologySpread", SPREAD_TARGET, event, plugins) == [
        want_135, want_136
    ], name


@pytest.mark.parametrize(("version", "on"), [("1.33", False), ("1.35", False), ("1.36", True)])
def test_switch_from_136(version: str, on: bool) -> None:
    assert release(version).features.nominated_pod_hints_v2 is on
