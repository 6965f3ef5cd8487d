"""The filter walk on masks (masks.walk_with_masks) visits the nodes the plain ring walk
visits: the same feasible nodes in the same order, the same nominated-node statuses and
the same rejected nodes (or their count), over all live nodes or a subset of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_cli.engine.masks import walk_with_masks
from ksched_cli.engine.snapshot import Snapshot
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.nodeinfo import NodeInfo
from ksched_cli.framework.status import Status, unschedulable
from tests.fakes import make_node, make_pod


@dataclass
class _Masked:
    """A filter plugin with a mask; Filter gives the same answer node by node."""

    mask: Any
    name: str = "Masked"

    def filter(self, state: CycleState, pod: Any, ni: NodeInfo) -> Status | None:
        return None if self.mask[ni.column_index] else unschedulable("masked")


@dataclass
class _Framework:
    plugin: _Masked
    nominated: dict[str, bool] = field(default_factory=dict)  # node -> passes with them
    vectorize: bool = False

    def filter_masks(self, state: CycleState, pod: Any, columns: Any) -> list[Any]:
        return [(self.plugin, self.plugin.mask)]

    def nominated_node_names(self) -> list[str]:
        return list(self.nominated)

    def run_filter_with_nominated_pods(
        self, state: CycleState, pod: Any, ni: NodeInfo
    ) -> Status | None:
        return None if self.nominated[ni.name] else unschedulable("nominated")

    def run_filter_known(self, state: CycleState, pod: Any, ni: NodeInfo, masks: Any) -> Any:
        return self.plugin.filter(state, pod, ni)


def _plain(
    nodes: list[NodeInfo], fwk: _Framework, start: int, to_find: int
) -> tuple[list[str], list[str], list[str]]:
    """The reference: visit nodes from ``start`` round the ring until enough pass."""
    chosen: list[str] = []
    nominated_failed: list[str] = []
    rejected: list[str] = []
    for step in range(len(nodes)):
        ni = nodes[(start + step) % len(nodes)]
        if ni.name in fwk.nominated:
            target = chosen if fwk.nominated[ni.name] else nominated_failed
        else:
            target = chosen if fwk.plugin.mask[ni.column_index] else rejected
        target.append(ni.name)
        if len(chosen) == to_find:
            break
    return chosen, nominated_failed, rejected


@settings(max_examples=400, deadline=None)
@given(
    verdicts=st.lists(st.sampled_from("pfPF"), min_size=1, max_size=30),
    subset=st.lists(st.booleans(), min_size=30, max_size=30),
    start=st.integers(0, 29),
    to_find=st.integers(1, 35),
    count_only=st.booleans(),
)
def test_the_mask_walk_is_the_plain_walk(
    verdicts: list[str], subset: list[bool], start: int, to_find: int, count_only: bool
) -> None:
    # p/f: passes or fails the mask; P/F: carries nominated pods and passes or fails.
    infos = Snapshot([make_node(f"n{i:02d}") for i in range(len(verdicts))]).list()
    columns = infos[0].columns
    assert columns is not None
    nodes = [ni for ni, keep in zip(infos, subset, strict=False) if keep] or infos
    start %= len(nodes)
    plugin = _Masked(np.array([v in "pP" for v in verdicts], dtype=np.bool_))
    nominated = {ni.name: v == "P" for ni, v in zip(infos, verdicts, strict=True) if v in "PF"}
    fwk = _Framework(plugin, nominated)
    feasible, failed, counted = walk_with_masks(
        fwk,  # type: ignore[arg-type]
        CycleState(),
        make_pod("p"),
        nodes,
        start,
        to_find,
        columns,
        count_only,
    )
    chosen, nominated_failed, rejected = _plain(nodes, fwk, start, to_find)
    assert [ni.name for ni in feasible] == chosen
    assert [columns.names[p] for p in feasible.positions.tolist()] == chosen  # type: ignore[attr-defined]
    names = [name for name, _ in failed]
    if count_only and chosen:
        assert (names, counted) == (nominated_failed, len(rejected))
    else:
        assert (names, counted) == ([*nominated_failed, *rejected], 0)
