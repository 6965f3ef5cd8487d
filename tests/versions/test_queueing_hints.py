"""Queueing hints (v1.32+): the plugins' hints and the queue's moves, table-driven.

Hint rows follow the upstream tables: nodeports Test_isSchedulableAfterAssignedPodDeleted,
noderesources Test_isSchedulableAfterPodEvent (delete rows), interpodaffinity and
podtopologyspread Test_isSchedulableAfterPodChange (add/delete rows); queue rows follow
scheduling_queue_test TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithQueueingHint and
TestPriorityQueue_AddUnschedulableIfNotPresent (in-flight events).
"""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.engine.queue import SchedulingQueue
from ksched_cli.engine.queueing_hints import (
    ADD,
    AFTER_BACKOFF,
    DELETE,
    IMMEDIATELY,
    SKIP,
    PodEvent,
    crosses_topology,
    worth_requeuing,
)
from ksched_cli.framework.types import QueuedPodInfo
from ksched_cli.plugins import nodeports
from ksched_cli.plugins.podtopologyspread.plugin import PodTopologySpread
from ksched_cli.versions.releases import release
from tests.fakes import FakeHandle, make_node, make_pod


def _ports(*ports: int) -> dict[str, Any]:
    wanted = [{"containerPort": p, "hostPort": p} for p in ports]
    return {"containers": [{"name": "c", "image": "i", "ports": wanted}]}


ASSIGNED_ADD = PodEvent(ADD, make_pod("x", node="n1"), "n1")
ASSIGNED_DELETE = PodEvent(DELETE, make_pod("x", node="n1"), "n1")


def _info(pod_spec: dict[str, Any] | None = None, rejectors: set[str] | None = None,
          labels: dict[str, str] | None = None) -> QueuedPodInfo:
    info = QueuedPodInfo(pod=make_pod("target", spec=pod_spec, labels=labels))
    info.unschedulable_plugins = set(rejectors or ())
    return info


@pytest.mark.parametrize(
    ("name", "deleted_spec", "deleted_node", "want"),
    [
        ("skip-queue-on-unscheduled", _ports(8080), "", SKIP),
        ("skip-queue-on-non-hostport", None, "fake-node", SKIP),
        ("skip-queue-on-unrelated-hostport", _ports(8081), "fake-node", SKIP),
        ("queue-on-released-hostport", _ports(8080), "fake-node", AFTER_BACKOFF),
    ],
)
def test_node_ports_hint(
    name: str, deleted_spec: dict[str, Any] | None, deleted_node: str, want: str
) -> None:
    info = _info(_ports(8080), {"NodePorts"})
    deleted = make_pod("deleted", node=deleted_node, spec=deleted_spec)
    plugin = nodeports.Plugin(None, None)
    event = PodEvent(DELETE, deleted, deleted_node)
    assert worth_requeuing(info, event, {"NodePorts": plugin}) == want, name


@pytest.mark.parametrize(
    ("name", "event", "want"),
    [
        ("queue-on-deleted-assigned-pod", ASSIGNED_DELETE, AFTER_BACKOFF),
        ("skip-on-deleted-unscheduled-pod", PodEvent(DELETE, make_pod("x"), ""), SKIP),
        # Fit registers no Pod/Add: a bound pod never frees resources.
        ("skip-on-assigned-pod-add", ASSIGNED_ADD, SKIP),
    ],
)
def test_fit_hint(name: str, event: PodEvent, want: str) -> None:
    assert worth_requeuing(_info(rejectors={"NodeResourcesFit"}), event, {}) == want, name


def _nominated(spec: dict[str, Any] | None = None) -> PodEvent:
    """A pending pod whose nomination to n1 ended: deleted, as the queue sees it."""
    pod = make_pod("nominated", spec=spec)
    pod.nominated_node_name = "n1"
    return PodEvent(DELETE, pod, "")


