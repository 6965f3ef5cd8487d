"""Every nominated pod as table rows, with per-node request totals derived on demand.

Filters that judge many nodes at once need, per node, what its nominated pods of at
least some priority request. The queue's nominator adds a row per nomination and
marks it dead when the nomination goes; the NumPy arrays behind ``totals`` are only
extended with new rows, so a nomination costs O(1) however many there are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api.pod import Pod
from ..lazy_numpy import np

if TYPE_CHECKING:
    from .columns import BoolArray, IntArray, NodeColumns

PODS_COUNT = ""  # the pod-count "resource" next to real resource names
_COMPACT_AT = 1024  # dead rows tolerated before the table is rebuilt from live rows


def amount(pod: Pod, name: str) -> int:
    """What the pod adds to a node's requested ``name`` (1 for the pod count)."""
    return 1 if name == PODS_COUNT else pod.requests.get(name, 0)


class Nominations:
    __slots__ = (
        "_alive",
        "_columns",
        "_dead",
        "_killed",
        "_node_index",
        "_nodes",
        "_pods",
        "_priority",
        "_requests",
        "_row_of",
        "_synced",
    )

    def __init__(self) -> None:
        self._nodes: list[str] = []
        self._pods: list[Pod | None] = []  # None: the nomination was deleted
        self._row_of: dict[str, int] = {}
        self._dead = 0
        # The arrays are made by the first sync, and made again for other columns.
        self._columns: NodeColumns | None = None
        self._synced = 0  # rows already in the arrays
        self._killed: list[int] = []  # synced rows deleted since the last sync

    def _reset_arrays(self) -> None:
        self._synced = 0
        self._killed = []
        empty = np.zeros(0, dtype=np.int64)
        self._node_index: IntArray = empty
        self._priority: IntArray = empty
        self._alive: BoolArray = np.zeros(0, dtype=np.bool_)
        self._requests: dict[str, IntArray] = {}

    def add(self, node_name: str, pod: Pod) -> None:
        self.remove(pod.uid)
        self._row_of[pod.uid] = len(self._pods)
        self._nodes.append(node_name)
        self._pods.append(pod)

    def remove(self, uid: str) -> None:
        row = self._row_of.pop(uid, None)
        if row is None:
            return
        self._pods[row] = None
        self._dead += 1
        if row < self._synced:
            self._killed.append(row)
        if self._dead > _COMPACT_AT and self._dead * 2 > len(self._pods):
            live = [(n, p) for n, p in zip(self._nodes, self._pods, strict=True) if p is not None]
            self._nodes = [n for n, _ in live]
            self._pods = [p for _, p in live]
            self._row_of = {p.uid: i for i, (_, p) in enumerate(live)}
            self._dead = 0
            self._columns = None  # rows moved: the next sync makes the arrays anew

    def totals(
        self, columns: NodeColumns, names: list[str], min_priority: int, exclude_uid: str
    ) -> dict[str, IntArray]:
        """Per live node and name, the sum over nominated pods of priority >= ``min_priority``
        other than ``exclude_uid`` (nominations to unknown nodes count nowhere)."""
        self._sync(columns, names)
        keep = self._alive & (self._priority >= min_priority) & (self._node_index >= 0)
        row = self._row_of.get(exclude_uid)
        if row is not None:
            keep[row] = False
        where = self._node_index[keep]
        out: dict[str, IntArray] = {}
        for name in names:
            total = np.zeros(columns.size, dtype=np.int64)
            np.add.at(total, where, self._requests[name][keep])
            out[name] = total
        return out

    def _sync(self, columns: NodeColumns, names: list[str]) -> None:
        """Bring the arrays up to the rows (all of them for a new columns object)."""
        if self._columns is not columns:
            self._reset_arrays()
            self._columns = columns
        start, end = self._synced, len(self._pods)
        if self._killed:
            self._alive[self._killed] = False
            self._killed.clear()
        if end > start:
            by_name = columns.by_name
            new_pods = self._pods[start:end]
            nodes = self._nodes[start:end]
            index = [by_name[n].column_index if n in by_name else -1 for n in nodes]
            self._node_index = np.concatenate([self._node_index, np.array(index, dtype=np.int64)])
            self._priority = np.concatenate(
                [self._priority, np.array([p.priority if p else 0 for p in new_pods], np.int64)]
            )
            alive = np.array([p is not None for p in new_pods], dtype=np.bool_)
            self._alive = np.concatenate([self._alive, alive])
            for name, column in self._requests.items():
                self._requests[name] = np.concatenate([column, self._amounts(name, new_pods)])
            self._synced = end
        for name in names:
            if name not in self._requests:
                self._requests[name] = self._amounts(name, self._pods[:end])

    @staticmethod
    def _amounts(name: str, pods: list[Pod | None]) -> IntArray:
        if name == PODS_COUNT:
            return np.ones(len(pods), dtype=np.int64)
        return np.array([p.requests.get(name, 0) if p else 0 for p in pods], dtype=np.int64)
