"""Workload manifests for the controller tests, loaded through the normal loader."""

from __future__ import annotations

from pathlib import Path

from ksched_cli.api.pod import Pod
from ksched_cli.manifests.loader import LoadResult
from ksched_cli.whatif.inputs import load_cluster


def node(name: str, labels: str = "", taints: str = "", cpu: str = "4") -> str:
    spec = f"\nspec:\n  taints: [{taints}]" if taints else ""
    return f"""apiVersion: v1
kind: Node
metadata:
  name: {name}
  labels: {{kubernetes.io/hostname: {name}{", " + labels if labels else ""}}}{spec}
status:
  allocatable: {{cpu: "{cpu}", memory: 8Gi, pods: "110"}}
"""


def template(labels: str, spec: str = "", restart: str = "") -> str:
    policy = f"\n      restartPolicy: {restart}" if restart else ""
    return f"""  template:
    metadata:
      labels: {{{labels}}}
    spec:{policy}
      containers:
      - name: c
        image: nginx:1.25
        resources:
          requests: {{cpu: 100m}}
{spec}"""


def workload(kind: str, name: str, spec: str, namespace: str = "default",
             meta: str = "", status: str = "") -> str:
    api = {"Job": "batch/v1", "CronJob": "batch/v1", "ReplicationController": "v1"}.get(
        kind, "apps/v1")
    return f"""apiVersion: {api}
kind: {kind}
metadata:
  name: {name}
  namespace: {namespace}
{meta}spec:
{spec}{status}"""


def docs(*documents: str) -> str:
    return "---\n".join(documents)


def load(tmp_path: Path, *documents: str) -> LoadResult:
    path = tmp_path / "input.yaml"
    path.write_text(docs(*documents))
    return load_cluster([str(path)])


def names(pods: list[Pod]) -> list[str]:
    return [p.name for p in pods]