@pytest.mark.parametrize(
    ("name", "rejector", "event", "want_132", "want_136"),
    [
        # v1.33.3 fit.go isSchedulableAfterPodEvent and node_ports.go
        # isSchedulableAfterPodDeleted: a deleted pod that was only nominated may free
        # resources or ports too (upstream's hint tables have no such row; these follow
        # the code).
        ("fit: nominated pod deleted", "NodeResourcesFit", _nominated(), SKIP, AFTER_BACKOFF),
        ("fit: unscheduled, unnominated pod deleted", "NodeResourcesFit",
         PodEvent(DELETE, make_pod("x"), ""), SKIP, SKIP),
        ("ports: nominated pod held the port", "NodePorts", _nominated(_ports(8080)), SKIP,
         AFTER_BACKOFF),
        ("ports: nominated pod held another port", "NodePorts", _nominated(_ports(8081)), SKIP,
         SKIP),
    ],
)
def test_nominated_pod_hints(
    name: str, rejector: str, event: PodEvent, want_132: str, want_136: str
) -> None:
    info = _info(_ports(8080), {rejector})
    plugins = {"NodePorts": nodeports.Plugin(None, None)}
    for version, want in (("1.32", want_132), ("1.36", want_136)):
        features = release(version).features
        assert worth_requeuing(info, event, plugins, features) == want, (name, version)


AFFINITY = {
    "affinity": {
        "podAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": "zone"}
            ]
        },
        "podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": "zone"}
            ]
        },
    }
}


@pytest.mark.parametrize(
    ("name", "action", "labels", "node", "want"),
    [
        ("add-matching-affinity", ADD, {"app": "db"}, "n1", AFTER_BACKOFF),
        ("add-unmatched", ADD, {"app": "web"}, "n1", SKIP),
        ("add-unscheduled", ADD, {"app": "db"}, "", SKIP),
        ("delete-matching-anti-affinity", DELETE, {"app": "cache"}, "n1", AFTER_BACKOFF),
        ("delete-not-matching-anti-affinity", DELETE, {"app": "db"}, "n1", SKIP),
    ],
)
def test_inter_pod_affinity_hint(
    name: str, action: str, labels: dict[str, str], node: str, want: str
) -> None:
    info = _info(AFFINITY, {"InterPodAffinity"})
    other = make_pod("other", node=node, labels=labels)
    assert worth_requeuing(info, PodEvent(action, other, node), {}) == want, name


SPREAD = {
    "topologySpreadConstraints": [
        {
            "maxSkew": 1,
            "topologyKey": "zone",
            "whenUnsatisfiable": "DoNotSchedule",
            "labelSelector": {"matchLabels": {"app": "web"}},
        }
    ]
}


@pytest.mark.parametrize(
    ("name", "action", "labels", "namespace", "want"),
    [
        ("add-matching-pod", ADD, {"app": "web"}, "default", AFTER_BACKOFF),
        ("delete-matching-pod", DELETE, {"app": "web"}, "default", AFTER_BACKOFF),
        ("add-unmatched-labels", ADD, {"app": "db"}, "default", SKIP),
        ("add-other-namespace", ADD, {"app": "web"}, "other", SKIP),
    ],
)
def test_pod_topology_spread_hint(
    name: str, action: str, labels: dict[str, str], namespace: str, want: str
) -> None:
    handle = FakeHandle([make_node("n1")])
    plugin = PodTopologySpread(None, handle)
    info = _info(SPREAD, {"PodTopologySpread"}, labels={"app": "web"})
    other = make_pod("other", node="n1", labels=labels, namespace=namespace)
    event = PodEvent(action, other, "n1")
    assert worth_requeuing(info, event, {"PodTopologySpread": plugin}) == want, name


