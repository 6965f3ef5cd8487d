"""Victim selection on resource numbers equals the general path, reason for reason."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod
from ksched_cli.config.load import default_config
from ksched_cli.engine.cluster import Cluster
from ksched_cli.engine.engine import Engine, EngineOptions
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code
from ksched_cli.plugins.resource_only import resource_only, select_victims_by_resources
from tests.fakes import make_node, make_pod


@dataclass
class Case:
    node: Node
    running: list[Pod]
    preemptor: Pod
    nominated: list[Pod] = field(default_factory=list)


def _outcome(case: Case, by_resources: bool) -> tuple[list[str], int, str, list[str]]:
    cluster = Cluster(nodes=[case.node], pods=[*case.running])
    engine = Engine(default_config(), cluster, EngineOptions(vectorize=True))  # the array path
    for pod in case.nominated:
        engine.nominator.add(pod, case.node.name)
    fwk = engine.frameworks["default-scheduler"]
    state = CycleState()
    fwk.run_pre_filter(state, case.preemptor)
    info = engine.snapshot.get(case.node.name)
    assert info is not None
    if by_resources:
        assert resource_only(fwk, state)
        victims, violations, status = select_victims_by_resources(
            fwk, state, case.preemptor, info, []
        )
    else:
        plugin = fwk.plugins["DefaultPreemption"]
        victims, violations, status = plugin._select_victims(  # type: ignore[attr-defined]
            state.clone(), case.preemptor, info.clone(), []
        )
    code = status.code.go_name if status is not None else Code.SUCCESS.go_name
    reasons = status.all_reasons() if status is not None else []
    return [v.name for v in victims], violations, code, reasons


def _running(node: str, *specs: tuple[str, str, int]) -> list[Pod]:
    return [make_pod(name, cpu=cpu, node=node, priority=prio) for name, cpu, prio in specs]


CASES = {
    "pod count with a nominated pod": (
        Case(
            make_node("n1", cpu="8", pods="2"),
            _running("n1", ("high", "1", 10), ("low", "1", 0)),
            make_pod("pre", cpu="1", priority=5),
            [make_pod("nom", cpu="1", priority=10)],
        ),
        ([], 0, "Unschedulable", ["Too many pods"]),
    ),
    "pod count without nominated pods": (
        Case(
            make_node("n1", cpu="8", pods="2"),
            _running("n1", ("high", "1", 10), ("low", "1", 0)),
            make_pod("pre", cpu="1", priority=5),
        ),
        (["low"], 0, "Success", []),
    ),
    "cpu taken by a nominated pod": (
        Case(
            make_node("n1", cpu="4"),
            _running("n1", ("high", "2", 10), ("low", "1", 0)),
            make_pod("pre", cpu="1", priority=5),
            [make_pod("nom", cpu="1500m", priority=10)],
        ),
        ([], 0, "Unschedulable", ["Insufficient cpu"]),
    ),
    "lower-priority nominated pods do not count": (
        Case(
            make_node("n1", cpu="4"),
            _running("n1", ("high", "2", 10), ("low", "1", 0)),
            make_pod("pre", cpu="1500m", priority=5),
            [make_pod("nom", cpu="1500m", priority=1)],
        ),
        (["low"], 0, "Success", []),
    ),
    "no lower-priority pods": (
        Case(
            make_node("n1", cpu="1"),
            _running("n1", ("high", "1", 10)),
            make_pod("pre", cpu="1", priority=5),
        ),
        ([], 0, "UnschedulableAndUnresolvable", ["No preemption victims found for incoming pod"]),
    ),
    "reprieve keeps what still fits": (
        Case(
            make_node("n1", cpu="4"),
            _running("n1", ("high", "1", 10), ("a", "1", 2), ("b", "1", 1)),
            make_pod("pre", cpu="2", priority=5),
        ),
        (["b"], 0, "Success", []),
    ),
    "reprieve counts the nominated pods": (
        Case(
            make_node("n1", cpu="4"),
            _running("n1", ("a", "1", 2), ("b", "1", 1)),
            make_pod("pre", cpu="3", priority=5),
            [make_pod("nom", cpu="1", priority=7)],
        ),
        (["a", "b"], 0, "Success", []),
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_select_victims_by_resources(name: str) -> None:
    case, expected = CASES[name]
    assert _outcome(case, by_resources=True) == expected
    assert _outcome(case, by_resources=False) == expected
