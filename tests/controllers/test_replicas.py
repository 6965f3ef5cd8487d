"""Deployment, ReplicaSet and ReplicationController: counts, names, labels, owners,
reconciliation with the pods of a snapshot, and the deletion ranking."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ksched_cli.api.meta import OwnerReference
from ksched_cli.controllers import reconcile
from ksched_cli.controllers.deployment import pod_template_hash

from .helpers import load, names, node, template, workload

WEB = template("app: web")
DEPLOYMENT = workload("Deployment", "web", "  replicas: 3\n  selector: {matchLabels: {app: web}}\n"
                      + WEB)


def test_deployment_creates_its_replica_set_and_pods(tmp_path: Path) -> None:
    cluster = load(tmp_path, node("n1"), DEPLOYMENT).cluster
    [rs] = cluster.replica_sets
    hash_value = pod_template_hash(cluster.deployments[0])
    assert rs.name == f"web-{hash_value}"
    assert rs.meta.owner_references == (OwnerReference("Deployment", "web", True),)
    assert rs.selector is not None and rs.selector.matches(
        {"app": "web", "pod-template-hash": hash_value})
    assert not rs.selector.matches({"app": "web"})
    assert len(cluster.pods) == 3
    for pod in cluster.pods:
        assert re.fullmatch(rf"web-{hash_value}-[bcdfghjklmnpqrstvwxz2456789]{{5}}", pod.name)
        assert pod.labels == {"app": "web", "pod-template-hash": hash_value}
        assert pod.meta.owner_references == (OwnerReference("ReplicaSet", rs.name, True),)
        assert pod.workload == "deployment/web"
        assert not pod.node_name and pod.requests["cpu"] == 100
    assert len(set(names(cluster.pods))) == 3


def test_reconcile_again_creates_nothing_and_scaling_creates_the_difference(
    tmp_path: Path,
) -> None:
    cluster = load(tmp_path, node("n1"), DEPLOYMENT).cluster
    before = names(cluster.pods)
    again = reconcile(cluster)
    assert (again.created, again.deleted) == ([], [])
    spec = cluster.deployments[0].controller
    object.__setattr__(spec, "replicas", 5)
    scaled = reconcile(cluster)
    assert len(scaled.created) == 2 and scaled.deleted == []
    assert names(cluster.pods)[:3] == before
    object.__setattr__(spec, "replicas", 1)
    down = reconcile(cluster)
    assert len(down.deleted) == 4 and len(cluster.pods) == 1


def _snapshot(replicas: int, image: str = "nginx:1.25") -> list[str]:
    """A Deployment, its ReplicaSet and two running pods, as ``kubectl get -o yaml`` has them."""
    rs_template = template("app: web, pod-template-hash: 5d8f7c9b6").replace(
        "nginx:1.25", image)
    rs = workload(
        "ReplicaSet", "web-5d8f7c9b6",
        "  replicas: 2\n  selector: {matchLabels: {app: web, pod-template-hash: 5d8f7c9b6}}\n"
        + rs_template,
        meta="  ownerReferences: [{kind: Deployment, name: web, controller: true}]\n")
    pods = [
        f"""apiVersion: v1
kind: Pod
metadata:
  name: web-5d8f7c9b6-{suffix}
  labels: {{app: web, pod-template-hash: 5d8f7c9b6}}
  ownerReferences: [{{kind: ReplicaSet, name: web-5d8f7c9b6, controller: true}}]
  creationTimestamp: "{created}"
spec:
  nodeName: {node_name}
  containers: [{{name: c, image: {image}, resources: {{requests: {{cpu: 100m}}}}}}]
"""
        for suffix, created, node_name in (("aaaaa", "2020-01-01T00:00:00Z", "n1"),
                                           ("bbbbb", "2023-12-31T00:00:00Z", "n2"))
    ]
    deployment = DEPLOYMENT.replace("replicas: 3", f"replicas: {replicas}")
    return [node("n1"), node("n2"), deployment, rs, *pods]


def test_a_snapshot_plus_a_scaled_deployment_plans_only_the_new_pods(tmp_path: Path) -> None:
    cluster = load(tmp_path, *_snapshot(replicas=3)).cluster
    assert names(cluster.replica_sets) == ["web-5d8f7c9b6"]
    pending = [p for p in cluster.pods if not p.node_name]
    assert len(pending) == 1 and pending[0].name.startswith("web-5d8f7c9b6-")
    assert {p.workload for p in cluster.pods} == {"deployment/web"}


def test_a_changed_template_replaces_the_old_pods(tmp_path: Path) -> None:
    cluster = load(tmp_path, *_snapshot(replicas=2, image="nginx:1.24")).cluster
    assert len(cluster.replica_sets) == 2
    assert all(not p.node_name for p in cluster.pods) and len(cluster.pods) == 2
    assert all(p.name.startswith(cluster.replica_sets[1].name) for p in cluster.pods)


def test_scale_down_deletes_unassigned_then_doubled_up_then_newest(tmp_path: Path) -> None:
    cluster = load(tmp_path, *_snapshot(replicas=2)).cluster
    spec = cluster.deployments[0].controller
    object.__setattr__(spec, "replicas", 3)
    [pending] = reconcile(cluster).created
    object.__setattr__(spec, "replicas", 1)
    deleted = reconcile(cluster).deleted
    # The pending pod first; then, of the two running ones, the newer (2^47 ns old, against
    # 2^57 ns for the other, as LogarithmicScaleDown compares them at the plan's start).
    assert names(deleted) == [pending.name, "web-5d8f7c9b6-bbbbb"]


@pytest.mark.parametrize(
    ("kind", "selector", "workload_ref"),
    [
        ("ReplicaSet", "{matchLabels: {app: web}}", "replicaset/web"),
        ("ReplicationController", "{app: web}", "replicationcontroller/web"),
    ],
)
def test_bare_replica_controllers_adopt_matching_orphans(
    tmp_path: Path, kind: str, selector: str, workload_ref: str
) -> None:
    orphan = """apiVersion: v1
