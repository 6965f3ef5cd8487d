"""Workloads shaped like kube-scheduler's scheduler_perf ones, as manifest documents."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import yaml

from benchmarks.mixed import mixed, mixed_tight

Doc = dict[str, Any]
ZONES = ("zone-a", "zone-b", "zone-c")


def node(i: int, cpu: str = "4", memory: str = "32Gi", zones: int = 0) -> Doc:
    name = f"node-{i:05d}"
    labels = {"kubernetes.io/hostname": name}
    if zones:
        labels["topology.kubernetes.io/zone"] = ZONES[i % zones]
    alloc = {"cpu": cpu, "memory": memory, "pods": "110"}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": labels},
        "status": {"allocatable": alloc, "capacity": dict(alloc)},
    }


def pod(
    name: str,
    cpu: str = "100m",
    memory: str = "500Mi",
    node_name: str | None = None,
    labels: dict[str, str] | None = None,
    spec: dict[str, Any] | None = None,
    priority_class: str | None = None,
) -> Doc:
    res = {"cpu": cpu, "memory": memory}
    body: dict[str, Any] = {
        "containers": [
            {
                "name": "c",
                "image": "registry.k8s.io/pause:3.9",
                "resources": {"requests": res, "limits": dict(res)},
            }
        ]
    }
    if node_name:
        body["nodeName"] = node_name
    if priority_class:
        body["priorityClassName"] = priority_class
    body.update(spec or {})
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "labels": labels or {}},
        "spec": body,
    }


def priority_class(name: str, value: int) -> Doc:
    return {
        "apiVersion": "scheduling.k8s.io/v1",
        "kind": "PriorityClass",
        "metadata": {"name": name},
        "value": value,
    }


def basic(nodes: int = 5000, running: int = 1000, pending: int = 10000) -> Iterator[Doc]:
    yield from (node(i) for i in range(nodes))
    yield from (pod(f"init-{i}", node_name=f"node-{i % nodes:05d}") for i in range(running))
    yield from (pod(f"pod-{i}") for i in range(pending))


def basic_large() -> Iterator[Doc]:
    return basic(5000, 1000, 50000)


def basic_500() -> Iterator[Doc]:
    """The small cluster of issue 28's reference table: 500 nodes, 1,000 pods."""
    return basic(500, 100, 1000)


SHAPES = (("100m", "500Mi"), ("250m", "1Gi"), ("500m", "512Mi"), ("1", "2Gi"), ("50m", "128Mi"))


def full_cluster(nodes: int = 5000, total: int = 150000, running: int = 100000) -> Iterator[Doc]:
    """Mostly-full nodes in three zones and a backlog of mixed pods, 150,000 pods in all."""
    yield from (node(i, cpu="32", memory="128Gi", zones=3) for i in range(nodes))
    for i in range(running):
        cpu, mem = SHAPES[i % len(SHAPES)]
        yield pod(
            f"run-{i}", cpu, mem, node_name=f"node-{i % nodes:05d}", labels={"app": f"app-{i % 50}"}
        )
    for i in range(total - running):
        cpu, mem = SHAPES[(i * 7) % len(SHAPES)]
        yield pod(f"pend-{i}", cpu, mem, labels={"app": f"app-{i % 50}"})


def topology_spreading(
    nodes: int = 5000, running: int = 1000, pending: int = 5000
) -> Iterator[Doc]:
    yield from (node(i, zones=3) for i in range(nodes))
    labels = {"color": "blue"}
    constraint = {
        "topologySpreadConstraints": [
            {
                "maxSkew": 5,
                "topologyKey": "topology.kubernetes.io/zone",
                "whenUnsatisfiable": "DoNotSchedule",
                "labelSelector": {"matchLabels": labels},
            }
        ]
    }
    yield from (
        pod(f"init-{i}", node_name=f"node-{i % nodes:05d}", labels=labels) for i in range(running)
    )
    yield from (pod(f"spread-{i}", labels=labels, spec=constraint) for i in range(pending))


def pod_anti_affinity(nodes: int = 5000, pending: int = 2000) -> Iterator[Doc]:
    yield from (node(i) for i in range(nodes))
    labels = {"color": "green"}
    anti = {
        "affinity": {
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "labelSelector": {"matchLabels": labels},
                        "topologyKey": "kubernetes.io/hostname",
                    }
                ]
            }
        }
    }
    yield from (pod(f"anti-{i}", labels=labels, spec=anti) for i in range(pending))


