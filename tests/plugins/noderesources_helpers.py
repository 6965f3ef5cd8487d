"""Builders for the noderesources plugin tests, shaped like kube-scheduler's test wrappers."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from ksched_cli.api.node import Node, parse_node
from ksched_cli.api.pod import Pod, parse_pod
from ksched_cli.framework.nodeinfo import NodeInfo

Requests = Mapping[str, str]

_names = itertools.count()


def node(name: str, allocatable: Requests) -> Node:
    """st.MakeNode().Capacity(...): capacity and allocatable are exactly ``allocatable``."""
    alloc = dict(allocatable)
    raw: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name},
        "status": {"allocatable": alloc, "capacity": alloc},
    }
    return parse_node(raw)


def go_node(
    name: str, milli_cpu: int, memory: int, extended: Mapping[str, int] | None = None
) -> Node:
    """noderesources' makeNode: cpu in millicores, memory in bytes, no pods resource."""
    alloc = {k: str(v) for k, v in (extended or {}).items()}
    alloc.update(cpu=f"{milli_cpu}m", memory=str(memory))
    return node(name, alloc)


def pod(
    *containers: Requests | None,
    node_name: str = "",
    init: Sequence[Requests | None] = (),
    sidecars: Sequence[Requests | None] = (),
    overhead: Requests | None = None,
) -> Pod:
    """One container per entry (st.MakePod().Req(...)); ``None`` is a container without requests.

    ``sidecars`` are restartable init containers placed before the plain ``init`` ones.
    With no containers at all the pod has none, like st.MakePod().Obj().
    """

    def container(i: int, reqs: Requests | None, restart: str = "") -> dict[str, Any]:
        c: dict[str, Any] = {"name": f"c{i}", "image": "img"}
        if reqs is not None:
            c["resources"] = {"requests": dict(reqs)}
        if restart:
            c["restartPolicy"] = restart
        return c

    spec: dict[str, Any] = {
        "containers": [container(i, r) for i, r in enumerate(containers)] or [container(0, None)],
        "initContainers": [container(100 + i, r, "Always") for i, r in enumerate(sidecars)]
        + [container(200 + i, r) for i, r in enumerate(init)],
    }
    if node_name:
        spec["nodeName"] = node_name
    if overhead is not None:
        spec["overhead"] = dict(overhead)
    raw = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": f"p{next(_names)}", "namespace": "default"},
        "spec": spec,
    }
    built = parse_pod(raw)
    if not containers:
        built.containers = ()
        built.finalize()
    return built


def res(
    milli_cpu: int = 0,
    memory: int = 0,
    ephemeral: int = 0,
    scalars: Mapping[str, int] | None = None,
) -> dict[str, str]:
    """A container request as newResourcePod(framework.Resource{...}) writes it: explicit zeros."""
    out = {
        "cpu": f"{milli_cpu}m",
        "memory": str(memory),
        "pods": "0",
        "ephemeral-storage": str(ephemeral),
    }
    out.update((name, str(value)) for name, value in (scalars or {}).items())
    return out


def node_info(n: Node, *pods: Pod) -> NodeInfo:
    info = NodeInfo(n)
    for p in pods:
        info.add_pod(p)
    return info
