"""The scheduler's own status patch of a failed pod (its PodScheduled condition or its
nomination written) as an update of the pod itself (v1.32+): SchedulingQueue.Update
judges it by PodSchedulingPropertiesChange's catch-all event, which only a registration
of every Pod update matches (an extender's defaultEnqueueExtension)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ksched_cli.cli.main import _register, cli
from ksched_cli.config.load import default_config
from ksched_cli.engine.cluster import Cluster
from ksched_cli.engine.engine import Engine
from ksched_cli.engine.pod_events import UPDATE
from ksched_cli.engine.queueing_hints import (
    AFTER_BACKOFF,
    IMMEDIATELY,
    SKIP,
    PodEvent,
    worth_requeuing,
)
from ksched_cli.framework.types import PostFilterResult, QueuedPodInfo
from ksched_cli.versions.releases import release
from tests.fakes import make_node, make_pod

EXTENDER = "examples/extender/"


@pytest.mark.parametrize(
    ("rejectors", "pending", "want"),
    [
        ({"Extender"}, set(), AFTER_BACKOFF),
        ({"InterPodAffinity"}, set(), SKIP),  # registers UpdatePodLabel, not every update
        ({"NodeResourcesFit"}, set(), SKIP),  # UpdatePodScaleDown
        ({"PodTopologySpread"}, set(), SKIP),
        ({"Coscheduling"}, set(), SKIP),  # Pod/Add
        ({"NodeAffinity", "Extender"}, set(), AFTER_BACKOFF),
        (set(), {"OutOfTree"}, IMMEDIATELY),  # a pending plugin that registers everything
        (set(), set(), AFTER_BACKOFF),  # no rejector: isPodWorthRequeuing's first rule
    ],
)
def test_own_update_hint(rejectors: set[str], pending: set[str], want: str) -> None:
    info = QueuedPodInfo(pod=make_pod("p"))
    info.unschedulable_plugins, info.pending_plugins = set(rejectors), set(pending)
    assert worth_requeuing(info, PodEvent(UPDATE, info.pod, ""), {}) == want


def _legacy_attempts(version: str) -> list[float]:
    _register()
    args = [
        "plan", EXTENDER + "cluster.yaml", "--config", EXTENDER + "config.yaml",
        "--extender-mode", f"stub={EXTENDER}stub.json", "--kubernetes-version", version,
        "--explain-pod", "default/legacy",
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stdout.splitlines() if line.startswith("attempt at t=")]
    return [float(line.split("t=")[1].split("s")[0]) for line in lines]


@pytest.mark.parametrize(
    ("version", "times"),
    [
        ("1.30", [0.0]),  # no hints: isPodUpdated ignores a status-only update
        ("1.32", [0.0, 1.0]),  # moved to backoffQ, tried when its backoff ends
        ("1.33", [0.0, 0.0]),  # an idle activeQ pops backoffQ's head at once
        ("1.36", [0.0, 0.0]),
    ],
)
def test_a_pod_an_extender_rejected_is_tried_once_more(version: str, times: list[float]) -> None:
    # The second failure writes the same condition: no patch, no third attempt.
    assert _legacy_attempts(version) == times


@pytest.mark.parametrize("version", ["1.32", "1.36"])
def test_a_pod_an_in_tree_plugin_rejected_waits(version: str) -> None:
    pods = [make_pod("big", cpu="64")]
    config = default_config(release(version).features)
    engine = Engine(config, Cluster(nodes=[make_node("n1")], pods=pods))
    engine.run()
    assert [(a.result, a.time) for a in engine.plan.attempts] == [("Unschedulable", 0.0)]


@pytest.mark.parametrize(("rejector", "moved"), [("Extender", True), ("NodeResourcesFit", False)])
def test_a_nomination_a_preemption_clears_is_an_update_of_that_pod(
    rejector: str, moved: bool
) -> None:
    # v1.32 sends no nomination-ended event (v1.33+): only the cleared pod's own update
    # can move it, and only a rejector registering every Pod update takes that.
    engine = Engine(
        default_config(release("1.32").features), Cluster(nodes=[make_node("n1")], pods=[])
    )
    low = make_pod("low", priority=1)
    low.nominated_node_name = "n1"
    engine.nominator.add(low, "n1")
    info = QueuedPodInfo(pod=low)
    info.unschedulable_plugins = {rejector}
    engine.queue.unschedulable[low.uid] = info
    engine.cycle.engine_preempt(make_pod("high", priority=10), "n1", PostFilterResult("n1"))
    assert low.nominated_node_name == ""
    assert (low.uid not in engine.queue.unschedulable) is moved
