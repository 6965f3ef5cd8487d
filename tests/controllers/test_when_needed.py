"""The loader runs the controllers only when they can change something (start-up time)."""

from __future__ import annotations

from pathlib import Path

from ksched_cli.controllers.registry import CONTROLLERS
from ksched_cli.manifests.loader import WORKLOAD_LISTS
from ksched_cli.whatif.inputs import load_cluster


def test_loader_knows_every_list_the_controllers_sync() -> None:
    assert set(WORKLOAD_LISTS) == {c.cluster_list for c in CONTROLLERS.values()}


NODE = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""

OWNED = """\
  labels: {pod-template-hash: 5d4f8c}
  ownerReferences:
  - {apiVersion: apps/v1, kind: ReplicaSet, name: web-5d4f8c, uid: u1, controller: true}
"""


def _pod(meta: str) -> str:
    head = "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web-abc12\n  namespace: default\n"
    return head + meta + "spec:\n  containers: [{name: c, image: pause}]\n"


def test_an_owned_pod_still_gets_its_workload_named(tmp_path: Path) -> None:
    (tmp_path / "in.yaml").write_text(NODE + _pod(OWNED))
    (pod,) = load_cluster([str(tmp_path)]).cluster.pods
    assert pod.workload == "deployment/web"


def test_a_bare_pod_has_no_workload(tmp_path: Path) -> None:
    (tmp_path / "in.yaml").write_text(NODE + _pod(""))
    (pod,) = load_cluster([str(tmp_path)]).cluster.pods
    assert pod.workload == ""
