"""The scheduling and binding cycle of one pod (schedule_one.go: ScheduleOne and after)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..api.pod import Pod
from ..framework.cycle_state import CycleState
from ..framework.status import Code, Status
from ..framework.types import (
    PODS_TO_ACTIVATE_KEY,
    Diagnosis,
    FitError,
    PodsToActivate,
    PostFilterResult,
    QueuedPodInfo,
)
from . import records as rec
from .permit import WaitingPodEntry
from .pod_events import ADD, DELETE, PodEvent
from .records import ScoreTable
from .runtime import Framework
from .schedule_one import ScheduleResult, schedule_pod
from .walk import SchedulingError

MAX_ATTEMPTS = 100

if TYPE_CHECKING:
    from .engine import Engine


class SchedulingCycle:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- clock hooks ----------------------------------------------------------------
    def next_deadline(self) -> float | None:
        return self.engine.permits.next_deadline()

    def fire_deadlines(self, now: float) -> None:
        self.engine.permits.fire_deadlines(now)

    # --- one attempt ------------------------------------------------------------------
    def attempt(self, info: QueuedPodInfo) -> None:
        engine = self.engine
        pod = info.pod
        fwk = engine.frameworks[pod.scheduler_name]
        state = CycleState()
        activate = PodsToActivate()
        state.write(PODS_TO_ACTIVATE_KEY, activate)
        cycle = engine.queue.scheduling_cycle
        try:
            result = schedule_pod(
                fwk, engine.sampler, engine.snapshot, state, pod, cycle, engine.clock
            )
        except FitError as fit:
            self._fit_failure(fwk, state, info, cycle, fit)
        except SchedulingError as err:  # an Error status, or no node at all (rejected)
            outcome = rec.UNSCHEDULABLE if err.rejected else rec.SCHEDULER_ERROR
            self._record(pod, outcome, message=str(err)).profile = fwk.scheduler_name
            self._failure(info, cycle, str(err), "", set(), error=not err.rejected)
        else:
            self._assume_and_bind(fwk, state, info, cycle, result, activate)
        # Rejections of waiting pods raised during the attempt take effect now (§6.6).
        engine.permits.process_decisions()

    def _fit_failure(
        self, fwk: Framework, state: CycleState, info: QueuedPodInfo, cycle: int, fit: FitError
    ) -> None:
        pod = info.pod
        diag = fit.diagnosis
        post: PostFilterResult | None = None
        if fwk.post_filter_plugins:
            filtered_by_none = not diag.unschedulable_plugins and not diag.pending_plugins
            post, status = fwk.run_post_filter(state, pod, diag.node_to_status)
            diag.post_filter_msg = status.message()
            # kube-scheduler records no PostFilter plugin as a rejector. A pod no plugin
            # rejected would go back to backoffQ after every attempt; here the PostFilter
            # plugin stands in for one, so such a pod waits for an event (semantics.md §3).
            if status.code != Code.ERROR and filtered_by_none:
                diag.add_plugin_status(status)
        message = str(fit)
        nominate = post.nominated_node_name if post is not None else None
        result = rec.NOMINATED if nominate else rec.UNSCHEDULABLE
        attempt = self._record(pod, result, node=nominate or "", message=message, diagnosis=diag)
        attempt.profile = fwk.scheduler_name
        self._explain(fwk.filter_plugins, "explain_rejection", attempt, state, pod,
                      only=diag.unschedulable_plugins)
        if post is not None:
            attempt.victims = [v.key for v in post.victims]
            if post.detail is not None and self.engine.options.record != "summary":
                attempt.detail["preemption"] = post.detail()
            if post.record is not None and self.engine.options.record != "summary":
                attempt.preemption = post.record()
        info.pending_plugins = set(diag.pending_plugins)
        self._failure(info, cycle, message, nominate, diag.unschedulable_plugins)
        if post is not None and nominate:
            self.engine_preempt(pod, nominate, post)

    def engine_preempt(self, preemptor: Pod, node: str, post: PostFilterResult) -> None:
        """Apply preemption's effects once the preemptor's failure is handled (§3, §5)."""
        engine = self.engine
        deleted: list[PodEvent] = []
        for victim in post.victims:
            waiting = engine.permits.get(victim.uid)
            if waiting is not None:
                if engine.features.preempted_waiting_pods_backoff:
                    waiting.preempt("DefaultPreemption", "preempted")
                else:
                    waiting.reject("DefaultPreemption", "preempted")
                continue
            info = engine.snapshot.get(victim.node_name)
            if info is not None:
                info.remove_pod(victim)
            engine.delete_pod(victim)
            deleted.append(PodEvent(DELETE, victim, victim.node_name))
            engine.decide(victim, rec.PREEMPTED, node=victim.node_name, preempted_by=preemptor.key)
        cleared = []
        for pi in engine.nominator.pods_for_node(node):
            if pi.pod.priority < preemptor.priority:
                cleared.append(replace(pi.pod))
                engine.nominator.delete(pi.pod)
                pi.pod.nominated_node_name = ""
        if post.victims:
            engine.cluster_changed(*deleted)
        for before in cleared:  # their status updates follow the victims' deletions
            engine.queue.status_patched(before.uid, engine.clock)
            engine.nomination_ended(before)

    def _failure(
        self,
        info: QueuedPodInfo,
        cycle: int,
        message: str,
        nominate: str | None,
        rejectors: set[str],
        error: bool = False,
    ) -> None:
        """handleSchedulingFailure: requeue, then update the nomination. The pod's reason
        is SchedulerError for an Error status (``error``), else Unschedulable."""
        engine = self.engine
        pod = info.pod
        info.unschedulable_plugins = set(rejectors)
        rejectors = rejectors | info.pending_plugins
        written = engine.write_condition(pod, error, message)
        if info.attempts >= MAX_ATTEMPTS:
            engine.queue.done(pod.uid)
            engine.decide(pod, engine.last_outcome[pod.uid], message=message)
        else:
            engine.queue.add_unschedulable(
                info, engine.queue.scheduling_cycle, engine.clock, bool(rejectors)
            )
        engine.status_written(pod, nominate, written, engine.expectations.compared(pod))

    # --- success path ---------------------------------------------------------------
    def _assume_and_bind(
        self,
        fwk: Framework,
        state: CycleState,
        info: QueuedPodInfo,
        cycle: int,
        result: ScheduleResult,
        activate: PodsToActivate,
    ) -> None:
        engine = self.engine
        pod = info.pod
        host = result.host
        attempt = self._record(pod, rec.SCHEDULED, node=host, diagnosis=result.diagnosis)
        attempt.profile = fwk.scheduler_name
        self._keep_scores(attempt, result.scores if len(result.feasible) > 1 else None)
        attempt.feasible = len(result.feasible)
        attempt.evaluated = result.evaluated
        self._assume(pod, host)
        status = fwk.run_reserve(state, pod, host)
        if status is None and engine.options.record != "summary":
            self._explain(fwk.reserve_plugins, "explain", attempt, state, pod, host)
        if status is None:
            permit = fwk.run_permit(state, pod, host)
            status = permit.status
            if status is not None and status.code == Code.WAIT:
                self._wait(fwk, state, info, host, permit.timeouts, attempt)
                self._activate(activate)
                return
        if status is not None:
            fwk.run_unreserve(state, pod, host)
            self._forget(pod, host)
            self._single_node_failure(info, cycle, attempt, host, status)
            return
        self._activate(activate)
        # Siblings a Permit plugin allowed bind first, in the order they began waiting (§6.4).
        for entry in engine.permits.pop_allowed():
            self.bind_waiting(entry)
        self._bind(fwk, state, info, attempt, host, activate)

    def _wait(
        self,
        fwk: Framework,
        state: CycleState,
        info: QueuedPodInfo,
        host: str,
        timeouts: dict[str, float],
        attempt: rec.Attempt,
    ) -> None:
        engine = self.engine
        now = engine.clock
        deadlines = {plugin: now + t for plugin, t in timeouts.items()}
        entry = WaitingPodEntry(info.pod, info, fwk, state, host, now, deadlines, dict(timeouts))
        engine.permits.add(entry)
        engine.expectations.pre_flight(fwk, state, info.pod, host, waiting=True)
        attempt.result = rec.WAITING
        info.pod.start_time = engine.start_time_now()
        entry.explain = attempt.detail.setdefault("permit", [])
        entry.explain.extend(
            f"waiting at {p} from t={now:g}s, timeout at t={d:g}s"
            for p, d in sorted(deadlines.items())
        )
        entry.waits = attempt.permit
        entry.waits.extend(rec.PermitWait(p, now, d) for p, d in sorted(deadlines.items()))

    def bind_waiting(self, entry: WaitingPodEntry) -> None:
        """An allowed waiting pod binds at the current simulated time."""
        entry.explain.append(f"allowed at t={self.engine.clock:g}s: bound to {entry.node}")
        entry.ended(self.engine.clock, rec.ALLOWED, node=entry.node)
        self._bind(entry.fwk, entry.state, entry.info, None, entry.node, None, waited=True)

    def reject_waiting(self, entry: WaitingPodEntry) -> None:
        """A rejected (or, v1.36, preempted) waiting pod (semantics.md §6.7): unreserve,
        forget, requeue, move others."""
        engine = self.engine
        pod = entry.pod
        status = entry.decision
        assert status is not None
        entry.fwk.run_unreserve(entry.state, pod, entry.node)
        self._forget(pod, entry.node)
        by = status.plugin or "the framework"
        preempted = status.code == Code.ERROR
        if preempted:
            # WaitOnPermit wraps a non-rejection; no plugin rejected the pod: backoffQ.
            message = f"waiting on permit for pod: {status.message()}"
            rejectors: set[str] = set()
            outcome, verb = rec.PERMIT_PREEMPTED, "preempted"
        else:
            diag = Diagnosis(node_to_status={entry.node: status})
            diag.add_plugin_status(status)
            message = str(FitError(pod, 1, diag))
            rejectors = {status.plugin} if status.plugin else set()
            outcome, verb = rec.PERMIT_REJECTED, "rejected"
        entry.explain.append(f"{verb} at t={engine.clock:g}s by {by}: {status.message()}")
        entry.ended(engine.clock, outcome, by=by, message=status.message())
        self._failure(entry.info, 0, message, "", rejectors, preempted)  # clearNominatedNode
        forgotten = PodEvent(DELETE, pod, entry.node)
        # handleBindingCycleError leaves the pod itself out only for a rejection.
        engine.queue.move_all(engine.clock, exclude="" if preempted else pod.uid, event=forgotten)

    def _bind(
        self,
        fwk: Framework,
        state: CycleState,
        info: QueuedPodInfo,
        attempt: rec.Attempt | None,
        host: str,
        activate: PodsToActivate | None,
        waited: bool = False,
    ) -> None:
        engine = self.engine
        pod = info.pod
        # A waiting pod's binding cycle began with its wait (_wait).
        status = None if waited else engine.expectations.pre_flight(fwk, state, pod, host, False)
        prebind_failed = False
        if status is None:
            status = fwk.run_pre_bind(state, pod, host)
            prebind_failed = status is not None
        if status is None:
            # Past PreBind no failure makes the pod unschedulable: its events stop here.
            engine.queue.done(pod.uid)
            # A binder extender takes the place of the Bind plugins (extendersBinding).
            bound, status = engine.extenders.bind(pod, host)
            if not bound:
                status = fwk.run_bind(state, pod, host)
        if status is not None and status.code not in (Code.SUCCESS,):
            # handleBindingCycleError: a rejection moves the other pods after this one is
            # requeued (so not itself); an error moves everything first.
            fwk.run_unreserve(state, pod, host)
            self._forget(pod, host)
            forgotten = PodEvent(DELETE, pod, host)
            if status.is_rejected():
                # Only a PreBind rejection of v1.31-v1.32 is a FitError; Bind's never is.
                wrap = prebind_failed and engine.features.pre_bind_fit_error
                self._single_node_failure(info, 0, attempt, host, status, wrap)
                engine.queue.move_all(engine.clock, exclude=pod.uid, event=forgotten)
            else:
                engine.cluster_changed(forgotten)
                self._single_node_failure(info, 0, attempt, host, status)
            return
        pod.start_time = engine.start_time_now()
        engine.expectations.bound(pod)
        engine.decide(pod, rec.SCHEDULED, node=host)
        if pod.nominated_node_name and not engine.features.binding_not_a_pod_delete:
            engine.nomination_ended(replace(pod))  # v1.33-v1.34: leaving the informer
        engine.cluster_changed(PodEvent(ADD, pod, host))
        fwk.run_post_bind(state, pod, host)
        engine.pod_bound(pod)
        if activate is not None:
            self._activate(activate)

    def _single_node_failure(
        self,
        info: QueuedPodInfo,
        cycle: int,
        attempt: rec.Attempt | None,
        host: str,
        status: Status,
        fit_error: bool = True,
    ) -> None:
        """A Reserve, Permit or binding failure: a rejection is a FitError over the one
        chosen node where ``fit_error``, else the plugin's own message with no rejector."""
        if status.is_rejected() and fit_error:
            diag = Diagnosis(node_to_status={host: status})
            diag.add_plugin_status(status)
            message = str(FitError(info.pod, 1, diag))
            rejectors = diag.unschedulable_plugins
        else:
            message = status.message()
            rejectors = set()
        if attempt is not None:
            # The host was chosen, then Reserve, Permit or binding turned the pod away.
            attempt.result = rec.REJECTED
            attempt.message = message
        self._failure(info, cycle, message, "", rejectors, not status.is_rejected())

    @staticmethod
    def _explain(
        plugins: Iterable[Any], method: str, attempt: rec.Attempt, *args: Any,
        only: set[str] | None = None,
    ) -> None:
        """Plugins that can say what they did add it to --explain: what a Filter plugin held
        against the pod (claims, their topology), what Reserve bound (volume bindings)."""
        lines: list[str] = []
        for plugin in plugins:
            explain = getattr(plugin, method, None)
            if explain is not None and (only is None or plugin.name in only):
                lines.extend(explain(*args))
        if lines:
            attempt.detail["volumes"] = lines

    def _keep_scores(self, attempt: rec.Attempt, table: ScoreTable | None) -> None:
        record = self.engine.options.record
        if table is None:
            return
        if record == "summary":
            total = table.total_of(attempt.node)
            attempt.summary = (total if total is not None else 0, table.runner_up(attempt.node))
            return
        if record == "weighted":
            table.raw, table.normalized = {}, {}
        attempt.score_table = table

    # --- cache operations ---------------------------------------------------------------
    def _assume(self, pod: Pod, host: str) -> None:
        engine = self.engine
        node = engine.snapshot.get(host)
        assert node is not None
        pod.node_name = host
        node.add_pod(pod)
        engine.nominator.delete(pod)

    def _forget(self, pod: Pod, host: str) -> None:
        node = self.engine.snapshot.get(host)
        assert node is not None
        node.remove_pod(pod)
        pod.node_name = ""

    def _activate(self, activate: PodsToActivate) -> None:
        for uid in list(activate.pods):
            self.engine.queue.activate(uid)
        activate.pods.clear()

    # --- records --------------------------------------------------------------------
    def _record(
        self,
        pod: Pod,
        result: str,
        node: str = "",
        message: str = "",
        diagnosis: Diagnosis | None = None,
    ) -> rec.Attempt:
        attempt = rec.Attempt(
            pod=pod.key, time=self.engine.clock, result=result, node=node, message=message
        )
        if diagnosis is not None and self.engine.options.record != "summary":
            attempt.filtered = {
                name: rec.FilteredNode(st.plugin, st.all_reasons(), st.code.go_name)
                for name, st in diagnosis.node_to_status.items()
            }
        self.engine.plan.attempts.append(attempt)
        return attempt
