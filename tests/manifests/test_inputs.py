"""Input forms: files, directories, multi-document YAML, JSON, Lists, and every kind read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ksched_cli.whatif.inputs import load_cluster

from .helpers import docs, node, pod, write


def pod_names(paths: list[Path]) -> list[str]:
    return [p.name for p in load_cluster([str(p) for p in paths]).cluster.pods]


def test_directory_recursion_order(tmp_path: Path) -> None:
    # Names sorted at each level, as kubectl -R walks: "a/" (a directory) sorts before "a.yaml".
    write(tmp_path, {
        "b.yml": pod("p-b"),
        "a.yaml": pod("p-a"),
        "a/x.yaml": pod("p-a-x"),
        "a/sub/y.json": json.dumps({"apiVersion": "v1", "kind": "Pod",
                                    "metadata": {"name": "p-a-sub-y"},
                                    "spec": {"containers": [{"name": "c"}]}}),
        "c.txt": pod("not-read"),
        ".hidden/h.yaml": pod("not-read-hidden"),
        "Z.yaml": pod("p-upper-z"),
    })
    assert pod_names([tmp_path]) == ["p-upper-z", "p-a-sub-y", "p-a-x", "p-a", "p-b"]


def test_paths_keep_argument_order_and_files_are_read_once(tmp_path: Path) -> None:
    write(tmp_path, {"d/a.yaml": pod("a"), "d/b.yaml": pod("b"), "z.yaml": pod("z")})
    paths = [tmp_path / "z.yaml", tmp_path / "d" / "b.yaml", tmp_path / "d"]
    assert pod_names(paths) == ["z", "b", "a"]


def test_a_named_file_is_read_whatever_its_suffix(tmp_path: Path) -> None:
    write(tmp_path, {"snapshot.txt": pod("p")})
    assert pod_names([tmp_path / "snapshot.txt"]) == ["p"]


@pytest.mark.parametrize(
    "text",
    [
        docs(pod("p1"), pod("p2")),
        "---\n" + docs(pod("p1"), "", "null\n", "# only a comment\n", pod("p2")) + "---\n",
        "---\n---\n" + pod("p1") + "...\n---\n" + pod("p2"),
    ],
    ids=["plain", "empty-documents", "markers"],
)
def test_multi_document_yaml(tmp_path: Path, text: str) -> None:
    write(tmp_path, {"m.yaml": text})
    assert pod_names([tmp_path / "m.yaml"]) == ["p1", "p2"]


def _pod_obj(name: str) -> dict[str, object]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
            "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}


def test_json_object_and_list(tmp_path: Path) -> None:
    items = [_pod_obj("j2"), _pod_obj("j3")]
    write(tmp_path, {
        "1.json": json.dumps(_pod_obj("j1"), indent=2),
        "2.json": json.dumps({"apiVersion": "v1", "kind": "List", "items": items}),
    })
    cluster = load_cluster([str(tmp_path)]).cluster
    assert [p.name for p in cluster.pods] == ["j1", "j2", "j3"]
    assert cluster.pods[0].requests == {"cpu": 1000}


def test_kubectl_list_mixes_kinds_in_item_order(tmp_path: Path) -> None:
    # What `kubectl get nodes,pods -A -o yaml` writes.
    items = [node("n1"), pod("p1", node="n1"), node("n2"), pod("p2", "kube-system")]
    text = "apiVersion: v1\nkind: List\nmetadata: {resourceVersion: ''}\nitems:\n"
    for item in items:
        lines = item.splitlines()
        text += "- " + lines[0] + "\n" + "".join(f"  {line}\n" for line in lines[1:])
    write(tmp_path, {"list.yaml": text})
    cluster = load_cluster([str(tmp_path / "list.yaml")]).cluster
    assert [n.name for n in cluster.nodes] == ["n1", "n2"]
    assert [p.key for p in cluster.pods] == ["default/p1", "kube-system/p2"]
    assert [(p.load_index, p.node_name) for p in cluster.pods] == [(0, "n1"), (1, "")]
    assert [n.load_index for n in cluster.nodes] == [0, 1]


def test_typed_list_items_take_the_list_kind(tmp_path: Path) -> None:
    # An API response (PodList) leaves kind and apiVersion out of its items.
    items = [{k: v for k, v in _pod_obj(n).items() if k not in ("kind", "apiVersion")}
             for n in ("l1", "l2")]
    write(tmp_path, {
        "pods.json": json.dumps({"apiVersion": "v1", "kind": "PodList", "items": items}),
        "empty.yaml": "apiVersion: v1\nkind: List\nitems: []\n",
        "null.yaml": "apiVersion: v1\nkind: NodeList\nitems:\n",
    })
    result = load_cluster([str(tmp_path)])
    assert [p.name for p in result.cluster.pods] == ["l1", "l2"]
    assert result.warnings == []


def test_load_index_counts_per_kind_across_files(tmp_path: Path) -> None:
    write(tmp_path, {
        "1.yaml": docs(node("n1"), pod("a"), pod("b")),
        "2.yaml": docs(pod("c"), node("n2"), pod("d")),
    })
    cluster = load_cluster([str(tmp_path)]).cluster
    assert [(p.name, p.load_index) for p in cluster.pods] == [
        ("a", 0), ("b", 1), ("c", 2), ("d", 3)]
    assert [(n.name, n.load_index) for n in cluster.nodes] == [("n1", 0), ("n2", 1)]


ALL_KINDS = """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: pdb, namespace: web}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
status: {disruptionsAllowed: 0}
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: web}
spec: {selector: {app: web}}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, namespace: web}
spec:
  replicas: 0
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: sts}
spec:
  replicas: 0
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: ReplicationController
metadata: {name: rc}
spec:
  replicas: 0
  selector: {app: old}
  template:
    metadata: {labels: {app: old}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: dep, namespace: web}
