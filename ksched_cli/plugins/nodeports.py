"""NodePorts: a pod's host ports must be free on the node (nodeports/node_ports.go)."""

from __future__ import annotations

from typing import Any

from ..api.pod import ContainerPort, Pod
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import NodeInfo, used_port_list
from ..framework.status import SKIP, Code, Status
from ..framework.types import PreFilterResult
from ..versions.features import features_of

NAME = "NodePorts"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME
ERR_REASON = "node(s) didn't have free ports for the requested pod ports"


class PreFilterState:
    """The pod's wanted host ports; not changed by PreFilter extensions."""

    __slots__ = ("ports",)

    def __init__(self, ports: tuple[ContainerPort, ...]) -> None:
        self.ports = ports

    def clone(self) -> PreFilterState:
        return self


def container_ports(pod: Pod, sidecars: bool = False) -> tuple[ContainerPort, ...]:
    """Ports with a host port: regular containers, plus sidecars from v1.34 (GetHostPorts)."""
    return tuple(p for p in used_port_list(pod, sidecars) if p.host_port > 0)


def fits_ports(ports: tuple[ContainerPort, ...], node_info: NodeInfo) -> bool:
    used = node_info.used_ports
    if not used.ports:
        return True
    return not any(used.check_conflict(p.host_ip, p.protocol, p.host_port) for p in ports)


def fits(pod: Pod, node_info: NodeInfo) -> bool:
    return fits_ports(container_ports(pod, node_info.features.nodeports_sidecars), node_info)


class Plugin:
    name = NAME

    def __init__(self, args: Any = None, handle: Handle | None = None) -> None:
        self.sidecars = features_of(handle).nodeports_sidecars

    def pre_filter(
        self, state: CycleState, pod: Pod
    ) -> tuple[PreFilterResult | None, Status | None]:
        ports = container_ports(pod, self.sidecars)
        if not ports:
            return None, SKIP
        state.write(PRE_FILTER_STATE_KEY, PreFilterState(ports))
        return None, None

    def pre_filter_extensions(self) -> None:
        return None

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        s = state.get(PRE_FILTER_STATE_KEY)
        if not isinstance(s, PreFilterState):
            return Status(
                Code.ERROR,
                error=f'reading "{PRE_FILTER_STATE_KEY}" from cycleState: not found',
            )
        if fits_ports(s.ports, node_info):
            return None
        return Status(Code.UNSCHEDULABLE, ERR_REASON)
