"""Nominated pods per node (the queue's nominator)."""

from __future__ import annotations

from ..api.pod import Pod
from ..framework.nominations import Nominations
from ..framework.podinfo import PodInfo, pod_info


class Nominator:
    def __init__(self) -> None:
        self._by_node: dict[str, list[PodInfo]] = {}
        self._node_of: dict[str, str] = {}
        self._table = Nominations()

    def add(self, pod: Pod, node_name: str) -> None:
        """Nominate ``pod`` to ``node_name`` (kept in nomination order per node)."""
        self.delete(pod)
        if not node_name:
            return
        self._table.add(node_name, pod)
        self._node_of[pod.uid] = node_name
        self._by_node.setdefault(node_name, []).append(pod_info(pod))

    def delete(self, pod: Pod) -> None:
        node = self._node_of.pop(pod.uid, None)
        if node is None:
            return
        self._table.remove(pod.uid)
        infos = self._by_node[node]
        for i, info in enumerate(infos):
            if info.pod.uid == pod.uid:
                del infos[i]
                break
        if not infos:
            del self._by_node[node]

    def pods_for_node(self, node_name: str) -> list[PodInfo]:
        return list(self._by_node.get(node_name, ()))

    def node_of(self, pod: Pod) -> str:
        return self._node_of.get(pod.uid, "")

    def node_names(self) -> list[str]:
        return list(self._by_node)

    def nominations(self) -> Nominations:
        """All nominations as a table (kept up to date as nominations change)."""
        return self._table
