"""NodeResourcesFit's verdict on many nodes whose requested resources are changed by pods.

Nominated-pod passes add pods to a node and preemption dry runs take lower-priority
pods away; for NodeResourcesFit both only move the node's requested resources and its
pod count. ``Usage`` holds those numbers for some nodes, and ``fit_codes`` and
``FitStatuses`` give fitsRequest's statuses on them with the per-node code's reasons and order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...api.pod import Pod
from ...api.resources import CPU, EPHEMERAL_STORAGE, MEMORY
from ...framework.columns import BoolArray, IntArray, NodeColumns
from ...framework.nominations import PODS_COUNT, Nominations
from ...framework.status import Code, Status
from ...lazy_numpy import np
from ...record import record

if TYPE_CHECKING:
    from .fit import PreFilterState


# fit_codes' flag for "asked for more than the allocatable"; above every check's bit.
UNRESOLVABLE_BIT = 62


@record
class Usage:
    """Requested resources per node (``values[name][k]`` for the k-th node of a selection).

    ``values`` always has the pod count (key ``PODS_COUNT``), cpu, memory and
    ephemeral-storage, plus the scalar resources the pod asks for.
    """

    values: dict[str, IntArray]

    def plus(self, other: Usage, sign: int = 1) -> Usage:
        return Usage({k: v + sign * other.values[k] for k, v in self.values.items()})


def resource_names(request: PreFilterState) -> list[str]:
    return [PODS_COUNT, CPU, MEMORY, EPHEMERAL_STORAGE, *(name for name, _, _ in request.scalars)]


def live_usage(request: PreFilterState, columns: NodeColumns, positions: IntArray) -> Usage:
    values = {
        PODS_COUNT: columns.pod_count[positions],
        CPU: columns.req_cpu[positions],
        MEMORY: columns.req_mem[positions],
        EPHEMERAL_STORAGE: columns.req_eph[positions],
    }
    for name, _, _ in request.scalars:
        values[name] = columns.scalar_requested(name)[positions]
    return Usage(values)


def lower_priority_usage(
    request: PreFilterState, columns: NodeColumns, priority: int, positions: IntArray
) -> Usage:
    """What the pods of priority below ``priority`` request on each node.

    Kept as live columns per (priority, resource), so repeated preemptors of one
    priority read them without walking any node's pods.
    """
    return Usage(
        {
            name: columns.requested_below(priority, name)[positions]
            for name in resource_names(request)
        }
    )


def nominated_usage(
    request: PreFilterState,
    columns: NodeColumns,
    nominations: Nominations,
    pod: Pod,
    positions: IntArray,
) -> Usage:
    """What the nominated pods addNominatedPods would add for ``pod`` to each selected node:
    those of at least its priority, other than itself."""
    names = resource_names(request)
    totals = nominations.totals(columns, names, pod.priority, pod.uid)
    return Usage({name: totals[name][positions] for name in names})


def fit_codes(
    request: PreFilterState, columns: NodeColumns, positions: IntArray, usage: Usage
) -> tuple[list[str], IntArray]:
    """Per node a bit set of fitsRequest's failed checks, and each bit's reason.

    Where the release marks it, bit ``UNRESOLVABLE_BIT`` says a failed check asked for
    more than the node's whole allocatable (the pod count never does)."""
    used = usage.values
    checks: list[tuple[str, BoolArray]] = [
        ("Too many pods", used[PODS_COUNT] + 1 > columns.alloc_pods[positions])
    ]
    over = np.zeros(len(positions), dtype=bool)
    if not request.empty:
        for amount, alloc, name, reason in (
            (request.milli_cpu, columns.alloc_cpu, CPU, "Insufficient cpu"),
            (request.memory, columns.alloc_mem, MEMORY, "Insufficient memory"),
            (
                request.ephemeral_storage,
                columns.alloc_eph,
                EPHEMERAL_STORAGE,
                "Insufficient ephemeral-storage",
            ),
        ):
            if amount > 0:
                checks.append((reason, amount > alloc[positions] - used[name]))
                over |= amount > alloc[positions]
        for name, amount, reason in request.scalars:
            capacity = columns.scalar_allocatable(name)[positions]
            checks.append((reason, amount > capacity - used[name]))
            over |= amount > capacity
    codes = np.zeros(len(positions), dtype=np.int64)
    for bit, (_, short) in enumerate(checks):
        codes |= short.astype(np.int64) << bit
    if request.unresolvable_check:
        # A request over the allocatable always fails its own check, so the bit is
        # set only on nodes that fail.
        codes |= over.astype(np.int64) << UNRESOLVABLE_BIT
    return [reason for reason, _ in checks], codes


class FitStatuses:
    """Per node the status for a ``fit_codes`` result. Nodes short of the same resources
    share one Status: statuses are never changed once made."""

    def __init__(self, reasons: list[str], codes: IntArray, plugin: str = "") -> None:
        self.codes: list[int] = codes.tolist()
        self._reasons = reasons
        self._plugin = plugin
        self._made: dict[int, Status | None] = {0: None}

    def all(self) -> list[Status | None]:
        """Every node's status at once."""
        made = self._made
        for code in set(self.codes).difference(made):
            made[code] = self._make(code)
        return [made[code] for code in self.codes]

    def status(self, k: int) -> Status | None:
        code = self.codes[k]
        if code not in self._made:
            self._made[code] = self._make(code)
        return self._made[code]

    def _make(self, code: int) -> Status:
        reasons = (r for bit, r in enumerate(self._reasons) if code >> bit & 1)
        status_code = Code.UNSCHEDULABLE
        if code >> UNRESOLVABLE_BIT & 1:
            status_code = Code.UNSCHEDULABLE_AND_UNRESOLVABLE
        return Status(status_code, *reasons, plugin=self._plugin)
