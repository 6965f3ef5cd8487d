"""Topology counts of a cloned PreFilter state: the original's counts, read through,
under the clone's own changes.

Preemption clones the state once per dry run and changes a pair or two of it (the
pods it removes and puts back on one node); copying every count of a large cluster
per dry run cost more than the dry run itself. The clone keeps a reference to the
original's counts and records its changes apart; the original copies its counts
before changing them once it has lent them (filtering.PreFilterState.lent).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

TopologyPair = tuple[str, str]


class CountsOverlay:
    """Counts as ``_bump`` keeps them (no zero entries), over a base never changed here.

    ``changed[pair] == 0`` records a pair deleted from the base."""

    __slots__ = ("_base", "_changed", "_size")

    def __init__(
        self,
        base: Mapping[TopologyPair, int],
        changed: dict[TopologyPair, int] | None = None,
        size: int | None = None,
    ) -> None:
        self._base = base
        self._changed = changed if changed is not None else {}
        self._size = len(base) if size is None else size

    def get(self, pair: TopologyPair, default: int = 0) -> int:
        n = self._changed.get(pair)
        if n is None:
            return self._base.get(pair, default)
        return n if n else default

    def __contains__(self, pair: object) -> bool:
        n = self._changed.get(pair)  # type: ignore[call-overload]
        return pair in self._base if n is None else n != 0

    def __setitem__(self, pair: TopologyPair, n: int) -> None:
        assert n != 0, "counts keep no zero entries"
        if pair not in self:
            self._size += 1
        self._changed[pair] = n

    def pop(self, pair: TopologyPair, default: int | None = None) -> int | None:
        if pair not in self:
            return default
        n = self.get(pair)
        self._changed[pair] = 0
        self._size -= 1
        return n

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._size > 0

    def items(self) -> Iterator[tuple[TopologyPair, int]]:
        changed = self._changed
        for pair, n in self._base.items():
            if pair not in changed:
                yield pair, n
        for pair, n in changed.items():
            if n:
                yield pair, n

    def __iter__(self) -> Iterator[TopologyPair]:
        return (pair for pair, _ in self.items())

    def as_dict(self) -> dict[TopologyPair, int]:
        return dict(self.items())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CountsOverlay):
            return self.as_dict() == other.as_dict()
        if isinstance(other, Mapping):
            return self.as_dict() == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"CountsOverlay({self.as_dict()!r})"

    def clone(self) -> CountsOverlay:
        return CountsOverlay(self._base, dict(self._changed), self._size)


def overlay(counts: Mapping[TopologyPair, int] | CountsOverlay) -> CountsOverlay:
    """A clone's counts: on the same base, with a copy of the changes made so far."""
    if isinstance(counts, CountsOverlay):
        return counts.clone()
    return CountsOverlay(counts)
