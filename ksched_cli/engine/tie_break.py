"""SelectHost from v1.35: a max-heap of scored nodes (schedule_one.go ``nodeScoreHeap``).

Nodes are ordered by total score, then by a ``Randomizer``. v1.35.7 draws a random
Randomizer only for nodes an extender scored; every other node keeps 0, so without
extenders ties fall to the order ``container/heap`` leaves them in over the scored nodes.
That order is emulated here exactly (``heap.Init`` then ``heap.Pop``), over the nodes in
the order ksched's sequential filtering found them. The remaining heap is what
opportunistic batching keeps for the next pods (engine/batching.py).

ksched's deterministic rule (``--tie-break lowest-name``) gives every node a Randomizer
that falls with its name, so the lowest name wins a tie exactly as in v1.30; ``random``
replays the cluster's rule: 0 for nodes without extender scores, a seeded draw otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..framework.columns import IntArray
from ..lazy_numpy import np

if TYPE_CHECKING:  # a seeded Random comes from the engine, only with --tie-break random
    import random


class NodeScoreHeap:
    """Go's container/heap over (name, total, randomizer), the highest first."""

    def __init__(self, entries: Sequence[tuple[str, int, int]]) -> None:
        self._h = list(entries)
        n = len(self._h)
        for i in range(n // 2 - 1, -1, -1):
            self._down(i, n)

    def _less(self, i: int, j: int) -> bool:
        _, ti, ri = self._h[i]
        _, tj, rj = self._h[j]
        return ti > tj or (ti == tj and ri > rj)

    def _down(self, i0: int, n: int) -> None:
        i = i0
        while True:
            j1 = 2 * i + 1
            if j1 >= n:
                break
            j = j1
            j2 = j1 + 1
            if j2 < n and self._less(j2, j1):
                j = j2
            if not self._less(j, i):
                break
            self._h[i], self._h[j] = self._h[j], self._h[i]
            i = j

    def pop(self) -> str:
        n = len(self._h) - 1
        self._h[0], self._h[n] = self._h[n], self._h[0]
        self._down(0, n)
        return self._h.pop()[0]

    def pop_with_index(self) -> tuple[str, int]:
        """The next node and its place among the scored nodes (-1: not kept here)."""
        return self.pop(), -1

    def next_index(self) -> int:
        """The place of the node the next pop returns, when known without popping (-1)."""
        return -1

    def __len__(self) -> int:
        return len(self._h)


class RankedScores(NodeScoreHeap):
    """The same pops when every (total, randomizer) is distinct, as under ksched's
    lowest-name rule: a heap then pops in descending key order whatever its layout, so
    one sort replaces the emulation (the names kept best last)."""

    def __init__(
        self,
        names: Sequence[str],
        totals: Sequence[int] | IntArray,
        name_rank: IntArray | None = None,
    ) -> None:
        if name_rank is None:
            values = _as_list(totals)
            best_first = sorted(range(len(names)), key=lambda i: (-values[i], names[i]))
        else:  # the columns' name order: one C sort over (total, rank)
            best_first = np.lexsort((name_rank, -np.asarray(totals))).tolist()
        best_first.reverse()
        # Names are looked up as they are popped: most pods pop one or two of them.
        self._names = names
        self._order = best_first

    def pop(self) -> str:
        return self._names[self._order.pop()]

    def pop_with_index(self) -> tuple[str, int]:
        at = self._order.pop()
        return self._names[at], at

    def next_index(self) -> int:
        """After the best node, the best of the rest (lowest name among equals): the
        runner-up."""
        return self._order[-1] if self._order else -1

    def __len__(self) -> int:
        return len(self._order)


def build_heap(
    names: Sequence[str],
    totals: Sequence[int] | IntArray,
    rng: random.Random | None,
    extender_scored: bool,
    name_rank: IntArray | None = None,
) -> NodeScoreHeap:
    """The heap selectHost pops; ``rng`` None is ksched's lowest-name rule (Randomizers that
    fall with the name: the pops are in total order, then name order)."""
    if rng is None:
        return RankedScores(names, totals, name_rank)
    # v1.35.7 draws Randomizers only for extender-scored nodes; the rest keep 0.
    draws = [rng.getrandbits(63) for _ in names] if extender_scored else [0] * len(names)
    return NodeScoreHeap(list(zip(names, _as_list(totals), draws, strict=True)))


def _as_list(totals: Sequence[int] | IntArray) -> list[int]:
    return totals.tolist() if isinstance(totals, np.ndarray) else list(totals)