@pytest.mark.parametrize(
    ("name", "rejectors", "pending", "want"),
    [
        ("no rejectors: always after backoff", set(), set(), AFTER_BACKOFF),
        ("plugin registering no pod event", {"TaintToleration"}, set(), SKIP),
        ("extender: every event", {"Extender"}, set(), AFTER_BACKOFF),
        ("pending plugin saying Queue: at once", set(), {"NodeResourcesFit"}, IMMEDIATELY),
    ],
)
def test_rejector_sets(name: str, rejectors: set[str], pending: set[str], want: str) -> None:
    info = _info(rejectors=rejectors)
    info.pending_plugins = pending
    event = PodEvent(DELETE, make_pod("x", node="n1"), "n1")
    assert worth_requeuing(info, event, {}) == want, name


def test_cross_topology_prefilter() -> None:
    spread = _info(SPREAD, {"PodTopologySpread"})
    affinity = _info(AFFINITY, {"InterPodAffinity"})
    fit = _info(rejectors={"NodeResourcesFit"})
    db = make_pod("db", node="n1", labels={"app": "db"})
    assert crosses_topology(spread, db, {})
    assert crosses_topology(affinity, db, {})
    assert not crosses_topology(fit, db, {})


class _Hints:
    """Hints of a profile without plugin instances (the hint rows above cover those)."""

    def of_interest(self, event: PodEvent) -> bool:
        return True

    def worth_requeuing(self, info: QueuedPodInfo, event: PodEvent) -> str:
        return worth_requeuing(info, event, {})

    def concerns(self, info: QueuedPodInfo, event: PodEvent) -> bool:
        return event.action == DELETE or crosses_topology(info, event.pod, {})


def _queue() -> SchedulingQueue:
    queue = SchedulingQueue(lambda a, b: a.pod.load_index < b.pod.load_index, 1.0, 10.0)
    queue.hints = _Hints()
    return queue


def _fail(queue: SchedulingQueue, info: QueuedPodInfo, now: float) -> None:
    queue.add_active(info)
    popped = queue.pop()
    assert popped is info
    info.unschedulable_plugins = {"NodeResourcesFit"}
    queue.add_unschedulable(info, queue.scheduling_cycle, now, True)


@pytest.mark.parametrize(
    ("name", "event", "now", "where"),
    [
        ("skip keeps it unschedulable", ASSIGNED_ADD, 5.0, "unschedulable"),
        ("queue while backing off: backoffQ", ASSIGNED_DELETE, 0.5, "backoff"),
        ("queue after backoff: activeQ", ASSIGNED_DELETE, 5.0, "active"),
    ],
)
def test_move_with_hints(name: str, event: PodEvent, now: float, where: str) -> None:
    queue = _queue()
    info = QueuedPodInfo(pod=make_pod("p"))
    _fail(queue, info, 0.0)
    assert info.pod.uid in queue.unschedulable
    queue.move_all(now, event=event)
    found = (
        "unschedulable" if info.pod.uid in queue.unschedulable
        else "backoff" if queue.in_backoff(info.pod.uid)
        else "active" if queue.has_active() else "none"
    )
    assert found == where, name


def test_in_flight_event_sends_failed_pod_to_backoff() -> None:
    queue = _queue()
    waiting = QueuedPodInfo(pod=make_pod("waiting"))
    queue.add_active(waiting)
    assert queue.pop() is waiting  # in flight (e.g. waiting at Permit)
    queue.move_all(0.0, event=PodEvent(DELETE, make_pod("x", node="n1"), "n1"))
    waiting.unschedulable_plugins = {"NodeResourcesFit"}
    queue.add_unschedulable(waiting, queue.scheduling_cycle, 0.0, True)
    assert queue.in_backoff(waiting.pod.uid)


def test_failed_pod_without_events_waits() -> None:
    queue = _queue()
    info = QueuedPodInfo(pod=make_pod("p"))
    _fail(queue, info, 0.0)
    assert info.pod.uid in queue.unschedulable  # v1.30 would need a move request too


def test_hints_only_from_132() -> None:
    assert not release("1.30").features.queueing_hints
    assert release("1.32").features.queueing_hints
    assert release("1.36").features.queueing_hints