def preemption(nodes: int = 1000, low: int = 4000, high: int = 1000) -> Iterator[Doc]:
    yield priority_class("low", 1)
    yield priority_class("high", 10)
    yield from (node(i) for i in range(nodes))
    yield from (
        pod(f"low-{i}", "900m", "500Mi", node_name=f"node-{i % nodes:05d}", priority_class="low")
        for i in range(low)
    )
    yield from (pod(f"high-{i}", "3000m", "500Mi", priority_class="high") for i in range(high))


def pod_affinity(nodes: int = 5000, running: int = 5000, pending: int = 1000) -> Iterator[Doc]:
    """scheduler_perf's SchedulingPodAffinity: one zone, every pod with required affinity
    to the others (in two namespaces) by zone, 5,000 of them already running."""
    for i in range(nodes):
        n = node(i)
        n["metadata"]["labels"]["topology.kubernetes.io/zone"] = "zone1"
        yield n
    labels = {"foo": ""}
    spec = {
        "affinity": {
            "podAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "labelSelector": {"matchLabels": labels},
                        "topologyKey": "topology.kubernetes.io/zone",
                        "namespaces": ["sched-1", "sched-0"],
                    }
                ]
            }
        }
    }
    for i in range(running):
        p = pod(f"init-{i}", node_name=f"node-{i % nodes:05d}", labels=labels, spec=spec)
        p["metadata"]["namespace"] = "sched-0"
        yield p
    for i in range(pending):
        p = pod(f"affinity-{i}", labels=labels, spec=spec)
        p["metadata"]["namespace"] = "sched-1"
        yield p


def spread_preemption(nodes: int = 1000, low: int = 4000, high: int = 1000) -> Iterator[Doc]:
    """Resource preemption where every preemptor has a zone spread constraint."""
    yield priority_class("low", 1)
    yield priority_class("high", 10)
    yield from (node(i, zones=3) for i in range(nodes))
    yield from (
        pod(f"low-{i}", "900m", "500Mi", node_name=f"node-{i % nodes:05d}", priority_class="low")
        for i in range(low)
    )
    labels = {"app": "high"}
    spread = {
        "topologySpreadConstraints": [
            {
                "maxSkew": 1,
                "topologyKey": "topology.kubernetes.io/zone",
                "whenUnsatisfiable": "DoNotSchedule",
                "labelSelector": {"matchLabels": labels},
            }
        ]
    }
    yield from (
        pod(f"high-{i}", "3000m", "500Mi", labels=labels, spec=spread, priority_class="high")
        for i in range(high)
    )


def anti_affinity_preemption(nodes: int = 1000, low: int = 4000, high: int = 1000) -> Iterator[Doc]:
    """Resource preemption where the victims' hostname anti-affinity repels the preemptor:
    every node holds one running pod of group g0, and every preemptor is of group g0."""
    yield priority_class("low", 1)
    yield priority_class("high", 10)
    yield from (node(i) for i in range(nodes))
    for i in range(low):
        group = {"group": f"g{i // nodes}"}
        anti = {
            "affinity": {
                "podAntiAffinity": {
                    "requiredDuringSchedulingIgnoredDuringExecution": [
                        {
                            "labelSelector": {"matchLabels": group},
                            "topologyKey": "kubernetes.io/hostname",
                        }
                    ]
                }
            }
        }
        yield pod(
            f"low-{i}",
            "900m",
            "500Mi",
            node_name=f"node-{i % nodes:05d}",
            labels=group,
            spec=anti,
            priority_class="low",
        )
    yield from (
        pod(f"high-{i}", "3000m", "500Mi", labels={"group": "g0"}, priority_class="high")
        for i in range(high)
    )


def unschedulable(nodes: int = 5000, pending: int = 10000, hopeless: int = 200) -> Iterator[Doc]:
    yield from (node(i) for i in range(nodes))
    for i in range(pending):
        yield pod(f"pod-{i}")
        if i % (pending // hopeless) == 0:
            yield pod(f"huge-{i}", cpu="64", memory="1Ti")


# The tolerations the DaemonSet controller adds (docs/semantics.md §9), for the
# written-out twin of the controllers workload.
DAEMON_TOLERATIONS = [
    {"key": f"node.kubernetes.io/{key}", "operator": "Exists", "effect": effect}
    for key, effect in (("not-ready", "NoExecute"), ("unreachable", "NoExecute"),
                        ("disk-pressure", "NoSchedule"), ("memory-pressure", "NoSchedule"),
                        ("pid-pressure", "NoSchedule"), ("unschedulable", "NoSchedule"))
]


def _template(labels: dict[str, str], cpu: str, memory: str) -> Doc:
    spec = pod("t", cpu, memory)["spec"]
    return {"metadata": {"labels": labels}, "spec": spec}


def _deployment(name: str, replicas: int, labels: dict[str, str]) -> Doc:
    return {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"replicas": replicas, "selector": {"matchLabels": labels},
                 "template": _template(labels, "100m", "500Mi")},
    }


