"""RequestedToCapacityRatio strategy, ported from v1.30's requested_to_capacity_ratio_test.go."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod
from ksched_cli.config.args import (
    REQUESTED_TO_CAPACITY_RATIO,
    NodeResourcesFitArgs,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
)
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.plugins.noderesources.fit import Fit
from ksched_cli.plugins.noderesources.requested_to_capacity_ratio import (
    go_round,
    requested_to_capacity_ratio_scorer,
)
from tests.fakes import FakeHandle
from tests.plugins.noderesources_helpers import go_node, node, pod

DEFAULT = [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]
FOO, BAR = "intel.com/foo", "intel.com/bar"
MI = 1024 * 1024


def shape(*points: tuple[int, int]) -> list[UtilizationShapePoint]:
    return [UtilizationShapePoint(u, s) for u, s in points]


def scores(
    requested: Pod, nodes: Sequence[Node], existing: Sequence[Pod],
    resources: list[ResourceSpec], points: list[UtilizationShapePoint],
) -> list[int]:
    handle = FakeHandle(nodes, existing)
    strategy = ScoringStrategy(REQUESTED_TO_CAPACITY_RATIO, resources, points)
    plugin = Fit(NodeResourcesFitArgs(scoring_strategy=strategy), handle)
    state = CycleState()
    assert plugin.pre_score(state, requested, handle.snapshot.list()) is None
    out = []
    for x in nodes:
        score, status = plugin.score(state, requested, handle.node(x.name))
        assert status is None
        out.append(score)
    return out


def small_nodes(cpu2: str = "4000") -> list[Node]:
    return [
        node("node1", {"cpu": "4000", "memory": "10000"}),
        node("node2", {"cpu": cpu2, "memory": "10000"}),
    ]


STRATEGY_CASES = [
    ("nothing scheduled, nothing requested (default - least requested nodes have priority)",
     pod(), small_nodes(), [pod(node_name="node1"), pod(node_name="node1")], [100, 100]),
    ("nothing scheduled, resources requested, differently sized nodes",
     pod({"cpu": "1000", "memory": "2000"}, {"cpu": "2000", "memory": "3000"}),
     small_nodes("6000"), [pod(node_name="node1"), pod(node_name="node1")], [38, 50]),
    ("no resources requested, pods scheduled with resources", pod(), small_nodes("6000"),
     [pod({"cpu": "3000", "memory": "5000"}, node_name="node1"),
      pod({"cpu": "3000", "memory": "5000"}, node_name="node2")], [38, 50]),
]


@pytest.mark.parametrize(
    ("requested", "nodes", "existing", "want"),
    [c[1:] for c in STRATEGY_CASES], ids=[c[0] for c in STRATEGY_CASES],
)
def test_requested_to_capacity_ratio_scoring_strategy(
    requested: Pod, nodes: list[Node], existing: list[Pod], want: list[int]
) -> None:
    assert scores(requested, nodes, existing, DEFAULT, shape((0, 10), (100, 0))) == want


def ext_nodes(node1: dict[str, int], node2: dict[str, int]) -> list[Node]:
    return [go_node("node1", 4000, 10000 * MI, node1), go_node("node2", 4000, 10000 * MI, node2)]


SINGLE_EXTENDED = [
    ("nothing scheduled, nothing requested", pod(), [], [0, 0]),
    ("resources requested, pods scheduled with less resources", pod({FOO: "2"}), [pod()], [2, 5]),
    ("resources requested, pods scheduled with resources, on node with existing pod running",
     pod({FOO: "2"}), [pod({FOO: "2"}, node_name="node2")], [2, 10]),
    ("resources requested, pods scheduled with more resources", pod({FOO: "4"}), [pod()], [5, 10]),
]


@pytest.mark.parametrize(
    ("requested", "existing", "want"),
    [c[1:] for c in SINGLE_EXTENDED], ids=[c[0] for c in SINGLE_EXTENDED],
)
def test_resource_bin_packing_single_extended(
    requested: Pod, existing: list[Pod], want: list[int]
) -> None:
    nodes = ext_nodes({FOO: 8}, {FOO: 4})
    got = scores(requested, nodes, existing, [ResourceSpec(FOO, 1)], shape((0, 0), (100, 1)))
    assert got == want


MULTIPLE_EXTENDED = [
    ("nothing scheduled, nothing requested", pod(), [], [0, 0]),
    ("resources requested, pods scheduled with less resources",
     pod({FOO: "2", BAR: "2"}), [pod()], [4, 3]),
    ("resources requested, pods scheduled with resources, on node with existing pod running",
     pod({FOO: "2", BAR: "2"}), [pod({FOO: "4", BAR: "2"}, node_name="node2")], [4, 7]),
    ("resources requested, pods scheduled with more resources",
     pod({FOO: "4", BAR: "2"}), [pod()], [5, 5]),
]


@pytest.mark.parametrize(
    ("requested", "existing", "want"),
    [c[1:] for c in MULTIPLE_EXTENDED], ids=[c[0] for c in MULTIPLE_EXTENDED],
)
def test_resource_bin_packing_multiple_extended(
    requested: Pod, existing: list[Pod], want: list[int]
) -> None:
    nodes = ext_nodes({FOO: 8, BAR: 4}, {FOO: 4, BAR: 8})
    resources = [ResourceSpec(FOO, 3), ResourceSpec(BAR, 5)]
    assert scores(requested, nodes, existing, resources, shape((0, 0), (100, 1))) == want


def test_zero_scores_leave_the_average() -> None:
    # cpu scores 0 on the falling shape at full use, so only memory (50) counts.
    scorer = requested_to_capacity_ratio_scorer(DEFAULT, shape((0, 10), (100, 0)))
    assert scorer([10, 50], [10, 100]) == 50
    # An over-committed resource scores as fully used; an idle one scores 0 and drops out.
    rising = requested_to_capacity_ratio_scorer(DEFAULT, shape((0, 0), (100, 10)))
    assert rising([11, 0], [10, 100]) == 100


@pytest.mark.parametrize(
    ("x", "want"), [(0.5, 1), (1.5, 2), (2.5, 3), (37.5, 38), (0.49999999999999994, 0), (-2.5, -3)]
)
def test_go_round_halves_away_from_zero(x: float, want: int) -> None:
    assert go_round(x) == want
