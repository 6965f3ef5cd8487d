"""NodeResourcesFit's part of a preemption dry run, on plain ints.

A dry run removes the node's lower-priority pods, adds its nominated pods and gives
back victims one by one; for Fit that only moves the free amounts of the resources the
preemptor asks for (and the pod count). ``Room`` holds those amounts for one node.
``Rooms`` makes every live node's starting amounts at once, from the node columns,
when a PostFilter starts: the same numbers the per-node sums give
(tests/plugins/test_preemption_room.py checks both ways on random nodes).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..api.pod import Pod
from ..api.resources import CPU, EPHEMERAL_STORAGE, MEMORY
from ..framework.columns import IntArray, NodeColumns
from ..framework.nodeinfo import NodeInfo
from ..framework.nominations import PODS_COUNT, Nominations, amount
from ..framework.podinfo import PodInfo
from ..lazy_numpy import np
from .noderesources.fit import PreFilterState
from .noderesources.usage import Usage, live_usage, lower_priority_usage, nominated_usage


class Rows:
    """fitsRequest's checks for one preemptor, in its order: the resource (``PODS_COUNT``
    for the pod count), what the preemptor needs of it and the reason when short. The
    pod count comes first; then only what the pod asks for (nothing when it asks for
    nothing)."""

    __slots__ = ("keys", "reasons", "wanted")

    def __init__(self, request: PreFilterState) -> None:
        rows = [(PODS_COUNT, 1, "Too many pods")]
        if not request.empty:
            for name, wanted in (
                (CPU, request.milli_cpu),
                (MEMORY, request.memory),
                (EPHEMERAL_STORAGE, request.ephemeral_storage),
            ):
                if wanted > 0:
                    rows.append((name, wanted, f"Insufficient {name}"))
            rows.extend(request.scalars)
        self.keys = [row[0] for row in rows]
        self.wanted = [row[1] for row in rows]
        self.reasons = [row[2] for row in rows]

    def free_on(self, node_info: NodeInfo) -> list[int]:
        """The node's free amounts as its NodeInfo has them."""
        alloc, used = node_info.allocatable, node_info.requested
        out = []
        for key in self.keys:
            if key == PODS_COUNT:
                out.append(alloc.allowed_pod_number - len(node_info.pods))
            elif key == CPU:
                out.append(alloc.milli_cpu - used.milli_cpu)
            elif key == MEMORY:
                out.append(alloc.memory - used.memory)
            elif key == EPHEMERAL_STORAGE:
                out.append(alloc.ephemeral_storage - used.ephemeral_storage)
            else:
                out.append(alloc.scalar_resources.get(key, 0) - used.scalar_resources.get(key, 0))
        return out


class Room:
    """Free amounts of the resources Fit checks on one node, as a dry run moves pods."""

    __slots__ = ("free", "rows")

    def __init__(self, rows: Rows, free: list[int]) -> None:
        self.rows = rows
        self.free = free

    @classmethod
    def on_node(
        cls, rows: Rows, node_info: NodeInfo, removed: Sequence[Pod], added: Sequence[Pod]
    ) -> Room:
        """The node's amounts with ``removed`` gone and ``added`` there, pod by pod."""
        free = rows.free_on(node_info)
        for pod, sign in [(p, 1) for p in removed] + [(p, -1) for p in added]:
            for j, key in enumerate(rows.keys):
                free[j] += sign * amount(pod, key)
        return cls(rows, free)

    def short(self) -> list[str]:
        """fitsRequest's reasons for what the preemptor lacks here (empty: it fits)."""
        rows = self.rows
        return [
            reason
            for f, w, reason in zip(self.free, rows.wanted, rows.reasons, strict=True)
            if f < w
        ]

    def take(self, pi: PodInfo) -> bool:
        """Put the pod back if the preemptor (and the nominated pods) still fit."""
        requests = pi.pod.requests
        left = []
        for key, f, w in zip(self.rows.keys, self.free, self.rows.wanted, strict=True):
            rest = f - (1 if key == PODS_COUNT else requests.get(key, 0))
            if rest < w:
                return False
            left.append(rest)
        self.free = left
        return True


def dry_run_usage(
    request: PreFilterState,
    columns: NodeColumns,
    nominations: Nominations,
    pod: Pod,
    positions: IntArray,
) -> tuple[Usage, Usage]:
    """What the nodes at ``positions`` request once the pods below ``pod``'s priority are
    gone and the nominated pods of at least its priority (but ``pod``) are added; and
    what those lower-priority pods request."""
    lower = lower_priority_usage(request, columns, pod.priority, positions)
    usage = (
        live_usage(request, columns, positions)
        .plus(lower, -1)
        .plus(nominated_usage(request, columns, nominations, pod, positions))
    )
    return usage, lower


class DryRunNumbers:
    """One PostFilter's numbers for every live node: what it requests at the start of a
    dry run, what its lower-priority pods request, and its Room."""

    __slots__ = ("columns", "lower", "rooms", "usage")

    def __init__(
        self, request: PreFilterState, columns: NodeColumns, nominations: Nominations, pod: Pod
    ) -> None:
        self.columns = columns
        self.usage, self.lower = dry_run_usage(
            request, columns, nominations, pod, columns.positions
        )
        self.rooms = Rooms(Rows(request), columns, self.usage)


class Rooms:
    """Every live node's Room at the start of its dry run, from one ``dry_run_usage``."""

    __slots__ = ("_free", "rows")

    def __init__(self, rows: Rows, columns: NodeColumns, usage: Usage) -> None:
        self.rows = rows
        allocatable = {
            PODS_COUNT: columns.alloc_pods,
            CPU: columns.alloc_cpu,
            MEMORY: columns.alloc_mem,
            EPHEMERAL_STORAGE: columns.alloc_eph,
        }
        free = [
            (allocatable[key] if key in allocatable else columns.scalar_allocatable(key))
            - usage.values[key]
            for key in rows.keys
        ]
        # One row per node; only the nodes that get a dry run become lists.
        self._free: IntArray = np.stack(free, axis=1)

    def room(self, node_info: NodeInfo) -> Room:
        free: list[int] = self._free[node_info.column_index].tolist()
        return Room(self.rows, free)
