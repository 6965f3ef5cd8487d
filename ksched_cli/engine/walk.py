"""Pieces of the filter walk shared by the plain and the mask-based paths."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..framework.nodeinfo import NodeInfo
from ..framework.status import Code, Status


class SchedulingError(Exception):
    """An Error status from a plugin or an extender: the attempt fails without a FitError
    (reason SchedulerError); ``rejected`` for ErrNoNodesAvailable, which kube-scheduler
    reports as UnschedulableAndUnresolvable (reason Unschedulable)."""

    def __init__(self, message: str, rejected: bool = False) -> None:
        super().__init__(message)
        self.rejected = rejected


Failed = list[tuple[str, Status]]


def check_status(status: Status | None) -> bool:
    """True when the node passed; raises on an Error status."""
    if status is None or status.code == Code.SUCCESS:
        return True
    if status.code == Code.ERROR:
        raise SchedulingError(status.message())
    return False


def visit(
    nodes: Iterable[NodeInfo], check: Callable[[NodeInfo], Status | None], to_find: int
) -> tuple[list[NodeInfo], Failed]:
    """Check nodes in order until ``to_find`` pass, recording every failure on the way."""
    feasible: list[NodeInfo] = []
    failed: Failed = []
    for ni in nodes:
        status = check(ni)
        if check_status(status):
            feasible.append(ni)
            if len(feasible) >= to_find:
                break
        else:
            assert status is not None
            failed.append((ni.name, status))
    return feasible, failed
