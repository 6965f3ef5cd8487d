"""Derived columns (NodeColumns.derived): NodeResourcesFit's filter mask and its and
BalancedAllocation's array scores, kept per pod shape and brought up to date only where
pods came or went, equal the per-node Score after any sequence of binds, removals and
reads, whichever way a column catches up (node by node, by array, or rebuilt after
being dropped)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_cli.api.pod import Pod
from ksched_cli.config.args import (
    NodeResourcesBalancedAllocationArgs,
    NodeResourcesFitArgs,
    ResourceSpec,
    ScoringStrategy,
)
from ksched_cli.framework import columns as columns_module
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.plugins.noderesources.balanced_allocation import (
    BalancedAllocation,
    balanced_resource_scorer,
)
from ksched_cli.plugins.noderesources.fit import Fit
from ksched_cli.plugins.noderesources.vector import balances_before
from ksched_cli.versions.releases import release
from tests.fakes import FakeHandle, make_node, make_pod

GPU = "example.com/gpu"
SHAPES = [
    {"cpu": "100m"},
    {"cpu": "300m", "memory": "256Mi"},
    {"memory": "1Gi"},
    {"cpu": "250m", GPU: "1"},
    {"cpu": "4"},
    {},
]


@contextmanager
def _limits(derived_limit: int, few_nodes: int) -> Iterator[None]:
    saved = columns_module.DERIVED_LIMIT, columns_module.FEW_NODES
    columns_module.DERIVED_LIMIT, columns_module.FEW_NODES = derived_limit, few_nodes
    try:
        yield
    finally:
        columns_module.DERIVED_LIMIT, columns_module.FEW_NODES = saved


def _plugins(handle: FakeHandle, strategy: str) -> list[Fit | BalancedAllocation]:
    resources = [ResourceSpec("cpu", 1), ResourceSpec("memory", 1), ResourceSpec(GPU, 2)]
    fit_args = NodeResourcesFitArgs(
        scoring_strategy=ScoringStrategy(type=strategy, resources=resources)
    )
    balanced = NodeResourcesBalancedAllocationArgs([ResourceSpec("cpu", 1), ResourceSpec(GPU, 1)])
    return [
        Fit(fit_args, handle),
        BalancedAllocation(balanced, handle),
        BalancedAllocation(None, handle),
    ]


def _check(plugin: Fit | BalancedAllocation, pod: Pod, handle: FakeHandle) -> None:
    state = CycleState()
    infos = handle.snapshot.list()
    if isinstance(plugin, Fit):
        plugin.pre_filter(state, pod)
        columns = infos[0].columns
        assert columns is not None
        mask = plugin.filter_mask(state, pod, columns)
        assert mask is not None
        assert mask.tolist() == [plugin.filter(state, pod, ni) is None for ni in infos]
    if plugin.pre_score(state, pod, infos) is not None:
        return  # skipped (a best-effort pod from v1.33): never scored
    columns = infos[0].columns
    assert columns is not None
    index = np.array([ni.column_index for ni in infos], dtype=np.int64)
    arrays = plugin.score_array(state, pod, columns, index)
    assert arrays is not None
    assert arrays.tolist() == [plugin.score(state, pod, ni)[0] for ni in infos]


@pytest.mark.parametrize("version", ["1.30", "1.33", "1.36"])
@pytest.mark.parametrize("strategy", ["LeastAllocated", "MostAllocated"])
@settings(max_examples=40, deadline=None)
@given(
    nodes=st.lists(
        st.tuples(
            st.sampled_from([100, 250, 300, 400, 600, 1000, 4000, 7777]),
            st.integers(0, 4),
            st.sampled_from(["1", "3", "110"]),
        ),
        min_size=1,
        max_size=12,
    ),
    steps=st.lists(
        st.tuples(st.sampled_from(["bind", "remove", "read"]), st.integers(0, 11),
                  st.integers(0, len(SHAPES) - 1)),
        max_size=40,
    ),
    limits=st.sampled_from([(64, 8), (64, 0), (64, 1), (2, 1), (1, 100)]),
)
def test_derived_scores_equal_per_node(
    version: str, strategy: str, nodes: list[tuple[int, int, str]],
    steps: list[tuple[str, int, int]], limits: tuple[int, int],
) -> None:
    handle = FakeHandle(
        [
            make_node(
                f"n{i}", cpu=f"{cpu}m", memory="4Gi", pods=pods,
                extra={GPU: str(gpu)} if gpu else None,
            )
            for i, (cpu, gpu, pods) in enumerate(nodes)
        ],
        features=release(version).features,
    )
    handle.vectorize = True
    plugins = _plugins(handle, strategy)
    infos = handle.snapshot.list()
    bound: list[tuple[Pod, int]] = []
    with _limits(*limits):
        for k, (action, node, shape) in enumerate(steps):
            if action == "bind":
                target = infos[node % len(infos)]
                pod = make_pod(f"b{k}", requests=SHAPES[shape], node=target.name)
                target.add_pod(pod)
                bound.append((pod, node % len(infos)))
            elif action == "remove" and bound:
                pod, at = bound.pop(node % len(bound))
                infos[at].remove_pod(pod)
            else:
                for plugin in plugins:
                    _check(plugin, make_pod(f"p{k}", requests=SHAPES[shape]), handle)
        for shape in SHAPES:
            for plugin in plugins:
                _check(plugin, make_pod("last", requests=shape), handle)


@settings(max_examples=60, deadline=None)
@given(
    nodes=st.lists(
        st.tuples(st.sampled_from([0, 100, 250, 999, 4000]), st.integers(0, 3),
                  st.lists(st.integers(0, len(SHAPES) - 1), max_size=4)),
        min_size=1,
        max_size=10,
    ),
    gpu_requested=st.booleans(),
    default_resources=st.booleans(),
)
def test_balances_before_the_pod_equal_per_node(
    nodes: list[tuple[int, int, list[int]]], gpu_requested: bool, default_resources: bool
) -> None:
    """v1.36's balance without the pod, by array, is the per-node scorer on the
    allocated lists, node for node (the score's halving could hide a difference of one)."""
    handle = FakeHandle(
        [
            make_node(f"n{i}", cpu=f"{cpu}m", memory="4Gi", pods="110",
                      extra={GPU: str(gpu)} if gpu else None)
            for i, (cpu, gpu, _) in enumerate(nodes)
        ],
        features=release("1.36").features,
    )
    handle.vectorize = True
    infos = handle.snapshot.list()
    for i, (_, _, shapes) in enumerate(nodes):
        for k, shape in enumerate(shapes):
            infos[i].add_pod(make_pod(f"b{i}-{k}", requests=SHAPES[shape], node=infos[i].name))
    plugin = _plugins(handle, "LeastAllocated")[2 if default_resources else 1]
    scorer = plugin.scorer
    requests = [1 if gpu_requested and r.name == GPU else 0 for r in scorer.resources]
    stand_in = [1 if flag else 0 for flag in scorer.requested_scalars(requests)]
    columns = infos[0].columns
    assert columns is not None
    index = np.array([ni.column_index for ni in infos], dtype=np.int64)
    found = balances_before(scorer, stand_in, columns, index)
    assert found is not None
    expected = [balanced_resource_scorer(*scorer.lists(ni, stand_in)[1:]) for ni in infos]
    assert found.tolist() == expected
