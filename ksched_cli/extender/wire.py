"""JSON bodies of the extender API (k8s.io/kube-scheduler/extender/v1).

ksched keeps no raw manifests, so pods and nodes go out as minimal v1 objects rebuilt
from the model: what an extender usually reads (names, uid, labels, requests, taints,
allocatable). The field names are Go's: the API types have no json tags.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..api.node import Node
from ..api.pod import Container, Pod

MAX_EXTENDER_PRIORITY = 10
JSON = dict[str, Any]


def _quantity(value: Fraction | int) -> str:
    """A canonical-enough quantity: whole units, else millis."""
    exact = Fraction(value)
    if exact.denominator == 1:
        return str(exact.numerator)
    return f"{-((-exact * 1000) // 1)}m"  # round up, as resource.Quantity does


def _container(c: Container) -> JSON:
    requests = {k: _quantity(v) for k, v in c.requests.items()}
    return {"name": c.name, "image": c.image, "resources": {"requests": requests}}


def pod_json(pod: Pod) -> JSON:
    meta: JSON = {"name": pod.name, "namespace": pod.namespace, "uid": pod.uid}
    if pod.labels:
        meta["labels"] = dict(pod.labels)
    if pod.meta.annotations:
        meta["annotations"] = dict(pod.meta.annotations)
    spec: JSON = {
        "schedulerName": pod.scheduler_name,
        "priority": pod.priority,
        "containers": [_container(c) for c in pod.containers],
    }
    if pod.init_containers:
        spec["initContainers"] = [_container(c) for c in pod.init_containers]
    if pod.node_name:
        spec["nodeName"] = pod.node_name
    if pod.node_selector:
        spec["nodeSelector"] = dict(pod.node_selector)
    status: JSON = {"nominatedNodeName": pod.nominated_node_name} if pod.nominated_node_name else {}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}


def _allocatable(values: Mapping[str, int]) -> dict[str, str]:
    # The model keeps cpu in millicores and everything else in units.
    return {k: f"{v}m" if k == "cpu" else str(v) for k, v in values.items()}


def node_json(node: Node) -> JSON:
    meta: JSON = {"name": node.name}
    if node.meta.uid:
        meta["uid"] = node.meta.uid
    if node.labels:
        meta["labels"] = dict(node.labels)
    spec: JSON = {}
    if node.taints:
        spec["taints"] = [
            {"key": t.key, "value": t.value, "effect": t.effect}
            if t.value
            else {"key": t.key, "effect": t.effect}
            for t in node.taints
        ]
    if node.unschedulable:
        spec["unschedulable"] = True
    allocatable = _allocatable(node.allocatable)
    status = {"allocatable": allocatable, "capacity": dict(allocatable)}
    return {"apiVersion": "v1", "kind": "Node", "metadata": meta, "spec": spec, "status": status}


def field(body: Mapping[str, Any], name: str) -> Any:
    """``body[name]`` matched case-insensitively, as Go's encoding/json decodes."""
    if name in body:
        return body[name]
    lower = name.lower()
    return next((v for k, v in body.items() if k.lower() == lower), None)
