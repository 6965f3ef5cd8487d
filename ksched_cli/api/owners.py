"""The workload that owns a pod, as the output names it (``deployment/web``)."""

from __future__ import annotations

from .pod import Pod


def owner_of(pod: Pod) -> str:
    """``Pod.workload`` (filled by the controllers layer) or, for a pod of the input, its
    controller owner reference as ``kind/name`` (kubectl's lower-case kind); "" when bare."""
    if pod.workload:
        return pod.workload
    ref = pod.meta.controller_ref()
    return f"{ref.kind.lower()}/{ref.name}" if ref is not None else ""


def owner_label(pod_key: str, owner: str) -> str:
    """How a table names a workload: ``kind/name`` in the default namespace, as kubectl
    does, and ``NAMESPACE/kind/name`` elsewhere (two workloads may share a name)."""
    namespace = pod_key.split("/", 1)[0]
    return owner if namespace == "default" else f"{namespace}/{owner}"
