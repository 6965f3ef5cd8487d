"""Random clusters whose pods come from controllers, for PodTopologySpread's array paths.

Deployments, ReplicaSets, StatefulSets and ReplicationControllers (selected by Services
or not) give their pods the system default constraints; a DaemonSet's pods carry the
``matchFields`` node affinity and a Service selects them too; bare pods carry soft
constraints of every policy. Nodes miss topology keys, have empty zone values or taints,
and running pods (some terminating, some in another namespace) match the selectors.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import yaml

Doc = dict[str, Any]
HOSTNAME = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
APPS = ("a", "b", "c", "db", "agent")


def _node(rng: random.Random, i: int) -> Doc:
    name = f"n{i:03d}"
    labels: dict[str, str] = {}
    if rng.random() < 0.95:
        labels[HOSTNAME] = name
    pick = rng.random()
    if pick < 0.75:
        labels[ZONE] = rng.choice(("z1", "z2", "z3"))
    elif pick < 0.85:
        labels[ZONE] = ""
    if rng.random() < 0.5:
        labels["rack"] = f"r{rng.randrange(4)}"
    labels["tier"] = rng.choice(("web", "batch"))
    spec: Doc = {}
    if rng.random() < 0.15:
        effect = rng.choice(("NoSchedule", "PreferNoSchedule"))
        spec["taints"] = [{"key": "dedicated", "value": "x", "effect": effect}]
    alloc = {"cpu": str(rng.choice((2, 4, 8))), "memory": "16Gi", "pods": "40"}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": labels},
        "spec": spec,
        "status": {"allocatable": alloc, "capacity": dict(alloc)},
    }


def _pod_spec(rng: random.Random, cpu: str) -> Doc:
    spec: Doc = {
        "containers": [
            {"name": "c", "image": "img:1", "resources": {"requests": {"cpu": cpu}}}
        ]
    }
    if rng.random() < 0.2:
        spec["nodeSelector"] = {"tier": rng.choice(("web", "batch"))}
    if rng.random() < 0.2:
        spec["tolerations"] = [{"key": "dedicated", "operator": "Exists"}]
    return spec


def _soft(rng: random.Random, app: str) -> Doc:
    keys = [HOSTNAME, ZONE, "rack"]
    rng.shuffle(keys)
    constraints = []
    for key in keys[: rng.choice((1, 2, 2, 3))]:
        c: Doc = {"maxSkew": rng.choice((1, 2, 5)), "topologyKey": key,
                  "whenUnsatisfiable": "ScheduleAnyway"}
        if rng.random() < 0.9:
            c["labelSelector"] = {"matchLabels": {"app": app}}
        if rng.random() < 0.3:
            c["nodeAffinityPolicy"] = rng.choice(("Honor", "Ignore"))
        if rng.random() < 0.3:
            c["nodeTaintsPolicy"] = rng.choice(("Honor", "Ignore"))
        if rng.random() < 0.2:
            c["matchLabelKeys"] = ["version"]
        constraints.append(c)
    if rng.random() < 0.1:  # two constraints on one key: the per-node path
        constraints.append({**constraints[0], "maxSkew": 3})
    return {"topologySpreadConstraints": constraints}


def _template(rng: random.Random, app: str, cpu: str) -> Doc:
    spec = _pod_spec(rng, cpu)
    if rng.random() < 0.2:
        spec.update(_soft(rng, app))
    labels = {"app": app, "version": rng.choice(("v1", "v2"))}
    return {"metadata": {"labels": labels}, "spec": spec}


def _workload(kind: str, name: str, app: str, spec: Doc) -> Doc:
    api = "v1" if kind == "ReplicationController" else "apps/v1"
    selector: Any = {"app": app} if kind == "ReplicationController" else {
        "matchLabels": {"app": app}}
    return {"apiVersion": api, "kind": kind,
            "metadata": {"name": name, "namespace": "default"},
            "spec": {"selector": selector, **spec}}


def _service(name: str, selector: dict[str, str] | None, namespace: str = "default") -> Doc:
    spec: Doc = {} if selector is None else {"selector": selector}
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": name, "namespace": namespace}, "spec": spec}


def _running(rng: random.Random, i: int, nodes: list[str]) -> Doc:
    meta: Doc = {"name": f"run-{i}", "namespace": rng.choice(("default", "default", "other")),
                 "labels": {"app": rng.choice(APPS), "version": rng.choice(("v1", "v2"))}}
    if rng.random() < 0.1:
        meta["deletionTimestamp"] = "2026-01-01T00:00:00Z"
    spec = _pod_spec(rng, "100m")
    spec["nodeName"] = rng.choice(nodes)
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}


def _bare(rng: random.Random, i: int) -> Doc:
    app = rng.choice(APPS)
    spec = _pod_spec(rng, rng.choice(("100m", "250m")))
    spec.update(_soft(rng, app))
    meta = {"name": f"bare-{i}", "namespace": "default",
            "labels": {"app": app, "version": rng.choice(("v1", "v2"))}}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}


def documents(seed: int) -> list[Doc]:
    rng = random.Random(seed)
    nodes = [_node(rng, i) for i in range(rng.randint(30, 70))]
    names = [n["metadata"]["name"] for n in nodes]
    docs: list[Doc] = [*nodes]
    docs += [_running(rng, i, names) for i in range(rng.randint(20, 60))]
    docs += [
        _service("svc-a", {"app": "a"}),
        _service("svc-db", {"app": "db", "version": "v1"}),
        _service("svc-agent", {"app": "agent"}),
        _service("svc-other", {"app": "a"}, "other"),
        _service("headless", None),
    ]
    web = _template(rng, "a", "200m")
    if rng.random() < 0.7:  # only nodes with a rack count toward the default zone pairs
        rack = {"matchExpressions": [{"key": "rack", "operator": "Exists"}]}
        web["spec"]["affinity"] = {"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [rack]}}}
    docs.append(_workload("Deployment", "web", "a", {
        "replicas": rng.randint(10, 40), "template": web}))
    docs.append(_workload("ReplicaSet", "rs", "b", {
        "replicas": rng.randint(5, 20), "template": _template(rng, "b", "100m")}))
    docs.append(_workload("StatefulSet", "db", "db", {
        "replicas": rng.randint(3, 10), "serviceName": "svc-db",
        "podManagementPolicy": "Parallel", "template": _template(rng, "db", "250m")}))
    docs.append(_workload("ReplicationController", "rc", "c", {
        "replicas": rng.randint(3, 10), "template": _template(rng, "c", "100m")}))
    agent = _template(rng, "agent", "50m")
    if rng.random() < 0.6:  # PreFilter's inclusion mask on a pod pinned to one node
        agent["spec"]["topologySpreadConstraints"] = [{
            "maxSkew": 1, "topologyKey": ZONE, "whenUnsatisfiable": "DoNotSchedule",
            "labelSelector": {"matchLabels": {"app": "agent"}},
            "nodeAffinityPolicy": "Honor"}]
    docs.append(_workload("DaemonSet", "agent", "agent", {"template": agent}))
    docs += [_bare(rng, i) for i in range(rng.randint(10, 30))]
    return docs


def write(seed: int, directory: Path) -> Path:
    path = directory / f"spread-{seed}.yaml"
    path.write_text(yaml.safe_dump_all(documents(seed), sort_keys=False))
    return path
