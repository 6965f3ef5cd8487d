"""Queueing hints for node events (v1.32+), table-driven.

Rows follow v1.32.5's plugin tests for ``isSchedulableAfterNodeChange`` (nodeaffinity,
noderesources/fit, tainttoleration, nodeunschedulable, podtopologyspread, interpodaffinity;
v1.33's interpodaffinity rows for the old-node comparison) and scheduler_test
``Test_buildQueueingHintMap`` (the UpdateNodeTaint work-around).
"""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.engine.actions import (
    ADD,
    DELETE,
    UPDATE_NODE_ALLOCATABLE,
    UPDATE_NODE_LABEL,
    UPDATE_NODE_TAINT,
)
from ksched_cli.engine.node_hints import NodeEvent, interested, registrations
from ksched_cli.engine.queue import SchedulingQueue
from ksched_cli.engine.queueing_hints import AFTER_BACKOFF, IMMEDIATELY, SKIP, worth_requeuing
from ksched_cli.framework.types import QueuedPodInfo
from ksched_cli.plugins.podtopologyspread.plugin import PodTopologySpread
from ksched_cli.versions.releases import release
from tests.fakes import FakeHandle, make_node, make_pod

V132 = release("1.32").features
V136 = release("1.36").features
TAINT = {"key": "dedicated", "value": "x", "effect": "NoSchedule"}


def _info(rejectors: set[str], spec: dict[str, Any] | None = None, cpu: str | None = None,
          labels: dict[str, str] | None = None, pending: set[str] | None = None,
          ) -> QueuedPodInfo:
    info = QueuedPodInfo(pod=make_pod("target", cpu=cpu, spec=spec, labels=labels))
    info.unschedulable_plugins = set(rejectors)
    info.pending_plugins = set(pending or ())
    return info


def _added(node: Any) -> NodeEvent:
    return NodeEvent(ADD, None, node, "NodeAdd")


def _updated(action: int, old: Any, new: Any) -> NodeEvent:
    return NodeEvent(action, old, new, "NodeUpdate")


SSD = {"nodeSelector": {"disk": "ssd"}}


@pytest.mark.parametrize(
    ("name", "event", "want"),
    [
        ("queue-on-add-matching", _added(make_node("n", labels={"disk": "ssd"})), AFTER_BACKOFF),
        ("skip-on-add-unmatched", _added(make_node("n")), SKIP),
        ("queue-on-label-now-matching", _updated(
            UPDATE_NODE_LABEL, make_node("n"), make_node("n", labels={"disk": "ssd"})),
         AFTER_BACKOFF),
        ("skip-on-label-still-matching", _updated(
            UPDATE_NODE_LABEL, make_node("n", labels={"disk": "ssd"}),
            make_node("n", labels={"disk": "ssd", "x": "y"})), SKIP),
        ("skip-on-label-unmatched", _updated(
            UPDATE_NODE_LABEL, make_node("n"), make_node("n", labels={"x": "y"})), SKIP),
        # Node/Add without UpdateNodeTaint gains it, always Queue (buildQueueingHintMap).
        ("queue-on-taint-change-fallback", _updated(
            UPDATE_NODE_TAINT, make_node("n"), make_node("n", taints=[TAINT])), AFTER_BACKOFF),
        ("skip-on-allocatable-change", _updated(
            UPDATE_NODE_ALLOCATABLE, make_node("n"), make_node("n", cpu="8")), SKIP),
    ],
)
def test_node_affinity_hint(name: str, event: NodeEvent, want: str) -> None:
    info = _info({"NodeAffinity"}, SSD)
    assert worth_requeuing(info, event, {"NodeAffinity": object()}, V132) == want, name


@pytest.mark.parametrize(
    ("name", "event", "want"),
    [
        ("queue-on-add-fitting", _added(make_node("n", cpu="4")), AFTER_BACKOFF),
        ("skip-on-add-too-small", _added(make_node("n", cpu="1")), SKIP),
        ("queue-on-cpu-increase", _updated(
            UPDATE_NODE_ALLOCATABLE, make_node("n", cpu="1"), make_node("n", cpu="4")),
         AFTER_BACKOFF),
        ("skip-on-increase-still-too-small", _updated(
            UPDATE_NODE_ALLOCATABLE, make_node("n", cpu="1"), make_node("n", cpu="1500m")), SKIP),
        ("skip-on-unrequested-increase", _updated(
            UPDATE_NODE_ALLOCATABLE, make_node("n", cpu="4"), make_node("n", cpu="4",
                                                                         memory="16Gi")), SKIP),
        ("queue-on-pods-increase", _updated(
            UPDATE_NODE_ALLOCATABLE, make_node("n", pods="1"), make_node("n", pods="2")),
         AFTER_BACKOFF),
        ("skip-on-label-change", _updated(
            UPDATE_NODE_LABEL, make_node("n", cpu="1"), make_node("n", cpu="4")), SKIP),
    ],
)
def test_fit_hint(name: str, event: NodeEvent, want: str) -> None:
    info = _info({"NodeResourcesFit"}, cpu="2")
    assert worth_requeuing(info, event, {"NodeResourcesFit": object()}, V132) == want, name


