"""What every operation is given: the cluster to change, through a target, and the
controllers that recreate deleted pods."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from difflib import SequenceMatcher
from typing import Protocol

from ...api.node import Node
from ...api.pod import Pod
from ...engine.cluster import Cluster
from ...errors import KschedError
from ...record import record
from ..drain_wait import DrainRetries
from ..model import CREATED, DELETED, RECREATED, OperationResult, PodChange
from ..reconcile import Reconciler
from ..selector_text import parse_selector


class ClusterTarget(Protocol):
    """Changes to the cluster. Before a plan they edit the loaded objects; during a
    scenario they go through the running engine, which reacts to each as an event."""

    @property
    def cluster(self) -> Cluster: ...

    def delete_pod(self, pod: Pod) -> None: ...

    def create_pod(self, pod: Pod) -> None: ...

    def set_unschedulable(self, node: Node, value: bool) -> None: ...

    def add_node(self, node: Node) -> None: ...

    def remove_node(self, node: Node) -> None: ...

    def created_by_controller(self, pod: Pod) -> None:
        """A pod the controllers layer already put in ``cluster.pods``."""

    def deleted_by_controller(self, pod: Pod) -> None:
        """A pod the controllers layer already took out of ``cluster.pods``."""

    def storage_added(self, resource: str, label: str, objects: Sequence[object]) -> None:
        """Storage objects of one kind were created (a scenario's PVs, PVCs, ...)."""


class Operation(Protocol):
    text: str  # as given, e.g. "--drain node-1"

    def check(self, cluster: Cluster) -> None:
        """Raise KschedError (naming the option) when the operation cannot apply."""

    def apply(self, ctx: OpContext) -> OperationResult: ...


@record
class OpContext:
    target: ClusterTarget
    reconciler: Reconciler
    time: float = 0.0
    notes: list[str] = field(default_factory=list)
    # Evictions a drain keeps asking for (kubectl drain's retries); None: asked once.
    retries: DrainRetries | None = None

    @property
    def cluster(self) -> Cluster:
        return self.target.cluster

    def recreate(
        self, removed: Sequence[Pod], result: OperationResult, added: Sequence[Node] = ()
    ) -> None:
        """The controllers replace what ``removed`` lost and give ``added`` nodes their
        DaemonSet pods; new pods are created pending."""
        if not removed and not added:
            return
        self.sync(result, removed, added)

    def sync(
        self, result: OperationResult, removed: Sequence[Pod] = (), added: Sequence[Node] = ()
    ) -> None:
        """Let the controllers reconcile, and record what they created and deleted."""
        done = self.reconciler.reconcile(self.cluster, removed, added)
        for pod in done.deleted:
            if done.applied:
                self.target.deleted_by_controller(pod)
            else:
                self.target.delete_pod(pod)
            result.changes.append(PodChange(pod.key, DELETED, pod.node_name,
                                            "deleted by its controller", owner_text(pod),
                                            operation=result.operation))
        created = [(pod, replaces, done.applied) for pod, replaces in done.created]
        created += [(pod, replaces, False) for pod, replaces in done.copies]
        for pod, replaces, applied in created:
            if applied:
                self.target.created_by_controller(pod)
            else:
                self.target.create_pod(pod)
            why = f"replaces {replaces.key}" if replaces else "created by its controller"
            result.changes.append(
                PodChange(
                    pod.key,
                    RECREATED if replaces is not None else CREATED,
                    reason=why,
                    workload=owner_text(pod),
                    replaces=replaces.key if replaces is not None else "",
                    from_node=replaces.node_name if replaces is not None else "",
                    operation=result.operation,
                )
            )


def owner_text(pod: Pod) -> str:
    """``replicaset/web-5d4f`` as kubectl names the controller; the workload when known."""
    if pod.workload:
        return pod.workload
    ref = pod.meta.controller_ref()
    return f"{ref.kind.lower()}/{ref.name}" if ref is not None else ""


@record(frozen=True)
class NodeChoice:
    """A node named on the command line, or ``-l SELECTOR`` over node labels."""

    option: str
    value: str

    @property
    def selector(self) -> str | None:
        for prefix in ("-l ", "-l=", "--selector ", "--selector="):
            if self.value.startswith(prefix):
                return self.value[len(prefix) :].strip()
        return None

    def nodes(self, cluster: Cluster) -> list[Node]:
        """The chosen nodes in name order; an unknown name or an empty match is an error."""
        selector_text = self.selector
        if selector_text is None:
            found = next((n for n in cluster.nodes if n.name == self.value), None)
            if found is None:
                raise KschedError(
                    f'no node named "{self.value}" in the input{_close(self.value, cluster)}',
                    field=self.option,
                )
            return [found]
        try:
            selector = parse_selector(selector_text)
        except ValueError as exc:
            raise KschedError(f"-l {selector_text}: {exc}", field=self.option) from None
        chosen = sorted(
            (n for n in cluster.nodes if selector.matches(n.labels)), key=lambda n: n.name
        )
        if not chosen:
            raise KschedError(f"no node matches -l {selector_text}", field=self.option)
        return chosen

    def describe(self) -> str:
        selector = self.selector
        return f"-l {selector}" if selector is not None else self.value


@record
class NodeOperation:
    """An operation on the nodes a ``NodeChoice`` names; checking it resolves the choice."""

    choice: NodeChoice
    text: str

    def check(self, cluster: Cluster) -> None:
        self.choice.nodes(cluster)


def _close(name: str, cluster: Cluster) -> str:
    """`` (did you mean X?)`` with the closest name, the lowest among equally close ones."""
    names = sorted(n.name for n in cluster.nodes)
    ratio, closest = max(
        ((SequenceMatcher(None, name, n).ratio(), n) for n in names),
        key=lambda scored: scored[0],
        default=(0.0, ""),
    )
    return f" (did you mean {closest}?)" if ratio >= 0.6 else ""
