"""The counting walk (masks._count_walk) picks the nodes the plain walk picks, in its
order, and counts the nodes it would have visited and rejected."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_cli.engine.masks import _count_walk
from ksched_cli.engine.snapshot import Snapshot
from tests.fakes import make_node


def _plain(passing: list[bool], start: int, to_find: int) -> tuple[list[int], int]:
    """The reference: visit nodes from ``start`` round the ring, stop at ``to_find``."""
    n = len(passing)
    chosen: list[int] = []
    rejected = 0
    for step in range(n):
        at = (start + step) % n
        if passing[at]:
            chosen.append(at)
            if len(chosen) == to_find:
                break
        else:
            rejected += 1
    return chosen, rejected


@settings(max_examples=300, deadline=None)
@given(
    passing=st.lists(st.booleans(), min_size=1, max_size=40),
    start=st.integers(0, 39),
    to_find=st.integers(1, 45),
)
def test_count_walk_is_the_plain_walk(passing: list[bool], start: int, to_find: int) -> None:
    start %= len(passing)
    columns = Snapshot([make_node(f"n{i:02d}") for i in range(len(passing))]).columns
    got = _count_walk(columns, np.array(passing, dtype=np.bool_), start, to_find)
    chosen, rejected = _plain(passing, start, to_find)
    if not chosen:
        assert got is None
        return
    assert got is not None
    feasible, failed, counted = got
    assert [ni.column_index for ni in feasible] == chosen
    assert feasible.positions.tolist() == chosen
    assert (failed, counted) == ([], rejected)
