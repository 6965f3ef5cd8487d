"""``--add-nodes FILE=N``: N copies of the Node in FILE, named ``<name>-<i>``.

Each copy gets its own ``kubernetes.io/hostname`` label; DaemonSets then create their
pods on the copies where they should run.
"""

from __future__ import annotations

import dataclasses
from dataclasses import field
from pathlib import Path

from ... import limits
from ...api.node import Node
from ...engine.cluster import Cluster
from ...errors import KschedError
from ...record import record
from ..inputs import load_cluster
from ..model import OperationResult
from .base import OpContext

HOSTNAME_LABEL = "kubernetes.io/hostname"
OPTION = "--add-nodes"


def parse_count(value: str, option: str) -> tuple[str, int]:
    """``LEFT=N`` with N a positive integer."""
    left, sep, count = value.rpartition("=")
    if not sep or not left or not count.isdigit() or int(count) < 1:
        raise KschedError(
            f'malformed value "{value}": expected {_shape(option)} with N a positive integer',
            field=option,
        )
    return left, int(count)


def _shape(option: str) -> str:
    return "FILE=N" if option == OPTION else "KIND/NAME=N"


@record
class AddNodes:
    file: str
    count: int
    text: str

    _templates: dict[str, Node] = field(default_factory=dict, init=False, repr=False)

    def template(self, cluster: Cluster) -> Node:
        """The Node of FILE, checked against the cluster's Kubernetes release."""
        version = cluster.kubernetes_version
        if version not in self._templates:
            self._templates[version] = self._load(version)
        return self._templates[version]

    def _load(self, version: str) -> Node:
        if not self.file:
            raise KschedError("no file given", field=OPTION)
        if Path(self.file).is_dir():  # one template: not a directory's manifests, read whole
            raise KschedError(
                f"{self.file}: is a directory: expected a file holding one Node manifest",
                field=OPTION,
            )
        # Only the Node matters: workloads in the file are not expanded into pods.
        loaded = load_cluster([self.file], reconcile_workloads=False, kubernetes_version=version)
        nodes = loaded.cluster.nodes
        if len(nodes) != 1:
            raise KschedError(
                f"{self.file}: expected one Node manifest (the template), found {len(nodes)}",
                field=OPTION,
            )
        return nodes[0]

    def check(self, cluster: Cluster) -> None:
        limits.check_nodes(cluster.created_nodes + self.count, self.text)
        self.template(cluster)  # loads and checks the file before anything runs

    def apply(self, ctx: OpContext) -> OperationResult:
        result = OperationResult(self.text, ctx.time)
        limits.check_nodes(ctx.cluster.created_nodes + self.count, self.text)
        ctx.cluster.created_nodes += self.count
        taken = {n.name for n in ctx.cluster.nodes}
        added: list[Node] = []
        index = max((n.load_index for n in ctx.cluster.nodes), default=-1) + 1
        suffix = 0
        while len(added) < self.count:
            suffix += 1
            name = f"{self.template(ctx.cluster).name}-{suffix}"
            if name in taken:
                continue
            node = copy_node(self.template(ctx.cluster), name, index + len(added))
            ctx.target.add_node(node)
            added.append(node)
            result.nodes.append(name)
        ctx.recreate([], result, added)
        return result


def copy_node(template: Node, name: str, load_index: int) -> Node:
    labels = {**template.labels, HOSTNAME_LABEL: name}
    meta = dataclasses.replace(template.meta, name=name, uid="", labels=labels)
    return dataclasses.replace(template, meta=meta, labels=labels, load_index=load_index)
