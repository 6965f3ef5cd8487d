"""Node order (the cache's node tree) and the per-cycle node snapshot."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..api.node import Node
from ..framework.columns import NodeColumns
from ..framework.nodeinfo import ImageStateSummary, NodeInfo
from ..lazy_numpy import np
from ..versions.features import V130, Features

ZONE_LABELS = ("topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone")
REGION_LABELS = ("topology.kubernetes.io/region", "failure-domain.beta.kubernetes.io/region")


def zone_key(node: Node) -> str:
    """utilnode.GetZoneKey: region and zone, either label family."""
    labels = node.labels
    zone = next((labels[k] for k in ZONE_LABELS if k in labels), "")
    region = next((labels[k] for k in REGION_LABELS if k in labels), "")
    if not region and not zone:
        return ""
    return f"{region}:\x00:{zone}"


def node_tree_order(nodes: Iterable[Node]) -> list[Node]:
    """Round robin over zones (in order of first appearance), nodes in load order."""
    zones: dict[str, list[Node]] = {}
    for node in nodes:
        zones.setdefault(zone_key(node), []).append(node)
    ordered: list[Node] = []
    columns = list(zones.values())
    depth = max((len(c) for c in columns), default=0)
    for i in range(depth):
        ordered.extend(c[i] for c in columns if i < len(c))
    return ordered


def image_states(nodes: Sequence[Node]) -> dict[str, dict[str, ImageStateSummary]]:
    """Per node, each image it has with the cluster-wide size and node count.

    The scheduler cache keeps one size per image name, the one reported by the first
    node added (nodes are added in load order).
    """
    spread: dict[str, int] = {}
    size: dict[str, int] = {}
    for node in sorted(nodes, key=lambda n: n.load_index):
        for image in node.images:
            for name in image.names:
                size.setdefault(name, image.size_bytes)
        for name in {n for image in node.images for n in image.names}:
            spread[name] = spread.get(name, 0) + 1
    return {
        node.name: {
            name: ImageStateSummary(size[name], spread[name])
            for image in node.images
            for name in image.names
        }
        for node in nodes
    }


class Snapshot:
    """The live node infos in node-tree order (kube-scheduler's cache snapshot)."""

    def __init__(self, nodes: Iterable[Node], features: Features = V130) -> None:
        ordered = node_tree_order(nodes)
        images = image_states(ordered)
        self.node_infos: list[NodeInfo] = [
            NodeInfo(n, images[n.name], features) for n in ordered
        ]
        self.by_name: dict[str, NodeInfo] = {ni.name: ni for ni in self.node_infos}
        self.columns = NodeColumns(self.node_infos)
        for i, ni in enumerate(self.node_infos):
            ni.columns = self.columns
            ni.column_index = i

    def list(self) -> Sequence[NodeInfo]:
        return self.node_infos

    def get(self, name: str) -> NodeInfo | None:
        return self.by_name.get(name)

    def have_pods_with_affinity_list(self) -> Sequence[NodeInfo]:
        infos = self.node_infos
        if not self.columns.arrays_made:  # per-node paths: no array to read
            return [ni for ni in infos if ni.pods_with_affinity]
        return [infos[i] for i in np.flatnonzero(self.columns.affinity_pods).tolist()]

    def have_pods_with_required_anti_affinity_list(self) -> Sequence[NodeInfo]:
        infos = self.node_infos
        if not self.columns.arrays_made:
            return [ni for ni in infos if ni.pods_with_required_anti_affinity]
        return [infos[i] for i in np.flatnonzero(self.columns.anti_affinity_pods).tolist()]

    def __len__(self) -> int:
        return len(self.node_infos)
