"""The kinds ``ksched`` reads: each one's apiVersion, scope, parser and place in a Cluster."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from ..api.fields import Raw
from ..api.node import parse_node
from ..api.pod import parse_pod
from ..api.policy import parse_pdb, parse_priority_class
from ..engine.cluster import Cluster
from ..record import record

Store = Callable[[Cluster, str, Any], None]
# api/podgroup.py's POD_GROUP_API_VERSION, kept here so that reading no PodGroup imports
# no PodGroup (tests/cli/test_startup.py keeps the two equal).
POD_GROUP_API_VERSION = "scheduling.x-k8s.io/v1alpha1"


@record(frozen=True)
class KindSpec:
    """A kind ksched reads: its apiVersion, scope, parser and place in a Cluster."""

    api_version: str
    namespaced: bool
    parse: Callable[[Raw], Any]
    store: Store


class _Lazy:
    """``api.<module>.<function>``, imported with the kind's first object: most inputs
    hold a few kinds, and the API modules of the others (storage, workloads) are large."""

    __slots__ = ("function", "module", "resolved")

    def __init__(self, module: str, function: str) -> None:
        self.module, self.function = module, function
        self.resolved: Callable[..., Any] | None = None

    def __call__(self, *args: Any) -> Any:
        if self.resolved is None:
            module = importlib.import_module(f"..api.{self.module}", __package__)
            self.resolved = getattr(module, self.function)
        return self.resolved(*args)


# What a release's API server keeps of a PV's or claim's volumeAttributesClassName.
admit_attributes_class = _Lazy("attributes_class", "admit_attributes_class")


def _workload(kind: str) -> Callable[[Raw], Any]:
    parse = _Lazy("workloads", "parse_workload")
    return lambda raw: parse(kind, raw)


def _append(attr: str) -> Store:
    return lambda cluster, _key, obj: getattr(cluster, attr).append(obj)


def _put(attr: str) -> Store:
    return lambda cluster, key, obj: getattr(cluster, attr).__setitem__(key, obj)


# loader.py's builder also numbers Pods and Nodes in load order and admits Pods once all
# is read.
KINDS: Mapping[str, KindSpec] = {
    "Node": KindSpec("v1", False, parse_node, _append("nodes")),
    "Pod": KindSpec("v1", True, parse_pod, _append("pods")),
    "PriorityClass": KindSpec(
        "scheduling.k8s.io/v1", False, parse_priority_class, _put("priority_classes")
    ),
    "PodDisruptionBudget": KindSpec("policy/v1", True, parse_pdb, _append("pdbs")),
    "Service": KindSpec("v1", True, _workload("Service"), _append("services")),
    "ReplicaSet": KindSpec("apps/v1", True, _workload("ReplicaSet"), _append("replica_sets")),
    "StatefulSet": KindSpec("apps/v1", True, _workload("StatefulSet"), _append("stateful_sets")),
    "ReplicationController": KindSpec(
        "v1", True, _workload("ReplicationController"), _append("replication_controllers")
    ),
    "PersistentVolume": KindSpec(
        "v1", False, _Lazy("storage", "parse_persistent_volume"), _put("persistent_volumes")
    ),
    "PersistentVolumeClaim": KindSpec(
        "v1",
        True,
        _Lazy("storage", "parse_persistent_volume_claim"),
        _put("persistent_volume_claims"),
    ),
    "StorageClass": KindSpec(
        "storage.k8s.io/v1",
        False,
        _Lazy("storage", "parse_storage_class"),
        _put("storage_classes"),
    ),
    "CSINode": KindSpec(
        "storage.k8s.io/v1", False, _Lazy("storage", "parse_csi_node"), _put("csi_nodes")
    ),
    "PodGroup": KindSpec(
        POD_GROUP_API_VERSION, True, _Lazy("podgroup", "parse_pod_group"), _put("pod_groups")
    ),
    "Deployment": KindSpec("apps/v1", True, _workload("Deployment"), _append("deployments")),
    "DaemonSet": KindSpec("apps/v1", True, _workload("DaemonSet"), _append("daemon_sets")),
    "Job": KindSpec("batch/v1", True, _workload("Job"), _append("jobs")),
    "CronJob": KindSpec("batch/v1", True, _workload("CronJob"), _append("cron_jobs")),
    "Namespace": KindSpec(
        "v1", False, _Lazy("namespaces", "parse_namespace"), _put("namespaces")
    ),
    "LimitRange": KindSpec(
        "v1", True, _Lazy("namespaces", "parse_limit_range"), _append("limit_ranges")
    ),
}
READ_KINDS = ", ".join(KINDS)


def _group(api_version: str) -> str:
    return api_version.rpartition("/")[0]


def unserved_version(kind: str, api_version: str, served: str) -> bool:
    """Whether the API server would answer ``no matches for kind`` for a kind ksched reads
    at ``api_version``: its own group at another version (``apps/v1beta2``), or any
    Kubernetes-owned group (no dot, as only built-in groups may be, or ``*.k8s.io``, which
    needs Kubernetes' approval), where none of these kinds is served but at ``served``.
    Any other group's kind of that name (Volcano's PodGroup) is another resource."""
    group = _group(api_version)
    return group == _group(served) or "." not in group or group.endswith(".k8s.io")