kind: Pod
metadata: {name: stray, labels: {app: web}}
spec:
  nodeName: n1
  containers: [{name: c, resources: {requests: {cpu: 100m}}}]
"""
    spec = f"  replicas: 2\n  selector: {selector}\n" + WEB
    cluster = load(tmp_path, node("n1"), orphan, workload(kind, "web", spec)).cluster
    assert [p.workload for p in cluster.pods] == [workload_ref, workload_ref]
    [created] = cluster.pods[1:]
    assert created.name.startswith("web-")
    assert created.meta.owner_references == (OwnerReference(kind, "web", True),)


def test_replication_controller_selector_defaults_to_template_labels(tmp_path: Path) -> None:
    spec = "  replicas: 1\n" + WEB
    cluster = load(tmp_path, node("n1"), workload("ReplicationController", "rc", spec)).cluster
    assert cluster.replication_controllers[0].selector_map == {"app": "web"}
    assert len(cluster.pods) == 1


def test_names_skip_those_in_use(tmp_path: Path) -> None:
    cluster = load(tmp_path, node("n1"), workload(
        "ReplicaSet", "web", "  replicas: 2\n  selector: {matchLabels: {app: web}}\n" + WEB
    )).cluster
    first = names(cluster.pods)
    taken = cluster.pods[0]
    cluster.pods.remove(taken)
    taken.meta.labels = {"other": "x"}
    taken.meta.owner_references = ()
    cluster.pods.append(taken)  # an unrelated pod keeps the name
    [created] = reconcile(cluster).created
    assert created.name not in first


def test_created_pods_are_admitted(tmp_path: Path) -> None:
    limits = """apiVersion: v1
kind: LimitRange
metadata: {name: limits}
spec:
  limits: [{type: Container, defaultRequest: {memory: 64Mi}}]
"""
    gold = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: gold}\n" \
        "value: 100\npreemptionPolicy: Never\n"
    spec = "  replicas: 2\n  selector: {matchLabels: {app: web}}\n" + template(
        "app: web", "      priorityClassName: gold\n")
    cluster = load(tmp_path, node("n1"), limits, gold, workload("Deployment", "web", spec)).cluster
    for pod in cluster.pods:
        assert pod.requests == {"cpu": 100, "memory": 64 * 2**20}
        assert (pod.priority, pod.preemption_policy) == (100, "Never")


def test_deleted_pods_are_said_on_stderr(tmp_path: Path) -> None:
    result = load(tmp_path, *_snapshot(replicas=2, image="nginx:1.24"))
    assert ("deployment/web: deletes 2 pod(s) it does not want: "
            "default/web-5d8f7c9b6-aaaaa, default/web-5d8f7c9b6-bbbbb") in result.warnings


@pytest.mark.parametrize(
    ("owner", "labels", "expected"),
    [
        ("{kind: ReplicaSet, name: web-5d8f7c9b6, controller: true}",
         "{pod-template-hash: 5d8f7c9b6}", "deployment/web"),
        ("{kind: ReplicaSet, name: legacy, controller: true}", "{}", "replicaset/legacy"),
        ("{kind: DaemonSet, name: agent, controller: true}", "{}", "daemonset/agent"),
        ("{kind: Job, name: x-1, controller: true}", "{}", "job/x-1"),
        ("{kind: ConfigMap, name: c, controller: true}", "{}", ""),
        ("{kind: ReplicaSet, name: web, controller: false}", "{}", ""),
    ],
)
def test_pods_of_controllers_absent_from_the_input_still_roll_up(
    tmp_path: Path, owner: str, labels: str, expected: str
) -> None:
    running = f"""apiVersion: v1
kind: Pod
metadata:
  name: p
  labels: {labels}
  ownerReferences: [{owner}]
spec:
  nodeName: n1
  containers: [{{name: c}}]
"""
    [pod] = load(tmp_path, node("n1"), running).cluster.pods
    assert pod.workload == expected
