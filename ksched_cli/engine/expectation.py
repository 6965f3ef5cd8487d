"""NominatedNodeNameForExpectation (v1.35+): the binding cycle nominates the chosen node.

Before WaitOnPermit, kube-scheduler writes the host as the pod's ``nominatedNodeName``
when the pod waits at Permit or a PreBind plugin has work (RunPreBindPreFlights says
Success), so that other components see where the pod is going. The pod is assumed then,
so the informer's update of it changes nothing in the scheduler. What the nomination does
shows only when the binding cycle fails afterwards: v1.35's failure patch compares with
the pod as it was popped, so the written nomination survives (and the nominator takes it
back from the patch's update event); v1.36's compares with the pod as the informer has
it, so the patch clears it (semantics.md §12.19).
"""

from __future__ import annotations

from ..api.pod import Pod
from ..framework.cycle_state import CycleState
from ..framework.status import Code, Status
from ..versions.features import Features
from .runtime import Framework


class Expectations:
    """The nominations binding cycles wrote, with what each pod had when popped."""

    def __init__(self, features: Features) -> None:
        self._features = features
        self._popped: dict[str, str] = {}

    def pre_flight(
        self, fwk: Framework, state: CycleState, pod: Pod, host: str, waiting: bool
    ) -> Status | None:
        """bindingCycle's start: nominate ``host`` when the pod ``waiting`` at Permit or a
        PreBind plugin has work; the pre-flight's failure (an Error, or a rejection it does
        not support), if any. A waiting pod's pre-flight is not run: it nominates the host
        anyway, and no ported pre-flight fails for a node its plugin's Filter passed."""
        if not self._features.nominated_for_expectation:
            return None
        status = None if waiting else fwk.run_pre_bind_pre_flights(state, pod, host)
        if status is not None and status.code != Code.SKIP:
            return status
        if status is None:
            self._write(pod, host)
        return None

    def _write(self, pod: Pod, host: str) -> None:
        if pod.nominated_node_name == host:
            return  # updatePod sends no patch
        if not self._features.failure_status_from_cache:
            self._popped[pod.uid] = pod.nominated_node_name
        pod.nominated_node_name = host

    def compared(self, pod: Pod) -> str | None:
        """The nomination a failure's patch compares with when it is not the pod's current
        one (v1.35: the pod as popped); None otherwise. Forgets the pod."""
        return self._popped.pop(pod.uid, None)

    def bound(self, pod: Pod) -> None:
        """The API server clears a bound pod's nomination (ClearingNominatedNodeNameAfter
        Binding, beta on from v1.35 as this switch)."""
        self._popped.pop(pod.uid, None)
        if self._features.nominated_for_expectation:
            pod.nominated_node_name = ""
