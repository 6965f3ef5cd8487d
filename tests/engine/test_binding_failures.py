"""Reserve, Permit and PreBind failures: unreserve, forget, requeue (schedule_one.go)."""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.api.pod import Pod
from ksched_cli.config.load import default_config
from ksched_cli.engine.cluster import Cluster
from ksched_cli.engine.cycle import MAX_ATTEMPTS
from ksched_cli.engine.engine import Engine
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code, Status
from ksched_cli.versions.releases import release
from tests.fakes import make_node, make_pod


class _Failing:
    """A Reserve/PreBind plugin that turns the pod away once, then lets it through."""

    name = "Gatekeeper"

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.failures = 1
        self.code = Code.UNSCHEDULABLE

    def _once(self, what: str) -> Status | None:
        self.calls.append(what)
        if self.failures:
            self.failures -= 1
            return Status(self.code, f"{what} said no")
        return None

    def reserve(self, state: CycleState, pod: Pod, node: str) -> Status | None:
        return self._once("reserve")

    def unreserve(self, state: CycleState, pod: Pod, node: str) -> None:
        self.calls.append("unreserve")

    def pre_bind(self, state: CycleState, pod: Pod, node: str) -> Status | None:
        return self._once("prebind")


def _engine(point: str, version: str = "1.30") -> tuple[Engine, _Failing]:
    pods = [make_pod("p", cpu="1")]
    config = default_config(release(version).features)
    engine = Engine(config, Cluster(nodes=[make_node("n1")], pods=pods))
    fwk = engine.frameworks["default-scheduler"]
    plugin = _Failing()
    fwk.reserve_plugins.append(plugin)
    if point == "prebind":
        plugin.failures = 0
        fwk.pre_bind_plugins.append(plugin)
        plugin.failures = 1
        fwk.reserve_plugins.remove(plugin)
        fwk.reserve_plugins.append(_NoopReserve(plugin))  # so Unreserve is seen
    return engine, plugin


class _NoopReserve:
    name = "Gatekeeper"

    def __init__(self, inner: _Failing) -> None:
        self.inner = inner

    def reserve(self, state: CycleState, pod: Pod, node: str) -> None:
        return None

    def unreserve(self, state: CycleState, pod: Pod, node: str) -> None:
        self.inner.calls.append("unreserve")


def _summary(engine: Engine) -> list[tuple[Any, ...]]:
    return [(a.result, a.node, a.message, a.time) for a in engine.plan.attempts]


def _outcome(engine: Engine) -> tuple[str, str]:
    decision = engine.plan.decisions[-1]
    return decision.outcome, decision.message


def test_reserve_failure_unreserves_forgets_and_waits_for_a_change() -> None:
    engine, plugin = _engine("reserve")
    engine.run()
    message = "0/1 nodes are available: 1 reserve said no."
    # Nothing changes afterwards in this cluster, so the pod stays unschedulable.
    assert _summary(engine) == [("Rejected", "n1", message, 0.0)]
    assert plugin.calls == ["reserve", "unreserve"]
    node = engine.snapshot.get("n1")
    assert node is not None and node.pods == []
    assert _outcome(engine) == ("Unschedulable", message)


def test_prebind_rejection_is_a_fit_error_in_v131() -> None:
    # bindingCycle wraps the rejection in a FitError over the chosen node, the plugin its
    # rejector: the pod waits for an event, and this cluster sends none.
    engine, plugin = _engine("prebind", "1.31")
    engine.run()
    message = "0/1 nodes are available: 1 prebind said no."
    assert _summary(engine) == [("Rejected", "n1", message, 0.0)]
    assert plugin.calls == ["prebind", "unreserve"]
    node = engine.snapshot.get("n1")
    assert node is not None and node.pods == []
    assert _outcome(engine) == ("Unschedulable", message)


def test_prebind_rejection_by_a_plugin_without_events_is_retried_in_v132() -> None:
    # The same FitError; with hints (v1.32) the status patch of the failure is an update
    # of the pod itself, which a plugin registering no events of its own (every event,
    # as defaultEnqueueExtension) takes: the pod is tried again after its backoff.
    engine, plugin = _engine("prebind", "1.32")
    engine.run()
    message = "0/1 nodes are available: 1 prebind said no."
    assert _summary(engine) == [("Rejected", "n1", message, 0.0), ("Scheduled", "n1", "", 1.0)]
    assert plugin.calls == ["prebind", "unreserve", "prebind"]
    assert _outcome(engine) == ("Scheduled", "")


@pytest.mark.parametrize(
    ("version", "retried"), [("1.30", 1.0), ("1.33", 2.0), ("1.34", 2.0), ("1.35", 2.0),
                             ("1.36", 2.0)],
)
def test_prebind_rejection_is_the_plugins_status_elsewhere(version: str, retried: float) -> None:
    # bindingCycle returns RunPreBindPlugins' status itself: reason Unschedulable with the
    # plugin's message, no rejector plugin, so the pod goes back after its backoff (1 s;
    # from v1.33 a backoff ending on a window boundary waits for the next window) and
    # binds, the plugin now letting it through.
    engine, plugin = _engine("prebind", version)
    engine.run()
    assert _summary(engine) == [
        ("Rejected", "n1", "prebind said no", 0.0), ("Scheduled", "n1", "", retried),
    ]
    assert plugin.calls == ["prebind", "unreserve", "prebind"]
    assert engine.plan.decisions[-1].outcome == "Scheduled"


class _RejectingBinder:
    """A Bind plugin that turns the pod away once, then binds it."""

    name = "Gatekeeper"

    def __init__(self) -> None:
        self.calls = 0

    def bind(self, state: CycleState, pod: Pod, node: str) -> Status | None:
        self.calls += 1
        return Status(Code.UNSCHEDULABLE, "bind said no") if self.calls == 1 else None


@pytest.mark.parametrize("version", ["1.30", "1.31", "1.32", "1.36"])
def test_bind_rejection_is_the_plugins_status_in_every_release(version: str) -> None:
    engine, _ = _engine("reserve", version)
    fwk = engine.frameworks["default-scheduler"]
    fwk.reserve_plugins.pop()  # only the binder turns the pod away here
    binder = _RejectingBinder()
    fwk.bind_plugins.insert(0, binder)
    engine.run()
    assert _summary(engine)[0] == ("Rejected", "n1", "bind said no", 0.0)
    assert _summary(engine)[1][:2] == ("Scheduled", "n1")
    assert binder.calls == 2


@pytest.mark.parametrize(("point", "name"), [("reserve", "Reserve"), ("prebind", "PreBind")])
def test_an_error_status_is_reason_scheduler_error(point: str, name: str) -> None:
    # handleBindingCycleError -> handleSchedulingFailure: an Error status (not a rejection)
    # is reason SchedulerError, with the status's message, the pod retried with backoff.
    engine, plugin = _engine(point)
    plugin.failures = 10**6
    plugin.code = Code.ERROR
    engine.run()
    message = f'running {name} plugin "Gatekeeper": {point} said no'
    assert {(a.result, a.message) for a in engine.plan.attempts} == {("Rejected", message)}
    assert len(engine.plan.attempts) == MAX_ATTEMPTS
    assert _outcome(engine) == ("SchedulerError", message)
