"""A generated 2,000-node cluster, written as manifests, for output tests at real scale."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ZONES = ("zone-a", "zone-b", "zone-c")


def node(i: int) -> dict[str, Any]:
    zone = ZONES[i % len(ZONES)]
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": f"node-{i:04d}",
            "labels": {"kubernetes.io/hostname": f"node-{i:04d}",
                       "topology.kubernetes.io/zone": zone},
        },
        "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}},
    }


def pod(
    name: str, cpu: str, node_name: str = "", labels: dict[str, str] | None = None,
    owner: tuple[str, str] | None = None, spread: bool = False, namespace: str = "default",
) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "namespace": namespace, "labels": labels or {}}
    if owner is not None:
        meta["ownerReferences"] = [
            {"apiVersion": "apps/v1", "kind": owner[0], "name": owner[1], "uid": f"uid-{owner[1]}",
             "controller": True}
        ]
    spec: dict[str, Any] = {
        "containers": [{"name": "c", "image": "app", "resources": {"requests": {
            "cpu": cpu, "memory": "1Gi"}}}],
    }
    if node_name:
        spec["nodeName"] = node_name
    if spread:
        spec["topologySpreadConstraints"] = [{
            "maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
            "whenUnsatisfiable": "DoNotSchedule",
            "labelSelector": {"matchLabels": labels or {}},
        }]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}


def spread_cluster(nodes: int = 2000) -> list[dict[str, Any]]:
    """Zone-spread web pods (zone-a already holds 20 of them, so its nodes are rejected),
    identical nodes (large ties) and one pod too big for any node."""
    docs = [node(i) for i in range(nodes)]
    web = {"app": "web"}
    docs += [
        pod(f"web-old-{i}", "100m", f"node-{i * 3:04d}", web, ("ReplicaSet", "web-old"))
        for i in range(20)
    ]
    docs += [pod(f"web-{i}", "500m", "", web, ("ReplicaSet", "web"), spread=True) for i in range(4)]
    docs.append(pod("huge", "64"))
    return docs


def moving_cluster(nodes: int = 2000, pending: int = 1200) -> list[dict[str, Any]]:
    """Pods that spread out under LeastAllocated and pack under MostAllocated: a diff
    between default and bin-packing moves nearly all of them."""
    docs = [node(i) for i in range(nodes)]
    docs += [pod(f"busy-{i}", "1", f"node-{i:04d}") for i in range(0, nodes, 7)]
    for i in range(pending):
        owner = ("ReplicaSet", f"app-{i % 5}") if i % 2 else None
        docs.append(pod(f"p-{i:04d}", "250m", "", {"app": f"app-{i % 5}"}, owner))
    docs.append(pod("huge", "5"))
    return docs


def write(path: Path, docs: list[dict[str, Any]]) -> str:
    with path.open("w", encoding="utf-8") as out:
        yaml.dump_all(docs, out, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper))
    return str(path)
