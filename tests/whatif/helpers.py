"""Small clusters for what-if tests, written as manifests and loaded as the CLI loads them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ksched_cli.engine.cluster import Cluster
from ksched_cli.whatif.inputs import load_cluster


def node(name: str, cpu: str = "4", memory: str = "8Gi", pods: str = "110",
         labels: dict[str, str] | None = None, taints: list[dict[str, str]] | None = None
         ) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, **(labels or {})}},
        "status": {"allocatable": {"cpu": cpu, "memory": memory, "pods": pods}},
    }
    if taints:
        doc["spec"] = {"taints": taints}
    return doc


def pod(name: str, node_name: str = "", cpu: str = "500m", memory: str = "256Mi",
        labels: dict[str, str] | None = None, owner: tuple[str, str] | None = None,
        namespace: str = "default", annotations: dict[str, str] | None = None,
        **spec: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "namespace": namespace, "labels": labels or {}}
    if owner is not None:
        meta["ownerReferences"] = [
            {"apiVersion": "apps/v1", "kind": owner[0], "name": owner[1], "uid": "u",
             "controller": True}
        ]
    if annotations:
        meta["annotations"] = annotations
    body: dict[str, Any] = {
        "containers": [{"name": "c", "image": "i",
                        "resources": {"requests": {"cpu": cpu, "memory": memory}}}],
        **spec,
    }
    if node_name:
        body["nodeName"] = node_name
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": body}


def pdb(name: str, labels: dict[str, str], min_available: int | None = None,
        max_unavailable: int | None = None, status: dict[str, Any] | None = None
        ) -> dict[str, Any]:
    spec: dict[str, Any] = {"selector": {"matchLabels": labels}}
    if min_available is not None:
        spec["minAvailable"] = min_available
    if max_unavailable is not None:
        spec["maxUnavailable"] = max_unavailable
    doc: dict[str, Any] = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                           "metadata": {"name": name, "namespace": "default"}, "spec": spec}
    if status is not None:
        doc["status"] = status
    return doc


def write(path: Path, docs: list[dict[str, Any]]) -> Path:
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False), encoding="utf-8")
    return path


def load(tmp_path: Path, docs: list[dict[str, Any]]) -> Cluster:
    return load_cluster([str(write(tmp_path / "cluster.yaml", docs))]).cluster
