"""Builders and a minimal Handle for plugin tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ksched_cli.api.node import Node, parse_node
from ksched_cli.api.pod import Pod, parse_pod
from ksched_cli.engine.cluster import Cluster
from ksched_cli.engine.snapshot import Snapshot
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.nodeinfo import NodeInfo
from ksched_cli.framework.nominations import Nominations
from ksched_cli.framework.podinfo import PodInfo
from ksched_cli.framework.status import Status
from ksched_cli.versions.features import V130, Features


def make_node(
    name: str,
    cpu: str = "4",
    memory: str = "8Gi",
    pods: str = "110",
    labels: Mapping[str, str] | None = None,
    taints: Sequence[Mapping[str, str]] = (),
    extra: Mapping[str, str] | None = None,
    unschedulable: bool = False,
    images: Sequence[Mapping[str, Any]] = (),
) -> Node:
    alloc = {"cpu": cpu, "memory": memory, "pods": pods, **(extra or {})}
    raw: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, **(labels or {})}},
        "spec": {"taints": list(taints), "unschedulable": unschedulable},
        "status": {"allocatable": alloc, "capacity": alloc, "images": list(images)},
    }
    return parse_node(raw)


def make_pod(
    name: str,
    cpu: str | None = None,
    memory: str | None = None,
    namespace: str = "default",
    node: str = "",
    labels: Mapping[str, str] | None = None,
    priority: int = 0,
    spec: Mapping[str, Any] | None = None,
    requests: Mapping[str, str] | None = None,
    image: str = "registry.k8s.io/pause:3.9",
) -> Pod:
    reqs: dict[str, str] = dict(requests or {})
    if cpu is not None:
        reqs["cpu"] = cpu
    if memory is not None:
        reqs["memory"] = memory
    container: dict[str, Any] = {"name": "c", "image": image, "resources": {"requests": reqs}}
    body: dict[str, Any] = {"containers": [container], "priority": priority}
    if node:
        body["nodeName"] = node
    body.update(spec or {})
    raw = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace, "labels": dict(labels or {})},
        "spec": body,
    }
    pod = parse_pod(raw)
    if not pod.preemption_policy:
        pod.preemption_policy = "PreemptLowerPriority"
    return pod


class FakeHandle:
    """Snapshot of ``nodes`` with the running ``pods`` (those with node_name) placed."""

    def __init__(
        self,
        nodes: Sequence[Node],
        pods: Sequence[Pod] = (),
        cluster: Cluster | None = None,
        features: Features = V130,
    ):
        self.features = features
        self._snapshot = Snapshot(nodes, features)
        for pod in pods:
            if pod.node_name:
                info = self._snapshot.get(pod.node_name)
                assert info is not None, pod.node_name
                info.add_pod(pod)
        self._cluster = cluster or Cluster(nodes=list(nodes), pods=list(pods))
        self.clock = 0.0
        # Plugins take their array paths only when this is set (EngineOptions.vectorize).
        self.vectorize = False

    @property
    def snapshot(self) -> Snapshot:
        return self._snapshot

    @property
    def cluster(self) -> Cluster:
        return self._cluster

    def now(self) -> float:
        return self.clock

    def namespace_labels(self, namespace: str) -> Mapping[str, str]:
        return {"kubernetes.io/metadata.name": namespace}

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        return []

    def nominated_node_names(self) -> list[str]:
        return []

    def nominations(self) -> Nominations:
        return Nominations()

    def run_filter_plugins_with_nominated_pods(
        self, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> Status | None:
        raise NotImplementedError("not needed by plugin unit tests")

    def run_pre_filter_extension_add_pod(
        self, state: CycleState, pod: Pod, to_add: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        raise NotImplementedError

    def run_pre_filter_extension_remove_pod(
        self, state: CycleState, pod: Pod, to_remove: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        raise NotImplementedError

    def iterate_over_waiting_pods(self) -> list[Any]:
        return []

    def get_waiting_pod(self, uid: str) -> Any:
        return None

    def reject_waiting_pod(self, uid: str) -> bool:
        return False

    def node(self, name: str) -> NodeInfo:
        info = self._snapshot.get(name)
        assert info is not None
        return info