@pytest.mark.parametrize(
    ("name", "event", "want"),
    [
        ("queue-on-add-untainted", _added(make_node("n")), AFTER_BACKOFF),
        ("skip-on-add-tainted", _added(make_node("n", taints=[TAINT])), SKIP),
        ("queue-on-taint-removed", _updated(
            UPDATE_NODE_TAINT, make_node("n", taints=[TAINT]), make_node("n")), AFTER_BACKOFF),
        ("skip-on-taint-added", _updated(
            UPDATE_NODE_TAINT, make_node("n"), make_node("n", taints=[TAINT])), SKIP),
        ("skip-on-label-change", _updated(
            UPDATE_NODE_LABEL, make_node("n", taints=[TAINT]), make_node("n")), SKIP),
    ],
)
def test_taint_toleration_hint(name: str, event: NodeEvent, want: str) -> None:
    info = _info({"TaintToleration"})
    assert worth_requeuing(info, event, {"TaintToleration": object()}, V132) == want, name


@pytest.mark.parametrize(
    ("name", "event", "want"),
    [
        ("queue-on-add-schedulable", _added(make_node("n")), AFTER_BACKOFF),
        ("skip-on-add-unschedulable", _added(make_node("n", unschedulable=True)), SKIP),
        ("queue-on-uncordon", _updated(
            UPDATE_NODE_TAINT, make_node("n", unschedulable=True), make_node("n")),
         AFTER_BACKOFF),
        ("skip-on-still-unschedulable", _updated(
            UPDATE_NODE_TAINT, make_node("n", unschedulable=True),
            make_node("n", unschedulable=True, taints=[TAINT])), SKIP),
    ],
)
def test_node_unschedulable_hint(name: str, event: NodeEvent, want: str) -> None:
    info = _info({"NodeUnschedulable"})
    assert worth_requeuing(info, event, {"NodeUnschedulable": object()}, V132) == want, name


SPREAD = {
    "topologySpreadConstraints": [
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchLabels": {"app": "web"}}},
        {"maxSkew": 1, "topologyKey": "node", "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchLabels": {"app": "web"}}},
    ]
}
BOTH = {"zone": "a", "node": "n"}


@pytest.mark.parametrize(
    ("name", "event", "want"),
    [
        ("queue-on-add-with-keys", _added(make_node("n", labels=BOTH)), AFTER_BACKOFF),
        ("skip-on-add-missing-a-key", _added(make_node("n", labels={"zone": "a"})), SKIP),
        ("queue-on-delete-with-keys", NodeEvent(DELETE, make_node("n", labels=BOTH), None, "D"),
         AFTER_BACKOFF),
        ("skip-on-delete-missing-a-key", NodeEvent(
            DELETE, make_node("n", labels={"node": "n"}), None, "D"), SKIP),
        ("queue-on-key-value-change", _updated(
            UPDATE_NODE_LABEL, make_node("n", labels=BOTH),
            make_node("n", labels={"zone": "b", "node": "n"})), AFTER_BACKOFF),
        ("queue-on-now-matching", _updated(
            UPDATE_NODE_LABEL, make_node("n", labels={"zone": "a"}), make_node("n", labels=BOTH)),
         AFTER_BACKOFF),
        ("skip-on-unrelated-label", _updated(
            UPDATE_NODE_LABEL, make_node("n", labels=BOTH),
            make_node("n", labels={**BOTH, "x": "y"})), SKIP),
        ("queue-on-taint-change-matching", _updated(
            UPDATE_NODE_TAINT, make_node("n", labels=BOTH),
            make_node("n", labels=BOTH, taints=[TAINT])), AFTER_BACKOFF),
        ("skip-on-taint-change-unmatched", _updated(
            UPDATE_NODE_TAINT, make_node("n"), make_node("n", taints=[TAINT])), SKIP),
    ],
)
def test_pod_topology_spread_node_hint(name: str, event: NodeEvent, want: str) -> None:
    plugin = PodTopologySpread(None, FakeHandle([make_node("n1")]))
    info = _info({"PodTopologySpread"}, SPREAD, labels={"app": "web"})
    assert worth_requeuing(info, event, {"PodTopologySpread": plugin}, V132) == want, name


