"""Operations applied while the engine runs (``ksched simulate``): each change reaches the
scheduler as kube-scheduler's event handlers deliver it (eventhandlers.go)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import field
from typing import TYPE_CHECKING

from ..api.node import Node
from ..api.pod import Pod
from ..api.storage import BINDING_WAIT
from ..engine import events as ev
from ..engine.cluster import Cluster
from ..engine.engine import Engine
from ..engine.node_hints import NodeEvent
from ..engine.queueing_hints import DELETE, PodEvent
from ..engine.storage_hints import StorageEvent
from ..record import record

if TYPE_CHECKING:
    from ..engine.queueing_hints import Event

# v1.32+ event labels (ClusterEvent.Label: resource and action type).
_UPDATE_LABELS = {
    ev.UPDATE_NODE_ALLOCATABLE: "NodeUpdateNodeAllocatable",
    ev.UPDATE_NODE_LABEL: "NodeUpdateNodeLabel",
    ev.UPDATE_NODE_TAINT: "NodeUpdateNodeTaint",
}


@record
class Requeue:
    """One event and the unschedulable pods it moved back to activeQ or backoffQ."""

    event: str
    pods: list[str] = field(default_factory=list)


class LiveTarget:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self.requeues: list[Requeue] = []

    @property
    def cluster(self) -> Cluster:
        return self._engine.cluster

    def take_requeues(self) -> list[Requeue]:
        done, self.requeues = self.requeues, []
        return done

    def _event(self, event: ev.ClusterEvent, precheck: Callable[[Pod], bool] | None) -> None:
        engine = self._engine
        moved = ev.requeue(engine.queue, engine.clock, ev.enqueue_plugins(engine), event, precheck)
        self.requeues.append(Requeue(event.label, [p.key for p in moved]))

    @property
    def _hinted(self) -> bool:
        """Queueing hints on (v1.32+): events go through the plugins' hints, unchecked."""
        return self._engine.queue.hints is not None

    def _hinted_event(self, event: Event, label: str) -> None:
        engine = self._engine
        moved = engine.queue.move_with_hints(engine.clock, event)
        self.requeues.append(Requeue(label, [info.pod.key for info in moved]))

    # --- pods -----------------------------------------------------------------------
    def delete_pod(self, pod: Pod) -> None:
        """deletePodFromCache (bound: AssignedPodDelete) or deletePodFromSchedulingQueue."""
        engine = self._engine
        bound = bool(pod.node_name)
        if bound:
            info = engine.snapshot.get(pod.node_name)
            if info is not None:
                info.remove_pod(pod)
        nominated = not bound and bool(engine.nominator.node_of(pod))
        engine.delete_pod(pod)
        engine.nominator.delete(pod)
        engine.queued.pop(pod.uid, None)
        if bound and self._hinted:
            self._hinted_event(PodEvent(DELETE, pod, pod.node_name), ev.ASSIGNED_POD_DELETE.label)
        elif bound:
            self._event(ev.ASSIGNED_POD_DELETE, None)
        elif nominated:
            # deletePodFromSchedulingQueue (v1.33+): the nominated pod was as good as assigned.
            moved = engine.nomination_ended(pod)
            if moved is not None:
                keys = [info.pod.key for info in moved]
                self.requeues.append(Requeue(ev.ASSIGNED_POD_DELETE.label, keys))

    def create_pod(self, pod: Pod) -> None:
        """A pending pod is queued (addPodToSchedulingQueue); a bound one joins its node
        and moves pods as the engine's binds do (semantics.md §3)."""
        engine = self._engine
        if not pod.node_name:
            engine.add_pending(pod)
            return
        engine.cluster.pods.append(pod)
        engine.pods_by_uid[pod.uid] = pod
        info = engine.snapshot.get(pod.node_name)
        if info is not None:
            info.add_pod(pod)
        engine.cluster_changed()

    def created_by_controller(self, pod: Pod) -> None:
        """Already in ``cluster.pods``: only the scheduler learns of it."""
        if pod.node_name:
            return
        self._engine.add_pending_pod(pod)

    def deleted_by_controller(self, pod: Pod) -> None:
        """Already out of ``cluster.pods``: the cache and queue forget it (a scale-down)."""
        self._engine.cluster.pods.append(pod)  # delete_pod removes it again, with effects
        self.delete_pod(pod)

    def storage_added(self, resource: str, label: str, objects: Sequence[object]) -> None:
        """Storage objects created, with no pre-check (eventhandlers.go). v1.30 sends a
        StorageClassAdd only for a WaitForFirstConsumer class and one move stands for all;
        with hints (v1.32+) each object is its own event, judged by the plugins' hints."""
        if self._hinted:
            for obj in objects:
                self._hinted_event(StorageEvent(resource, ev.ADD, None, obj, label), label)
            return
        if resource == ev.STORAGE_CLASS:
            objects = [c for c in objects if getattr(c, "volume_binding_mode", "") == BINDING_WAIT]
        if objects:
            self._event(ev.ClusterEvent(resource, ev.ADD, label), None)

    # --- nodes ----------------------------------------------------------------------
    def set_unschedulable(self, node: Node, value: bool) -> None:
        old = dataclasses.replace(node)
        node.unschedulable = value
        self._node_updated(old, node)

    def _node_updated(self, old: Node, new: Node) -> None:
        """updateNodeInCache: one move per changed scheduling property, pre-checked."""
        self._engine.rebuild_snapshot()
        info = self._engine.snapshot.get(new.name)
        assert info is not None
        for event in ev.node_update_events(old, new):
            if self._hinted:
                label = _UPDATE_LABELS[event.action]
                self._hinted_event(NodeEvent(event.action, old, new, label), label)
            else:
                self._event(event, ev.node_precheck(info))

    def add_node(self, node: Node) -> None:
        """addNodeToCache: NodeAdd, pre-checked against the new node."""
        self._engine.cluster.nodes.append(node)
        self._engine.rebuild_snapshot()
        info = self._engine.snapshot.get(node.name)
        assert info is not None
        if self._hinted:
            self._hinted_event(NodeEvent(ev.ADD, None, node, "NodeAdd"), "NodeAdd")
        else:
            self._event(ev.NODE_ADD, ev.node_precheck(info))

    def remove_node(self, node: Node) -> None:
        """deleteNodeFromCache: the cache forgets the node. v1.30 moves no pod; from v1.32
        NodeDelete goes through the hints first."""
        if self._hinted:
            self._hinted_event(NodeEvent(ev.DELETE, node, None, "NodeDelete"), "NodeDelete")
        self._engine.cluster.nodes.remove(node)
        self._engine.rebuild_snapshot()
