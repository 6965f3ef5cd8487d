from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code, Status
from ksched_cli.plugins import nodeports
from tests.fakes import FakeHandle, make_node, make_pod

REJECT = Status(Code.UNSCHEDULABLE, "node(s) didn't have free ports for the requested pod ports")


def _ports(specs: tuple[str, ...]) -> list[dict[str, Any]]:
    """"PROTO/IP/PORT" strings, as the Go tests write them, to container ports."""
    ports = []
    for spec in specs:
        proto, ip, port = spec.split("/")
        raw: dict[str, Any] = {"containerPort": int(port), "hostPort": int(port), "protocol": proto}
        if ip:
            raw["hostIP"] = ip
        ports.append(raw)
    return ports


def _pod(name: str, *specs: str, node: str = "") -> Any:
    container = {"name": "c", "image": "i", "ports": _ports(specs)}
    return make_pod(name, node=node, spec={"containers": [container]})


CASES = [
    ("nothing running", ("TCP/127.0.0.1/8080",), [], None),
    ("other port", ("UDP/127.0.0.1/8080",), [("UDP/127.0.0.1/9090",)], None),
    ("same udp port", ("UDP/127.0.0.1/8080",), [("UDP/127.0.0.1/8080",)], REJECT),
    ("same tcp port", ("TCP/127.0.0.1/8080",), [("TCP/127.0.0.1/8080",)], REJECT),
    ("different host ip", ("TCP/127.0.0.1/8080",), [("TCP/127.0.0.2/8080",)], None),
    ("different protocol", ("UDP/127.0.0.1/8080",), [("TCP/127.0.0.1/8080",)], None),
    ("second udp port conflict", ("UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"),
     [("UDP/127.0.0.1/8080",)], REJECT),
    ("first tcp port conflict", ("TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"),
     [("TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081")], REJECT),
    ("first tcp port conflict due to 0.0.0.0 hostIP", ("TCP/0.0.0.0/8001",),
     [("TCP/127.0.0.1/8001",)], REJECT),
    ("tcp and udp on 0.0.0.0", ("TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"),
     [("TCP/127.0.0.1/8001",)], REJECT),
    ("existing 0.0.0.0 conflicts with any ip", ("TCP/127.0.0.1/8001",),
     [("TCP/0.0.0.0/8001",)], REJECT),
    ("empty hostIP means 0.0.0.0", ("TCP//8001",), [("TCP/127.0.0.1/8001",)], REJECT),
    ("second running pod conflicts", ("UDP/127.0.0.1/8080",),
     [("TCP/127.0.0.1/8080",), ("UDP/127.0.0.1/8080",)], REJECT),
]


@pytest.mark.parametrize(
    ("wanted", "running", "expected"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_filter(
    wanted: tuple[str, ...], running: list[tuple[str, ...]], expected: Status | None
) -> None:
    existing = [_pod(f"r{i}", *specs, node="n") for i, specs in enumerate(running)]
    handle = FakeHandle([make_node("n")], existing)
    plugin = nodeports.Plugin(None, handle)
    pod = _pod("p", *wanted)
    state = CycleState()
    assert plugin.pre_filter(state, pod) == (None, None)
    assert plugin.filter(state, pod, handle.node("n")) == expected
    assert nodeports.fits(pod, handle.node("n")) is (expected is None)


def test_pre_filter_skips_pods_without_host_ports() -> None:
    plugin = nodeports.Plugin(None, FakeHandle([make_node("n")]))
    container = {"name": "c", "image": "i", "ports": [{"containerPort": 80}]}
    init = {"name": "i", "image": "i", "ports": [{"containerPort": 81, "hostPort": 81}]}
    pod = make_pod("p", spec={"containers": [container], "initContainers": [init]})
    state = CycleState()
    assert plugin.pre_filter(state, pod) == (None, Status(Code.SKIP))
    assert state.get(nodeports.PRE_FILTER_STATE_KEY) is None


def test_host_network_defaults_host_port() -> None:
    container = {"name": "c", "image": "i", "ports": [{"containerPort": 80}]}
    pod = make_pod("p", spec={"containers": [container], "hostNetwork": True})
    assert [p.host_port for p in nodeports.container_ports(pod)] == [80]


def test_filter_without_pre_filter_state_is_an_error() -> None:
    handle = FakeHandle([make_node("n")])
    status = nodeports.Plugin(None, handle).filter(CycleState(), _pod("p"), handle.node("n"))
    assert status is not None and status.code == Code.ERROR
    assert status.message() == 'reading "PreFilterNodePorts" from cycleState: not found'