def _affinity(kind: str) -> dict[str, Any]:
    term = {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": "zone"}
    return {"affinity": {kind: {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}}


@pytest.mark.parametrize(
    ("name", "kind", "event", "want_132", "want_136"),
    [
        ("affinity-add-with-key", "podAffinity", _added(make_node("n", labels={"zone": "a"})),
         AFTER_BACKOFF, AFTER_BACKOFF),
        ("affinity-add-without-key", "podAffinity", _added(make_node("n")), SKIP, SKIP),
        # v1.33 compares the old node: an unchanged key no longer queues.
        ("affinity-label-unchanged-key", "podAffinity", _updated(
            UPDATE_NODE_LABEL, make_node("n", labels={"zone": "a"}),
            make_node("n", labels={"zone": "a", "x": "y"})), AFTER_BACKOFF, SKIP),
        ("affinity-label-key-changed", "podAffinity", _updated(
            UPDATE_NODE_LABEL, make_node("n", labels={"zone": "a"}),
            make_node("n", labels={"zone": "b"})), AFTER_BACKOFF, AFTER_BACKOFF),
        # v1.33 always queues an anti-affinity pod on a new node.
        ("anti-add-without-key", "podAntiAffinity", _added(make_node("n")), SKIP, AFTER_BACKOFF),
        ("anti-label-key-removed", "podAntiAffinity", _updated(
            UPDATE_NODE_LABEL, make_node("n", labels={"zone": "a"}), make_node("n")),
         SKIP, AFTER_BACKOFF),
    ],
)
def test_inter_pod_affinity_node_hint(
    name: str, kind: str, event: NodeEvent, want_132: str, want_136: str
) -> None:
    info = _info({"InterPodAffinity"}, _affinity(kind))
    plugins = {"InterPodAffinity": object()}
    assert worth_requeuing(info, event, plugins, V132) == want_132, name
    assert worth_requeuing(info, event, plugins, V136) == want_136, name


@pytest.mark.parametrize(
    ("plugin", "action", "registered"),
    [
        ("NodeName", ADD, True),
        ("NodeName", UPDATE_NODE_TAINT, True),  # the work-around
        ("NodeName", UPDATE_NODE_LABEL, False),
        ("NodePorts", UPDATE_NODE_ALLOCATABLE, False),
        ("NodeResourcesFit", UPDATE_NODE_TAINT, True),
        ("NodeResourcesFit", UPDATE_NODE_LABEL, False),
        ("VolumeBinding", UPDATE_NODE_LABEL, True),
        ("VolumeRestrictions", UPDATE_NODE_LABEL, False),
        ("PodTopologySpread", DELETE, True),
        ("NodeAffinity", DELETE, False),
        ("SchedulingGates", ADD, False),
        ("NodeVolumeLimits", ADD, False),
        ("SomeOutOfTreePlugin", DELETE, True),  # no EnqueueExtensions: every event
    ],
)
def test_registrations(plugin: str, action: int, registered: bool) -> None:
    event = NodeEvent(action, make_node("n"), make_node("n"), "E")
    assert interested(plugin, event) is registered
    if plugin == "SomeOutOfTreePlugin":
        assert registrations(plugin) is None


def test_pending_plugin_queues_immediately() -> None:
    info = _info(set(), pending={"NodeResourcesFit"}, cpu="2")
    event = _added(make_node("n", cpu="4"))
    assert worth_requeuing(info, event, {"NodeResourcesFit": object()}, V132) == IMMEDIATELY


def test_no_rejector_queues_after_backoff() -> None:
    assert worth_requeuing(_info(set()), _added(make_node("n")), {}, V132) == AFTER_BACKOFF


class _Hints:
    """Only NodeResourcesFit is enabled; its hints decide."""

    def of_interest(self, event: Any) -> bool:
        return bool(interested("NodeResourcesFit", event))

    def worth_requeuing(self, info: QueuedPodInfo, event: Any) -> str:
        return worth_requeuing(info, event, {"NodeResourcesFit": object()}, V132)

    def concerns(self, info: QueuedPodInfo, event: Any) -> bool:
        return True


def test_queue_moves_only_hinted_pods_and_records_in_flight() -> None:
    queue = SchedulingQueue(lambda a, b: a.pod.load_index < b.pod.load_index, 1.0, 10.0, V132)
    queue.hints = _Hints()
    small = _info({"NodeResourcesFit"}, cpu="2")
    huge = QueuedPodInfo(pod=make_pod("huge", cpu="64"))
    huge.unschedulable_plugins = {"NodeResourcesFit"}
    queue.unschedulable = {small.pod.uid: small, huge.pod.uid: huge}
    in_flight = QueuedPodInfo(pod=make_pod("flying"))
    queue.add_active(in_flight)
    assert queue.pop() is in_flight
    moved = queue.move_with_hints(100.0, _added(make_node("n", cpu="4")))
    assert [i.pod.name for i in moved] == ["target"]
    assert set(queue.unschedulable) == {huge.pod.uid}
    # An event of no interest (a label change: Fit registers none) moves nothing.
    relabel = _updated(UPDATE_NODE_LABEL, make_node("n"), make_node("n", labels={"a": "b"}))
    assert queue.move_with_hints(100.0, relabel) == []
    # The in-flight pod saw the add: failing on Fit, the add's hint requeues it at once.
    in_flight.unschedulable_plugins = {"NodeResourcesFit"}
    queue.add_unschedulable(in_flight, 1, 100.0, has_rejectors=True)
    assert in_flight.pod.uid not in queue.unschedulable
