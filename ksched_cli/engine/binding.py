"""Reserve, Permit, PreBind, Bind and PostBind: the binding cycle's extension points
(framework.RunReservePluginsReserve ... RunPostBindPlugins), with their status rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api.pod import Pod
from ..framework.cycle_state import CycleState
from ..framework.status import Code, Status, as_error
from ..record import record

if TYPE_CHECKING:
    from .runtime import Framework

MAX_PERMIT_TIMEOUT = 15 * 60.0


@record
class PermitOutcome:
    """The Permit plugins' verdict, and the wait each one asked for."""

    status: Status | None
    timeouts: dict[str, float]


def run_reserve(fwk: Framework, state: CycleState, pod: Pod, node: str) -> Status | None:
    for pl in fwk.reserve_plugins:
        status = pl.reserve(state, pod, node)
        if status is not None and status.code != Code.SUCCESS:
            return _failure("Reserve", pl.name, status)
    return None


def run_unreserve(fwk: Framework, state: CycleState, pod: Pod, node: str) -> None:
    for pl in reversed(fwk.reserve_plugins):
        pl.unreserve(state, pod, node)


def run_permit(fwk: Framework, state: CycleState, pod: Pod, node: str) -> PermitOutcome:
    timeouts: dict[str, float] = {}
    for pl in fwk.permit_plugins:
        status, timeout = pl.permit(state, pod, node)
        if status is None or status.code == Code.SUCCESS:
            continue
        if status.code == Code.WAIT:  # never a rejection, so the order of checks is free
            timeouts[pl.name] = min(timeout, MAX_PERMIT_TIMEOUT)
            continue
        return PermitOutcome(_failure("Permit", pl.name, status), {})
    if timeouts:
        msg = f'one or more plugins asked to wait and no plugin rejected pod "{pod.name}"'
        return PermitOutcome(Status(Code.WAIT, msg), timeouts)
    return PermitOutcome(None, {})


def run_pre_bind_pre_flights(
    fwk: Framework, state: CycleState, pod: Pod, node: str
) -> Status | None:
    """RunPreBindPreFlights (v1.35+): None (Success) when some PreBind plugin has work for
    the pod on ``node``, Skip when none has, or the Error that stops the binding cycle."""
    result: Status | None = Status(Code.SKIP, "")
    for pl in fwk.pre_flight_plugins:
        status = pl.pre_bind_pre_flight(state, pod, node)
        if status is None or status.code == Code.SUCCESS:
            result = None
        elif status.code == Code.ERROR:
            return as_error(f'running PreBindPreFlight "{pl.name}": {status.message()}')
        elif status.code != Code.SKIP:
            return as_error(
                f'PreBindPreFlight {pl.name} returned "{status.code.go_name}", which is '
                "unsupported. It is supposed to return Success, Skip, or Error status"
            )
    return result


def run_pre_bind(fwk: Framework, state: CycleState, pod: Pod, node: str) -> Status | None:
    for pl in fwk.pre_bind_plugins:
        status = pl.pre_bind(state, pod, node)
        if status is not None and status.code != Code.SUCCESS:
            return _failure("PreBind", pl.name, status)
    return None


def run_bind(fwk: Framework, state: CycleState, pod: Pod, node: str) -> Status | None:
    if not fwk.bind_plugins:
        return Status(Code.SKIP, "")
    status: Status | None = None
    for pl in fwk.bind_plugins:
        status = pl.bind(state, pod, node)
        if status is not None and status.code == Code.SKIP:
            continue
        if status is not None and status.code != Code.SUCCESS:
            return _failure("Bind", pl.name, status)
        return status
    return status


def run_post_bind(fwk: Framework, state: CycleState, pod: Pod, node: str) -> None:
    for pl in fwk.post_bind_plugins:
        pl.post_bind(state, pod, node)


def _failure(point: str, plugin: str, status: Status) -> Status:
    """A plugin's non-success: rejections keep their reasons, the rest become errors."""
    if status.is_rejected():
        return status.with_plugin(plugin)
    return as_error(f'running {point} plugin "{plugin}": {status.message()}').with_plugin(plugin)
