"""Small clusters where every default Score plugin has something to say.

Nodes of four sizes in three zones, some with images and a batch taint; pods of six apps
with mixed requests, some preferring SSD nodes, some spreading (softly or not) by zone or
host, some repelling their own app, some tolerating the taint. With fewer than 100 nodes
every node is filtered (no sampling), so ties and the filter walk are the same in ksched
and in a real kube-scheduler run at parallelism 1: RESULTS.md compares placements.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

Doc = dict[str, Any]
ZONES = ("za", "zb", "zc")
SIZES = (("2", "4Gi"), ("4", "16Gi"), ("8", "32Gi"), ("16", "64Gi"))
IMAGES = [f"registry.example/app{i}:v1" for i in range(6)]


def _node(rng: random.Random, i: int) -> Doc:
    cpu, memory = rng.choice(SIZES)
    name = f"node-{i:04d}"
    labels = {"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": ZONES[i % 3],
              "disk": rng.choice(["ssd", "hdd"])}
    images = [{"names": [image], "sizeBytes": rng.randint(50, 900) * 2**20}
              for image in rng.sample(IMAGES, rng.randint(0, 3))]
    alloc = {"cpu": cpu, "memory": memory, "pods": "110"}
    doc: Doc = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels},
                "status": {"allocatable": alloc, "capacity": dict(alloc), "images": images}}
    if rng.random() < 0.1:
        effect = rng.choice(["NoSchedule", "PreferNoSchedule"])
        doc["spec"] = {"taints": [{"key": "dedicated", "value": "batch", "effect": effect}]}
    return doc


def _pod(rng: random.Random, i: int) -> Doc:
    app = rng.randint(0, 5)
    requests = {"cpu": f"{rng.choice([50, 100, 250, 500, 1000, 1500])}m",
                "memory": f"{rng.choice([64, 128, 512, 1024, 2048])}Mi"}
    spec: Doc = {"containers": [{"name": "c", "image": IMAGES[app],
                                 "resources": {"requests": requests}}]}
    if rng.random() < 0.3:
        term = {"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}
        spec["affinity"] = {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": rng.randint(1, 100), "preference": term}]}}
    if rng.random() < 0.3:
        spec["topologySpreadConstraints"] = [{
            "maxSkew": rng.randint(1, 3),
            "topologyKey": rng.choice(["topology.kubernetes.io/zone", "kubernetes.io/hostname"]),
            "whenUnsatisfiable": rng.choice(["ScheduleAnyway", "DoNotSchedule"]),
            "labelSelector": _selector(app)}]
    if rng.random() < 0.2:
        affinity_term = {"labelSelector": _selector(app), "topologyKey": "kubernetes.io/hostname"}
        spec.setdefault("affinity", {})["podAntiAffinity"] = {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 50, "podAffinityTerm": affinity_term}]}
    if rng.random() < 0.15:
        spec["tolerations"] = [{"key": "dedicated", "operator": "Equal", "value": "batch",
                                "effect": "NoSchedule"}]
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": f"p-{i:04d}", "namespace": "default",
                         "labels": {"app": f"app{app}"}},
            "spec": spec}


def _selector(app: int) -> Doc:
    """A new dict each time: a shared one would come out of PyYAML as an anchor."""
    return {"matchLabels": {"app": f"app{app}"}}


def mixed(seed: int = 0, nodes: int = 90, pending: int = 500) -> Iterator[Doc]:
    """``pending`` pods for ``nodes`` nodes; with the defaults every pod fits."""
    rng = random.Random(seed)
    yield from [_node(rng, i) for i in range(nodes)]
    yield from (_pod(rng, i) for i in range(pending))


def mixed_tight(seed: int = 3) -> Iterator[Doc]:
    """700 pods for 30 nodes: about a third stay pending, rejected for resources or spread."""
    return mixed(seed, nodes=30, pending=700)
