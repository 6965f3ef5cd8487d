"""NodeInfo: a node with the aggregate state of the pods on it (framework/types.go)."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from ..api.node import Node
from ..api.pod import ContainerPort, Pod
from ..api.resources import CPU, EPHEMERAL_STORAGE, MEMORY, PODS, is_scalar_resource
from ..record import record
from ..versions.features import V130, Features
from .podinfo import PodInfo, pod_info

if TYPE_CHECKING:
    from .columns import NodeColumns

DEFAULT_BIND_ALL_HOST_IP = "0.0.0.0"


@record(slots=True)
class Resource:
    """framework.Resource: amounts in scheduler units."""

    milli_cpu: int = 0
    memory: int = 0
    ephemeral_storage: int = 0
    allowed_pod_number: int = 0
    scalar_resources: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_list(cls, amounts: dict[str, int]) -> Resource:
        """framework.NewResource from scheduler units (cpu already in millicores)."""
        res = cls()
        for name, value in amounts.items():
            if name == CPU:
                res.milli_cpu += value
            elif name == MEMORY:
                res.memory += value
            elif name == PODS:
                res.allowed_pod_number += value
            elif name == EPHEMERAL_STORAGE:
                res.ephemeral_storage += value
            elif is_scalar_resource(name):
                res.scalar_resources[name] = res.scalar_resources.get(name, 0) + value
        return res

    def get(self, name: str) -> int:
        if name == CPU:
            return self.milli_cpu
        if name == MEMORY:
            return self.memory
        if name == EPHEMERAL_STORAGE:
            return self.ephemeral_storage
        if name == PODS:
            return self.allowed_pod_number
        return self.scalar_resources.get(name, 0)

    def clone(self) -> Resource:
        return Resource(
            self.milli_cpu,
            self.memory,
            self.ephemeral_storage,
            self.allowed_pod_number,
            dict(self.scalar_resources),
        )


@record(slots=True)
class ImageStateSummary:
    """An image's size and how many nodes have it."""

    size: int
    num_nodes: int


class HostPortInfo:
    """Used host ports per host IP, with 0.0.0.0 conflicting with every IP."""

    __slots__ = ("ports",)

    def __init__(self) -> None:
        self.ports: dict[str, dict[tuple[str, int], int]] = {}

    @staticmethod
    def _sanitize(ip: str, protocol: str) -> tuple[str, str]:
        return ip or DEFAULT_BIND_ALL_HOST_IP, protocol or "TCP"

    def add(self, ip: str, protocol: str, port: int) -> None:
        if port <= 0:
            return
        ip, protocol = self._sanitize(ip, protocol)
        self.ports.setdefault(ip, {})[(protocol, port)] = 1

    def remove(self, ip: str, protocol: str, port: int) -> None:
        if port <= 0:
            return
        ip, protocol = self._sanitize(ip, protocol)
        by_ip = self.ports.get(ip)
        if by_ip is not None:
            by_ip.pop((protocol, port), None)
            if not by_ip:
                del self.ports[ip]

    def check_conflict(self, ip: str, protocol: str, port: int) -> bool:
        if port <= 0:
            return False
        ip, protocol = self._sanitize(ip, protocol)
        key = (protocol, port)
        if ip == DEFAULT_BIND_ALL_HOST_IP:
            return any(key in m for m in self.ports.values())
        return any(key in self.ports.get(k, ()) for k in (DEFAULT_BIND_ALL_HOST_IP, ip))

    def __len__(self) -> int:
        return sum(len(m) for m in self.ports.values())

    def clone(self) -> HostPortInfo:
        copy = HostPortInfo()
        copy.ports = {ip: dict(m) for ip, m in self.ports.items()}
        return copy


def add_requests(req: Resource, pod: Pod, sign: int) -> None:
    """Add (sign 1) or take away (sign -1) the pod's requests, as NodeInfo.update does."""
    for name, value in pod.requests.items():
        if name == CPU:
            req.milli_cpu += sign * value
        elif name == MEMORY:
            req.memory += sign * value
        elif name == EPHEMERAL_STORAGE:
            req.ephemeral_storage += sign * value
        elif name != PODS and is_scalar_resource(name):
            req.scalar_resources[name] = req.scalar_resources.get(name, 0) + sign * value


def _remove_from(pods: list[PodInfo], uid: str) -> bool:
    """Go's removeFromSlice: the last element takes the removed one's slot."""
    for i, info in enumerate(pods):
        if info.pod.uid == uid:
            pods[i] = pods[-1]
            pods.pop()
            return True
    return False


