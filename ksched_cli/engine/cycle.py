"""The scheduling and binding cycle of one pod (schedule_one.go: ScheduleOne and after)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api.pod import Pod
from ..framework.cycle_state import CycleState
from ..framework.status import Code, Status
from ..framework.types import Diagnosis, FitError, PostFilterResult, QueuedPodInfo
from . import records as rec
from .runtime import Framework
from .schedule_one import ScheduleResult, SchedulingError, schedule_pod

if TYPE_CHECKING:
    from .engine import Engine

PODS_TO_ACTIVATE_KEY = "kubernetes.io/pods-to-activate"


class PodsToActivate:
    """Pods a plugin asks to move to activeQ at the end of the cycle (uid -> pod)."""

    def __init__(self) -> None:
        self.pods: dict[str, Pod] = {}

    def clone(self) -> PodsToActivate:
        return self  # shared on purpose, as in kube-scheduler


class SchedulingCycle:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- clock hooks (Permit deadlines live in the permit module) ------------------------
    def next_deadline(self) -> float | None:
        return None

    def fire_deadlines(self, now: float) -> None:
        return None

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
            result = schedule_pod(fwk, engine.sampler, engine.snapshot, state, pod)
        except FitError as fit:
            self._fit_failure(fwk, state, info, cycle, fit)
            return
        except SchedulingError as err:
            attempt = self._record(pod, rec.UNSCHEDULABLE, message=str(err))
            attempt.profile = fwk.scheduler_name
            self._failure(info, cycle, str(err), nominate="", rejectors=False)
            return
        self._assume_and_bind(fwk, state, info, cycle, result, activate)

    def _fit_failure(
        self, fwk: Framework, state: CycleState, info: QueuedPodInfo, cycle: int, fit: FitError
    ) -> None:
        pod = info.pod
        diag = fit.diagnosis
        post: PostFilterResult | None = None
        if fwk.post_filter_plugins:
            post, status = fwk.run_post_filter(state, pod, diag.node_to_status)
            diag.post_filter_msg = status.message()
            if status.code != Code.ERROR:
                diag.add_plugin_status(status)
        message = str(fit)
        nominate = post.nominated_node_name if post is not None else None
        result = rec.NOMINATED if nominate else rec.UNSCHEDULABLE
        attempt = self._record(pod, result, node=nominate or "", message=message, diagnosis=diag)
        attempt.profile = fwk.scheduler_name
        if post is not None:
            attempt.victims = [v.key for v in post.victims]
            if post.detail is not None:
                attempt.detail["preemption"] = post.detail
        rejectors = bool(diag.unschedulable_plugins or diag.pending_plugins)
        self._failure(info, cycle, message, nominate, rejectors)
        if post is not None and nominate:
            self.engine_preempt(pod, nominate, post)

    def engine_preempt(self, preemptor: Pod, node: str, post: PostFilterResult) -> None:
        """Apply preemption's effects once the preemptor's failure is handled (§3, §5)."""
        engine = self.engine
        for victim in post.victims:
            info = engine.snapshot.get(victim.node_name)
            if info is not None:
                info.remove_pod(victim)
            engine.decide(victim, rec.PREEMPTED, node=victim.node_name, preempted_by=preemptor.key)
        for pi in engine.nominator.pods_for_node(node):
            if pi.pod.priority < preemptor.priority:
                engine.nominator.delete(pi.pod)
                pi.pod.nominated_node_name = ""
        if post.victims:
            engine.cluster_changed()

    def _failure(
        self, info: QueuedPodInfo, cycle: int, message: str, nominate: str | None, rejectors: bool
    ) -> None:
        """handleSchedulingFailure: requeue, then update the nomination."""
        engine = self.engine
        pod = info.pod
        engine.last_message[pod.uid] = message
        if info.attempts >= 100:
            engine.decide(pod, rec.UNSCHEDULABLE, message=message)
        else:
            engine.queue.add_unschedulable(info, cycle, engine.clock, rejectors)
        if nominate is not None:
            pod.nominated_node_name = nominate
        if pod.nominated_node_name:
            engine.nominator.add(pod, pod.nominated_node_name)
        else:
            engine.nominator.delete(pod)

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
        attempt.scores = result.scores if len(result.feasible) > 1 else {}
        attempt.tied_with = result.tied_with
        attempt.feasible = len(result.feasible)
        attempt.evaluated = result.evaluated
        self._assume(pod, host)
        status = fwk.run_reserve(state, pod, host)
        if status is None:
            permit = fwk.run_permit(state, pod, host)
            status = permit.status
            if status is not None and status.code == Code.WAIT:
                raise NotImplementedError("Permit Wait is handled by the permit module")
        if status is not None:
            fwk.run_unreserve(state, pod, host)
            self._forget(pod, host)
            self._single_node_failure(info, cycle, attempt, host, status)
            return
        self._activate(activate)
        self._bind(fwk, state, info, cycle, attempt, host, activate)

    def _bind(
        self,
        fwk: Framework,
        state: CycleState,
        info: QueuedPodInfo,
        cycle: int,
        attempt: rec.Attempt,
        host: str,
        activate: PodsToActivate,
    ) -> None:
        engine = self.engine
        pod = info.pod
        status = fwk.run_pre_bind(state, pod, host)
        if status is None:
            status = fwk.run_bind(state, pod, host)
        if status is not None and status.code not in (Code.SUCCESS,):
            fwk.run_unreserve(state, pod, host)
            self._forget(pod, host)
            engine.cluster_changed()
            self._single_node_failure(info, cycle, attempt, host, status)
            return
        pod.start_time = engine.start_time_now()
        engine.decide(pod, rec.SCHEDULED, node=host)
        engine.cluster_changed()
        fwk.run_post_bind(state, pod, host)
        self._activate(activate)

    def _single_node_failure(
        self, info: QueuedPodInfo, cycle: int, attempt: rec.Attempt, host: str, status: Status
    ) -> None:
        """A Reserve, Permit or bind failure: a FitError over the one chosen node."""
        if status.is_rejected():
            diag = Diagnosis(node_to_status={host: status})
            diag.add_plugin_status(status)
            message = str(FitError(info.pod, 1, diag))
            rejectors = True
        else:
            message = status.message()
            rejectors = False
        attempt.result = rec.UNSCHEDULABLE
        attempt.node = ""
        attempt.message = message
        self._failure(info, cycle, message, "", rejectors)

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
        attempt = rec.Attempt(pod=pod.key, time=self.engine.clock, result=result, node=node, message=message)
        if diagnosis is not None:
            attempt.filtered = {
                name: rec.FilteredNode(st.plugin, st.all_reasons(), st.code.go_name)
                for name, st in diagnosis.node_to_status.items()
            }
        self.engine.plan.attempts.append(attempt)
        return attempt
