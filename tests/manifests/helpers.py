"""Small manifest snippets for the loader tests."""

from __future__ import annotations

from pathlib import Path


def node(name: str, labels: str = "") -> str:
    return f"""apiVersion: v1
kind: Node
metadata:
  name: {name}
  labels: {{{labels}}}
status:
  allocatable: {{cpu: "4", memory: 8Gi, pods: "110"}}
"""


def pod(name: str, namespace: str = "", node: str = "", spec: str = "") -> str:
    ns = f"\n  namespace: {namespace}" if namespace else ""
    node_line = f"\n  nodeName: {node}" if node else ""
    return f"""apiVersion: v1
kind: Pod
metadata:
  name: {name}{ns}
spec:{node_line}
  containers:
  - name: c
    resources:
      requests: {{cpu: 100m}}
{spec}"""


def priority_class(name: str, value: int, extra: str = "") -> str:
    return f"""apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: {name}
value: {value}
{extra}"""


def docs(*documents: str) -> str:
    return "---\n".join(documents)


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
