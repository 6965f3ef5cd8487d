"""StatefulSet: ordinals, identity labels, claims, and OrderedReady on the simulated clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from ksched_cli.api.meta import OwnerReference
from ksched_cli.config.load import default_config
from ksched_cli.controllers import reconcile
from ksched_cli.engine.engine import Engine
from ksched_cli.whatif.inputs import load_cluster

from .helpers import docs, load, names, node, template, workload

CLAIMS = """  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      storageClassName: local
      resources: {requests: {storage: 1Gi}}
"""
LOCAL = """apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
"""


def pv(name: str, node_name: str) -> str:
    return f"""apiVersion: v1
kind: PersistentVolume
metadata: {{name: {name}}}
spec:
  capacity: {{storage: 5Gi}}
  accessModes: [ReadWriteOnce]
  storageClassName: local
  local: {{path: /mnt/{name}}}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions: [{{key: kubernetes.io/hostname, operator: In, values: [{node_name}]}}]
status: {{phase: Available}}
"""


def stateful_set(policy: str, replicas: int = 3, extra: str = "") -> str:
    spec = (f"  replicas: {replicas}\n  serviceName: db\n  podManagementPolicy: {policy}\n"
            f"  selector: {{matchLabels: {{app: db}}}}\n{extra}" + template("app: db") + CLAIMS)
    return workload("StatefulSet", "db", spec)


def test_parallel_creates_every_ordinal_with_its_identity_and_claims(tmp_path: Path) -> None:
    cluster = load(tmp_path, node("n1"), LOCAL, stateful_set("Parallel")).cluster
    assert names(cluster.pods) == ["db-0", "db-1", "db-2"]
    for ordinal, pod in enumerate(cluster.pods):
        assert pod.labels["statefulset.kubernetes.io/pod-name"] == f"db-{ordinal}"
        assert pod.labels["apps.kubernetes.io/pod-index"] == str(ordinal)
        assert pod.labels["controller-revision-hash"].startswith("db-")
        assert (pod.hostname, pod.subdomain) == (f"db-{ordinal}", "db")
        assert pod.meta.owner_references == (OwnerReference("StatefulSet", "db", True),)
        assert [(v.name, v.claim_name) for v in pod.volumes] == [("data", f"data-db-{ordinal}")]
        assert pod.workload == "statefulset/db"
    assert sorted(cluster.persistent_volume_claims) == [
        "default/data-db-0", "default/data-db-1", "default/data-db-2"]
    claim = cluster.persistent_volume_claims["default/data-db-1"]
    assert claim.storage_class_name == "local" and claim.meta.labels == {"app": "db"}


def test_an_existing_claim_is_reused(tmp_path: Path) -> None:
    existing = """apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-db-0}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: other
  resources: {requests: {storage: 9Gi}}
"""
    cluster = load(tmp_path, node("n1"), existing, stateful_set("Parallel", 1)).cluster
    assert cluster.persistent_volume_claims["default/data-db-0"].storage_class_name == "other"


def test_ordered_ready_creates_one_ordinal_until_it_binds(tmp_path: Path) -> None:
    cluster = load(tmp_path, node("n1"), LOCAL, stateful_set("OrderedReady")).cluster
    assert names(cluster.pods) == ["db-0"]
    assert reconcile(cluster).created == []  # db-0 is still pending: nothing more
    assert cluster.on_bound is not None


def test_ordered_ready_plans_each_ordinal_after_the_previous_binds(tmp_path: Path) -> None:
    docs = [node("n1"), node("n2"), LOCAL, pv("pv-a", "n1"), pv("pv-b", "n2"),
            pv("pv-c", "n1"), stateful_set("OrderedReady")]
    cluster = load(tmp_path, *docs).cluster
    plan = Engine(default_config(), cluster).run()
    assert [(d.pod, d.outcome) for d in plan.decisions] == [
        ("default/db-0", "Scheduled"), ("default/db-1", "Scheduled"),
        ("default/db-2", "Scheduled")]


def test_ordered_ready_stops_at_an_unschedulable_ordinal(tmp_path: Path) -> None:
    # No volume for any claim: db-0 never binds, so db-1 is never created.
    cluster = load(tmp_path, node("n1"), LOCAL, stateful_set("OrderedReady")).cluster
    plan = Engine(default_config(), cluster).run()
    assert [(d.pod, d.outcome) for d in plan.decisions] == [("default/db-0", "Unschedulable")]


@pytest.mark.parametrize(
    ("replicas", "start", "created", "deleted"),
    [
        (1, 0, [], ["db-2", "db-1"]),  # scale down: highest ordinal first
        (4, 0, ["db-3"], []),
        (2, 1, ["db-2"], ["db-0"]),  # spec.ordinals.start moves the range
    ],
)
def test_reconcile_with_existing_members(
    tmp_path: Path, replicas: int, start: int, created: list[str], deleted: list[str]
) -> None:
    running = [
        f"""apiVersion: v1
kind: Pod
metadata:
  name: db-{i}
  labels: {{app: db}}
  ownerReferences: [{{kind: StatefulSet, name: db, controller: true}}]
spec:
  nodeName: n1
  containers: [{{name: c, resources: {{requests: {{cpu: 100m}}}}}}]
"""
        for i in range(2 if start else 3)
    ]
    extra = f"  ordinals: {{start: {start}}}\n"
    result = load(tmp_path, node("n1"), LOCAL, *running,
                  stateful_set("Parallel", replicas, extra))
    pending = [p.name for p in result.cluster.pods if not p.node_name]
    assert pending == created
    kept = {p.name for p in result.cluster.pods}
    assert all(name not in kept for name in deleted)


def test_only_orphans_named_as_members_are_adopted(tmp_path: Path) -> None:
    orphans = [
        f"""apiVersion: v1
kind: Pod
metadata: {{name: {name}, labels: {{app: db}}}}
spec:
  nodeName: n1
  containers: [{{name: c}}]
"""
        for name in ("db-1", "db-7", "stray")
    ]
    result = load(tmp_path, node("n1"), LOCAL, *orphans, stateful_set("Parallel"))
    pods = {p.name: p for p in result.cluster.pods}
    # db-1 is adopted as ordinal 1, db-7 adopted and condemned, stray is not a member.
    assert sorted(pods) == ["db-0", "db-1", "db-2", "stray"]
    assert (pods["db-1"].workload, pods["stray"].workload) == ("statefulset/db", "")
    assert "statefulset/db: deletes 1 pod(s) it does not want: default/db-7" in result.warnings


@pytest.mark.parametrize(("version", "expected"), [("1.33", None), ("1.34", "gold")])
def test_claim_template_attributes_class_kept_from_1_34(
    tmp_path: Path, version: str, expected: str | None
) -> None:
    """The controller's claims go through the API server: v1.33 drops the field."""
    spec = ("  replicas: 1\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n"
            + template("app: db")
            + CLAIMS.replace("storageClassName: local", "storageClassName: local\n"
                             "      volumeAttributesClassName: gold"))
    path = tmp_path / "input.yaml"
    path.write_text(docs(node("n1"), LOCAL, workload("StatefulSet", "db", spec)))
    cluster = load_cluster([str(path)], kubernetes_version=version).cluster
    assert cluster.persistent_volume_claims["default/data-db-0"].attributes_class == expected
