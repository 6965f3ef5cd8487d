"""Operations applied to the loaded cluster before the engine starts (plan and diff)."""

from __future__ import annotations

from collections.abc import Sequence

from ..api.node import Node
from ..api.pod import Pod
from ..engine.cluster import Cluster


class StaticTarget:
    def __init__(self, cluster: Cluster) -> None:
        self._cluster = cluster

    @property
    def cluster(self) -> Cluster:
        return self._cluster

    def delete_pod(self, pod: Pod) -> None:
        self._cluster.pods.remove(pod)

    def create_pod(self, pod: Pod) -> None:
        self._cluster.pods.append(pod)

    def set_unschedulable(self, node: Node, value: bool) -> None:
        node.unschedulable = value

    def add_node(self, node: Node) -> None:
        self._cluster.nodes.append(node)

    def remove_node(self, node: Node) -> None:
        self._cluster.nodes.remove(node)

    def created_by_controller(self, pod: Pod) -> None:
        pass  # already in the cluster's pods, which the plan reads

    def deleted_by_controller(self, pod: Pod) -> None:
        pass  # already gone from the cluster's pods

    def storage_added(self, resource: str, label: str, objects: Sequence[object]) -> None:
        pass  # before the plan nothing waits in the queue yet