spec:
  replicas: 0
  selector: {matchLabels: {app: dep}}
  template:
    metadata: {labels: {app: dep}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds}
spec:
  selector: {matchLabels: {app: ds}}
  template:
    metadata: {labels: {app: ds}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: job}
spec:
  suspend: true
  template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: cron}
spec:
  schedule: "@daily"
  suspend: true
  jobTemplate:
    spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}
---
apiVersion: v1
kind: Namespace
metadata: {name: web, labels: {team: a}}
---
apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: web}
spec: {limits: [{type: Container, default: {cpu: 500m}}]}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  csi: {driver: csi.example.com, volumeHandle: h1}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: web}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast}
provisioner: csi.example.com
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: n1}
spec: {drivers: [{name: csi.example.com, nodeID: n1, allocatable: {count: 2}}]}
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: PodGroup
metadata: {name: job, namespace: web}
spec: {minMember: 2}
"""


def test_every_kind_is_stored_under_its_key(tmp_path: Path) -> None:
    write(tmp_path, {"all.yaml": ALL_KINDS})
    result = load_cluster([str(tmp_path / "all.yaml")])
    c = result.cluster
    assert result.warnings == ["cronjob/cron: suspended, no Job planned"]
    assert list(c.priority_classes) == ["high"] and c.priority_classes["high"].value == 1000
    assert [(p.meta.namespace, p.meta.name) for p in c.pdbs] == [("web", "pdb")]
    assert [(w.kind, w.namespace) for w in c.services] == [("Service", "web")]
    # The Deployment's ReplicaSet is created, with no pods (replicas: 0).
    assert [w.meta.name for w in c.replica_sets] == ["rs", "dep-57756b98b4"]
    assert c.pods == []
    assert [w.namespace for w in c.stateful_sets] == ["default"]
    assert [w.selector_map for w in c.replication_controllers] == [{"app": "old"}]
    assert list(c.persistent_volumes) == ["pv1"]
    assert list(c.persistent_volume_claims) == ["web/data"]
    assert list(c.storage_classes) == ["fast"]
    assert list(c.csi_nodes) == ["n1"]
    assert [w.name for w in c.deployments + c.daemon_sets + c.jobs + c.cron_jobs] == [
        "dep", "ds", "job", "cron"]
    assert c.namespace_labels("web") == {"team": "a", "kubernetes.io/metadata.name": "web"}
    assert [r.name for r in c.limit_ranges] == ["defaults"]
    assert list(c.pod_groups) == ["web/job"]


def test_ignored_kinds_get_one_summary_line(tmp_path: Path) -> None:
    config_map = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d}\n"
    hpa = "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\n"
    write(tmp_path, {
        "a.yaml": docs(config_map % 1, hpa, config_map % 2, pod("p"), config_map % 3),
        "b.yaml": docs(
            "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: g}\n",
            config_map % 4,
            pod("done", spec="status: {phase: Succeeded}\n"),
            pod("failed", spec="status: {phase: Failed}\n"),
            pod("running", spec="status: {phase: Running}\n"),
        ),
        "empty/README.md": "nothing here\n",
    })
    result = load_cluster([str(tmp_path)])
    assert result.warnings == [
        "ignoring 6 object(s) of kinds ksched does not read: ConfigMap (4), "
        "HorizontalPodAutoscaler (1), PodGroup scheduling.volcano.sh/v1beta1 (1)",
        "ignoring 2 Pod(s) in phase Succeeded or Failed (kube-scheduler does not see "
        "finished pods)",
    ]
    assert [p.name for p in result.cluster.pods] == ["p", "running"]


def test_an_empty_directory_is_a_warning(tmp_path: Path) -> None:
    (tmp_path / "nothing").mkdir()
    result = load_cluster([str(tmp_path / "nothing")])
    assert result.warnings == [f"{tmp_path / 'nothing'}: no *.yaml, *.yml or *.json files "
                               "in this directory"]
    assert result.cluster.pods == []


def test_a_missing_api_version_is_taken_as_the_expected_one(tmp_path: Path) -> None:
    write(tmp_path, {"p.yaml": pod("p").replace("apiVersion: v1\n", "")})
    assert pod_names([tmp_path / "p.yaml"]) == ["p"]
