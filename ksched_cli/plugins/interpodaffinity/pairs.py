"""Topology-pair counts that are cheap both to hand to a cycle and to read per node.

A ``PairTable`` keeps the counts as the PreFilter state's dict and, per topology key,
as a NumPy array over that key's domains. Handing the dict to a cycle costs nothing:
the table copies it (at C speed) before its next change, so a state never sees a later
bind. The arrays give every live node's count with one indexing operation.
"""

from __future__ import annotations

from ...framework.columns import IntArray, NodeColumns
from ...lazy_numpy import np
from .filtering import TopologyCounts, _bump

NAME = "InterPodAffinity"


def domains(key: str, columns: NodeColumns) -> tuple[IntArray, dict[str, int]]:
    """Per live node the id of its ``key`` label value (-1 without it), and value -> id."""
    ids, values = columns.static_ids((NAME, "domain", key), lambda ni: ni.node.labels.get(key))
    position: dict[str, int] | None = columns.static_cache.get((NAME, "position", key))
    if position is None:
        position = {v: i for i, v in enumerate(values)}
        columns.static_cache[(NAME, "position", key)] = position
    return ids, position


class PairTable:
    """Counts per (topology key, value), with zero counts dropped as in ``_bump``."""

    __slots__ = ("_arrays", "_columns", "_shared", "counts")

    def __init__(self, columns: NodeColumns) -> None:
        self.counts: TopologyCounts = {}
        self._columns = columns
        self._arrays: dict[str, IntArray] = {}
        self._shared = False

    def bump(self, key: str, value: str, n: int) -> None:
        if self._shared:
            self.counts = dict(self.counts)
            self._shared = False
        _bump(self.counts, (key, value), n)
        array = self._arrays.get(key)
        if array is not None:
            array[domains(key, self._columns)[1][value]] += n

    def share(self) -> TopologyCounts:
        """The counts as they are now, for a cycle to keep (never changed afterwards)."""
        self._shared = True
        return self.counts

    def per_node(self, key: str) -> IntArray:
        """Every live node's count for its own ``key`` value (0 without the key)."""
        ids, position = domains(key, self._columns)
        array = self._arrays.get(key)
        if array is None:
            array = np.zeros(len(position) + 1, dtype=np.int64)  # the last slot serves id -1
            for (k, value), n in self.counts.items():
                if k == key:
                    array[position[value]] = n
            self._arrays[key] = array
        out: IntArray = array[ids]
        return out