def used_port_list(pod: Pod, sidecars: bool) -> list[ContainerPort]:
    """Every port of the pod's containers (schedutil.GetHostPorts filters host ports later).

    From v1.34 the ports of restartable init containers (sidecars) come first.
    """
    ports: list[ContainerPort] = []
    if sidecars:
        for c in pod.init_containers:
            if c.restart_policy == "Always":
                ports.extend(c.ports)
    for c in pod.containers:
        ports.extend(c.ports)
    return ports


class NodeInfo:
    __slots__ = (
        "allocatable",
        "column_index",
        "columns",
        "features",
        "generation",
        "image_states",
        "name",
        "node",
        "non_zero_requested",
        "pods",
        "pods_with_affinity",
        "pods_with_required_anti_affinity",
        "pvc_ref_counts",
        "requested",
        "used_ports",
    )

    def __init__(
        self,
        node: Node,
        image_states: dict[str, ImageStateSummary] | None = None,
        features: Features = V130,
    ) -> None:
        self.node = node
        # Release switches for how a pod's requests and ports count (NodeInfo.AddPod).
        self.features = features
        self.name = node.name
        self.allocatable = Resource.from_list(node.allocatable)
        self.requested = Resource()
        self.non_zero_requested = Resource()
        self.pods: list[PodInfo] = []
        self.pods_with_affinity: list[PodInfo] = []
        self.pods_with_required_anti_affinity: list[PodInfo] = []
        self.used_ports = HostPortInfo()
        self.image_states: dict[str, ImageStateSummary] = image_states or {}
        self.pvc_ref_counts: dict[str, int] = {}
        self.generation = 0
        # Set on the live snapshot's NodeInfos only (see framework/columns.py).
        self.columns: NodeColumns | None = None
        self.column_index = -1

    def add_pod(self, pod: Pod) -> None:
        info = pod_info(pod)
        self.pods.append(info)
        if info.has_affinity:
            self.pods_with_affinity.append(info)
        if info.has_required_anti_affinity:
            self.pods_with_required_anti_affinity.append(info)
        self._update(pod, 1)

    def remove_pod(self, pod: Pod) -> None:
        info = pod_info(pod)
        if info.has_affinity:
            _remove_from(self.pods_with_affinity, pod.uid)
        if info.has_required_anti_affinity:
            _remove_from(self.pods_with_required_anti_affinity, pod.uid)
        if not _remove_from(self.pods, pod.uid):
            raise KeyError(f"no corresponding pod {pod.name} in pods of node {self.name}")
        self._update(pod, -1)

    def _update(self, pod: Pod, sign: int) -> None:
        add_requests(self.requested, pod, sign)
        # v1.32+: PodRequests with the non-zero defaults, so sidecars add up.
        sidecars = self.features.sidecar_non_zero_requested
        cpu, mem = pod.node_non_zero if sidecars else pod.cache_non_zero
        self.non_zero_requested.milli_cpu += sign * cpu
        self.non_zero_requested.memory += sign * mem
        for port in used_port_list(pod, self.features.nodeports_sidecars):
            if sign > 0:
                self.used_ports.add(port.host_ip, port.protocol, port.host_port)
            else:
                self.used_ports.remove(port.host_ip, port.protocol, port.host_port)
        for volume in pod.volumes:
            if volume.claim_name is None:
                continue
            key = f"{pod.namespace}/{volume.claim_name}"
            count = self.pvc_ref_counts.get(key, 0) + sign
            if count > 0:
                self.pvc_ref_counts[key] = count
            else:
                self.pvc_ref_counts.pop(key, None)
        self.generation += 1
        if self.columns is not None:
            self.columns.update(self.column_index, self, pod, sign)

    def clone(self) -> NodeInfo:
        """A copy whose pod lists and aggregates can change without touching this one."""
        copy = NodeInfo.__new__(NodeInfo)
        copy.node = self.node
        copy.name = self.name
        copy.features = self.features
        copy.allocatable = self.allocatable
        copy.requested = self.requested.clone()
        copy.non_zero_requested = self.non_zero_requested.clone()
        copy.pods = list(self.pods)
        copy.pods_with_affinity = list(self.pods_with_affinity)
        copy.pods_with_required_anti_affinity = list(self.pods_with_required_anti_affinity)
        copy.used_ports = self.used_ports.clone()
        copy.image_states = self.image_states
        copy.pvc_ref_counts = dict(self.pvc_ref_counts)
        copy.generation = self.generation
        copy.columns = None
        copy.column_index = -1
        return copy

    def __repr__(self) -> str:
        return f"NodeInfo({self.name}, pods={[p.pod.key for p in self.pods]})"
