"""The one-shot engine: queue loop on a simulated clock (semantics.md §3, §4, §7)."""

from __future__ import annotations

import gc
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..api.meta import DEFAULT_TIME
from ..api.owners import owner_of
from ..api.pod import Pod
from ..config.types import SchedulerConfig
from ..extender.scheduling import Extenders, build_extenders
from ..extender.transport import Transport
from ..framework.interface import WaitingPod
from ..framework.nominations import Nominations
from ..framework.podinfo import PodInfo
from ..framework.types import QueuedPodInfo
from ..record import record
from . import records as rec
from .actions import PV, PVC, UPDATE
from .cluster import Cluster
from .cycle import SchedulingCycle
from .expectation import Expectations
from .nominator import Nominator
from .pdb_status import fill_missing_statuses
from .permit import PermitWaits
from .pod_events import DELETE, PodEvent
from .queue import SchedulingQueue
from .runtime import Framework
from .schedule_one import Sampler
from .snapshot import Snapshot

if TYPE_CHECKING:
    import random

# Below this many nodes the per-node reference runs: NumPy's cost per call outweighs
# arrays of one or two elements (benchmarks/RESULTS.md), and a one-node plan, which has
# nothing to score, need not import NumPy at all.
ARRAYS_FROM_NODES = 3


@record
class EngineOptions:
    """How a plan runs and what it records."""

    tie_break: str = "lowest-name"  # or "random"
    seed: int = 0
    # False runs every plugin node by node: the reference the array paths must equal;
    # True takes the array paths; None: arrays from ARRAYS_FROM_NODES nodes.
    vectorize: bool | None = None
    # What attempts keep: "full" (raw, normalized and weighted scores, filtered nodes),
    # "weighted" (weighted scores and filtered nodes: -o json --explain), or "summary"
    # (the chosen node's total and the runner-up: enough for tables, and light).
    record: str = "full"
    progress: Callable[[int, int], None] | None = None
    # How extender calls travel (HTTP by default; a stub or recorder for offline plans);
    # "skip" plans as if the configuration had no extenders.
    extender_mode: str = "call"
    extender_transport: Transport | None = None
    # Streamed output: called with each finished scheduling cycle's attempts, which the
    # plan then does not keep (text renderers summarize them as they come; memory stays flat).
    on_attempts: Callable[[list[rec.Attempt]], None] | None = None