def _daemon_set(name: str, labels: dict[str, str]) -> Doc:
    return {
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"selector": {"matchLabels": labels},
                 "template": _template(labels, "50m", "100Mi")},
    }


def _daemon_pod(i: int, node_name: str | None = None, owned: bool = False) -> Doc:
    """The agent DaemonSet's pod for node i, as its controller makes it (bound when
    ``node_name`` is given; ``owned``: with its controller reference)."""
    pinned = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchFields": [
            {"key": "metadata.name", "operator": "In", "values": [f"node-{i:05d}"]}]}]}}}
    spec = {"tolerations": DAEMON_TOLERATIONS, "affinity": pinned}
    doc = pod(f"agent-{i}", "50m", "100Mi", node_name, labels={"app": "agent"}, spec=spec)
    if owned:
        doc["metadata"]["ownerReferences"] = [{"kind": "DaemonSet", "name": "agent",
                                               "controller": True}]
    return doc


def workload_controllers(nodes: int = 5000, replicas: int = 5000) -> Iterator[Doc]:
    """A 5,000-replica Deployment rolled out on 5,000 nodes that already run a DaemonSet's
    pods, as a cluster does once bootstrapped (its daemons come up with the nodes): the
    Deployment controller creates 5,000 pods, the DaemonSet controller finds its pods."""
    yield from (node(i) for i in range(nodes))
    yield _daemon_set("agent", {"app": "agent"})
    yield from (_daemon_pod(i, f"node-{i:05d}", owned=True) for i in range(nodes))
    yield _deployment("web", replicas, {"app": "web"})


def controllers_fresh(nodes: int = 5000, replicas: int = 5000) -> Iterator[Doc]:
    """A 5,000-replica Deployment and a DaemonSet created together on 5,000 empty nodes:
    10,000 pods to create, the Deployment's first (controllers sync in registry order,
    docs/semantics.md §9), then the DaemonSet's (one feasible node each, no scoring)."""
    yield from (node(i) for i in range(nodes))
    yield _deployment("web", replicas, {"app": "web"})
    yield _daemon_set("agent", {"app": "agent"})


def workload_pods(nodes: int = 5000, replicas: int = 5000) -> Iterator[Doc]:
    """The cluster workload-controllers makes, written out: the DaemonSet's pods running,
    and the Deployment's ReplicaSet with its pods pending (its selector gives them
    PodTopologySpread's default constraints)."""
    yield from (node(i) for i in range(nodes))
    yield from (_daemon_pod(i, f"node-{i:05d}", owned=True) for i in range(nodes))
    rs = "web-7d9c5b6f48"
    web = {"app": "web", "pod-template-hash": "7d9c5b6f48"}
    yield {
        "apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"name": rs, "namespace": "default"},
        "spec": {"replicas": replicas, "selector": {"matchLabels": web},
                 "template": _template(web, "100m", "500Mi")},
    }
    for i in range(replicas):
        doc = pod(f"{rs}-{i}", labels=web)
        doc["metadata"]["ownerReferences"] = [{"kind": "ReplicaSet", "name": rs,
                                               "controller": True}]
        yield doc


WORKLOADS: dict[str, Callable[[], Iterator[Doc]]] = {
    "basic": basic,
    "basic-500": basic_500,
    "basic-large": basic_large,
    "full-cluster": full_cluster,
    "topology-spreading": topology_spreading,
    "pod-anti-affinity": pod_anti_affinity,
    "preemption": preemption,
    "spread-preemption": spread_preemption,
    "anti-affinity-preemption": anti_affinity_preemption,
    "pod-affinity": pod_affinity,
    "unschedulable": unschedulable,
    "workload-controllers": workload_controllers,
    "workload-pods": workload_pods,
    "controllers-fresh": controllers_fresh,
    "mixed": mixed,
    "mixed-tight": mixed_tight,
}


def write_manifests(objects: Iterable[Any], path: Path) -> None:
    """The objects as one multi-document YAML file (libyaml's dumper where installed)."""
    with path.open("w") as stream:
        yaml.dump_all(objects, stream, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper))