class Engine:
    """Owns the cluster state, the frameworks (one per profile) and the queue."""

    def __init__(
        self, config: SchedulerConfig, cluster: Cluster, options: EngineOptions | None = None
    ):
        self.options = options or EngineOptions()
        self.config = config
        self.features = config.features
        self._cluster = cluster
        self._snapshot = Snapshot(cluster.nodes, self.features)
        self.clock = 0.0
        self.nominator = Nominator()
        self.plan = rec.Plan(
            profiles=[p.scheduler_name for p in config.profiles], node_count=len(cluster.nodes)
        )
        rng = _seeded(self.options.seed) if self.options.tie_break == "random" else None
        self.sampler = Sampler(config.percentage_of_nodes_to_score, 0, rng)
        vectorize = self.options.vectorize
        if vectorize is None:
            vectorize = len(cluster.nodes) >= ARRAYS_FROM_NODES
        self.sampler.vectorize = vectorize
        self.sampler.record_rejected = self.options.record != "summary"
        self.sampler.tie_heap = self.features.tie_break_heap
        if self.features.opportunistic_batching:
            self.sampler.batches = {}
        self.extenders = self._extenders()
        self.extenders.overwrite = self.features.extender_status_overwrite
        self.sampler.extenders = cluster.extenders = self.extenders
        self.frameworks = {p.scheduler_name: Framework(p, self) for p in config.profiles}
        for fwk in self.frameworks.values():
            fwk.vectorize = vectorize
        first = self.frameworks[config.profiles[0].scheduler_name]
        sort = first.queue_sort_plugins[0] if first.queue_sort_plugins else None
        less = sort.less if sort is not None else _fifo_less
        self.queue = SchedulingQueue(
            less,
            float(config.pod_initial_backoff_seconds),
            float(config.pod_max_backoff_seconds),
            self.features,
        )
        if self.features.queueing_hints:
            from .queueing_hints import ProfileHints  # every plugin's hints: v1.32+ only

            self.queue.hints = ProfileHints(
                self.frameworks, bool(self.extenders), self._cluster.namespace_labels,
                self.features,
            )
            cluster.on_storage_update = self._storage_updated
        self.queued: dict[str, QueuedPodInfo] = {}
        self._decided: dict[str, rec.Decision] = {}
        # The uid each decision was for: a pod recreated under the same name (a
        # StatefulSet's) is a new pod whose outcome is still open.
        self._decided_uid: dict[str, str] = {}
        self.last_message: dict[str, str] = {}
        # The reason of each pod's last failure (handleSchedulingFailure): Unschedulable,
        # or SchedulerError after an Error status; a pod left pending ends with it.
        self.last_outcome: dict[str, str] = {}
        self.pods_by_uid = {p.uid: p for p in cluster.pods}
        self._place_running_pods()
        self.plan.notes.extend(fill_missing_statuses(cluster.pdbs, cluster.pods, cluster))
        self.permits = PermitWaits(self)
        self.expectations = Expectations(self.features)
        self.cycle = SchedulingCycle(self)
        self._done = 0  # attempts so far, for progress

    def _extenders(self) -> Extenders:
        if self.options.extender_mode == "skip":
            return Extenders()
        transport = self.options.extender_transport
        return build_extenders(self.config.extender_configs, transport, self.config.source)

    # --- EngineServices -----------------------------------------------------------------
    @property
    def snapshot(self) -> Snapshot:
        return self._snapshot

    @property
    def cluster(self) -> Cluster:
        return self._cluster

    def now(self) -> float:
        return self.clock

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        return self.nominator.pods_for_node(node_name)

    def nominated_node_names(self) -> list[str]:
        return self.nominator.node_names()

    def nominations(self) -> Nominations:
        return self.nominator.nominations()

    def waiting_pods(self) -> list[WaitingPod]:
        return list(self.permits.in_order())

    def get_waiting_pod(self, uid: str) -> WaitingPod | None:
        return self.permits.get(uid)

    # --- setup ----------------------------------------------------------------------
    def _place_running_pods(self) -> None:
        for pod in self._cluster.pods:
            if not pod.node_name:
                continue
            info = self._snapshot.get(pod.node_name)
            if info is not None:
                info.add_pod(pod)
            if pod.start_time is None:
                pod.start_time = DEFAULT_TIME

    def _enqueue_pending(self) -> None:
        for pod in self._cluster.pods:
            if not pod.node_name:
                self._enqueue(pod)

    def _enqueue(self, pod: Pod) -> None:
        fwk = self.frameworks.get(pod.scheduler_name)
        if fwk is None:
            self.decide(pod, rec.SKIPPED)
            self.plan.decisions[-1].note = f'no profile has schedulerName "{pod.scheduler_name}"'
            return
        info = QueuedPodInfo(pod=pod, timestamp=self.clock)
        self.queued[pod.uid] = info
        if pod.nominated_node_name:
            self.nominator.add(pod, pod.nominated_node_name)
        gate = next(
            (s for pl in fwk.pre_enqueue_plugins if (s := pl.pre_enqueue(pod)) is not None),
            None,
        )
        if gate is not None:
            info.gated = True
            self.decide(pod, rec.GATED, message=gate.message())
            return
        self.queue.add_active(info)

    def add_pending(self, pod: Pod) -> None:
        """A pod created while the engine runs (what-if scenarios, capacity copies):
        the API server stores it and the scheduler queues it at the current time."""
        self._cluster.pods.append(pod)
        self.add_pending_pod(pod)

    def add_pending_pod(self, pod: Pod) -> None:
        """A pod created during the plan (already in ``cluster.pods``) enters the queue."""
        self.pods_by_uid[pod.uid] = pod
        self._enqueue(pod)

    def _storage_updated(self, old: object, new: object) -> None:
        """A PersistentVolume or claim written during the plan (a static binding completed
        at bind time): a PvUpdate or PvcUpdate the rejecting plugins' hints judge (v1.32+;
        v1.30's move at the bind that follows moves every pod anyway)."""
        from ..api.storage import PersistentVolume  # storage objects: storage plans only
        from .storage_hints import StorageEvent

        volume = isinstance(new, PersistentVolume)
        resource, label = (PV, "PvUpdate") if volume else (PVC, "PvcUpdate")
        self.queue.move_with_hints(self.clock, StorageEvent(resource, UPDATE, old, new, label))

    def pod_bound(self, pod: Pod) -> None:
        """Controllers react to a binding (an OrderedReady StatefulSet's next ordinal)."""
        hook = self._cluster.on_bound
        if hook is not None:
            for created in hook(pod, self.start_time_now()):
                self.add_pending_pod(created)

    # --- the loop -------------------------------------------------------------------
    def run(self) -> rec.Plan:
        # The cluster, its node infos and indexes live through the whole plan: kept out
        # of the cyclic collector's passes, which would otherwise walk them all again
        # each time the plan's own garbage starts a full collection.
        gc.freeze()
        try:
            self.start()
            self.run_until()
            return self.finish()
        finally:
            gc.unfreeze()

    def start(self) -> None:
        """Queue the input's pending pods (run() does this; incremental drivers call it),
        and let the plugins build what those pods will read."""
        self._enqueue_pending()
        pending: dict[str, list[Pod]] = {}
        for info in self.queued.values():
            if not info.gated:
                pending.setdefault(info.pod.scheduler_name, []).append(info.pod)
        for name, pods in pending.items():
            self.frameworks[name].prepare(pods)

    def run_until(self, limit: float | None = None) -> None:
        """Schedule until nothing is left to do before simulated time ``limit`` (None: at
        all); with a limit, the clock then stands at ``limit``."""
        while True:
            info = self.queue.pop()
            if info is None:
                if not self._advance_clock(limit):
                    break
                continue
            self.cycle.attempt(info)
            if self.options.on_attempts is not None:
                self.options.on_attempts(self.plan.attempts)
                self.plan.attempts = []
            self._done += 1
            if self.options.progress is not None:
                self.options.progress(self._done, len(self.queued))
        if limit is not None and limit > self.clock:
            self.clock = self.queue.now = limit

    def finish(self) -> rec.Plan:
        """Pods still waiting end with their last failure's reason; the plan is complete."""
        self._finish()
        self.plan.warnings.extend(self.extenders.warnings)
        self.plan.end_time = self.clock
        return self.plan

    def _advance_clock(self, limit: float | None = None) -> bool:
        candidates = [
            t
            for t in (self.queue.next_backoff_expiry(), self.cycle.next_deadline())
            if t is not None
        ]
        if not candidates or (limit is not None and min(candidates) > limit):
            return False
        self.clock = max(self.clock, min(candidates))
        self.queue.now = self.clock
        self.cycle.fire_deadlines(self.clock)
        self.queue.flush_backoff(self.clock)
        return True

    def _finish(self) -> None:
        for info in self.queued.values():
            pod = info.pod
            if self._decided_uid.get(pod.key) == pod.uid:
                continue
            outcome = self.last_outcome.get(pod.uid, rec.UNSCHEDULABLE)
            self.decide(pod, outcome, message=self.last_message.get(pod.uid, ""))

    # --- effects used by the scheduling cycle -------------------------------------------
    def decide(
        self, pod: Pod, outcome: str, node: str = "", message: str = "", preempted_by: str = ""
    ) -> None:
        """Record the pod's final outcome; a later one (a bound pod preempted) replaces it."""
        decision = rec.Decision(
            pod.key, outcome, node, message, preempted_by, pod.priority, self.clock,
            owner=owner_of(pod),
        )
        earlier = self._decided.get(pod.key)
        if earlier is not None:
            self.plan.decisions.remove(earlier)
        self._decided[pod.key] = decision
        self._decided_uid[pod.key] = pod.uid
        self.plan.decisions.append(decision)

    def delete_pod(self, pod: Pod) -> None:
        """The API server deletes ``pod`` (a preemption victim)."""
        self._cluster.pods.remove(pod)
        self.queue.delete(pod.uid)

    def rebuild_snapshot(self) -> None:
        """Nodes were added, removed or changed: a new node tree and columns, each node
        keeping its pods in their order (what-if scenarios)."""
        old = self._snapshot
        self._snapshot = Snapshot(self._cluster.nodes, self.features)
        for info in self._snapshot.node_infos:
            previous = old.get(info.name)
            for pod_info in previous.pods if previous is not None else ():
                info.add_pod(pod_info.pod)
        self.plan.node_count = len(self._cluster.nodes)

    def write_condition(self, pod: Pod, error: bool, message: str) -> bool:
        """handleSchedulingFailure's PodScheduled condition (reason SchedulerError after an
        Error status, else Unschedulable, and the message): whether it changed."""
        uid, outcome = pod.uid, rec.SCHEDULER_ERROR if error else rec.UNSCHEDULABLE
        changed = (self.last_outcome.get(uid), self.last_message.get(uid)) != (outcome, message)
        self.last_outcome[uid], self.last_message[uid] = outcome, message
        return changed

    def status_written(
        self, pod: Pod, nominate: str | None, condition_changed: bool, compared: str | None = None
    ) -> None:
        """updatePod after a failure: ``nominate`` (None keeps it) where it differs from
        ``compared`` (default: the pod's own); the nominator takes it, or the pod's status
        after its update event (UpdateNominatedPod); the end of a nomination follows."""
        before = pod.nominated_node_name
        if nominate is not None and nominate != (before if compared is None else compared):
            pod.nominated_node_name = nominate
        patched = condition_changed or before != pod.nominated_node_name
        nominated = pod.nominated_node_name if patched or nominate is None else nominate
        if nominated:
            self.nominator.add(pod, nominated)
        else:
            self.nominator.delete(pod)
        if patched:
            self.queue.status_patched(pod.uid, self.clock)
        if before and before != pod.nominated_node_name:
            self.nomination_ended(replace(pod, nominated_node_name=before))

    def nomination_ended(self, before: Pod) -> list[QueuedPodInfo] | None:
        """A pending pod's nomination changed or ended, or the pod was deleted (v1.33+):
        an AssignedPodDelete of ``before`` (still nominated) for lower- and equal-priority
        pods. Returns the pods moved, None where the release sends no such event."""
        if not self.features.nominated_pod_events or self.queue.hints is None:
            return None
        priority = before.priority
        return self.queue.move_with_hints(
            self.clock,
            PodEvent(DELETE, before, ""),
            pre_check=lambda info: info.pod.priority <= priority,
        )

    def cluster_changed(self, *events: PodEvent) -> None:
        """A pod was bound, deleted or unreserved: unschedulable pods move.

        Without queueing hints (v1.30) every one moves, once; with hints (v1.32+) each
        event moves the pods its hints name (an empty ``events`` still moves all).
        """
        if self.queue.hints is None or not events:
            self.queue.move_all(self.clock)
            return
        for event in events:
            self.queue.move_all(self.clock, event=event)

    def start_time_now(self) -> float:
        return DEFAULT_TIME + self.clock


def _fifo_less(a: QueuedPodInfo, b: QueuedPodInfo) -> bool:
    return (a.timestamp, a.pod.load_index) < (b.timestamp, b.pod.load_index)


def _seeded(seed: int) -> random.Random:
    """The draws of ``--tie-break random`` (``random`` is imported only for them)."""
    import random

    return random.Random(seed)
