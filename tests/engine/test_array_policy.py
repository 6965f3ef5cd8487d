"""Which paths a plan takes: the per-node reference below ARRAYS_FROM_NODES nodes unless
told otherwise, and NumPy only behind ``lazy_numpy``."""

from __future__ import annotations

import numpy
import pytest

from ksched_cli.api.node import parse_node
from ksched_cli.config.load import default_config
from ksched_cli.engine.cluster import Cluster
from ksched_cli.engine.engine import ARRAYS_FROM_NODES, Engine, EngineOptions
from ksched_cli.lazy_numpy import np
from tests.fakes import make_pod


def _cluster(nodes: int) -> Cluster:
    return Cluster(
        nodes=[
            parse_node(
                {
                    "metadata": {"name": f"n{i}"},
                    "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}},
                }
            )
            for i in range(nodes)
        ]
    )


@pytest.mark.parametrize(
    ("nodes", "option", "arrays"),
    [
        (1, None, False),
        (ARRAYS_FROM_NODES - 1, None, False),
        (ARRAYS_FROM_NODES, None, True),
        (40, None, True),
        (1, True, True),
        (40, False, False),
    ],
)
def test_small_clusters_take_the_per_node_paths(
    nodes: int, option: bool | None, arrays: bool
) -> None:
    engine = Engine(default_config(), _cluster(nodes), EngineOptions(vectorize=option))
    assert engine.sampler.vectorize is arrays
    assert {fwk.vectorize for fwk in engine.frameworks.values()} == {arrays}


def test_the_stand_in_is_numpy_once_read() -> None:
    assert np.zeros is numpy.zeros
    assert np.int64 is numpy.int64
    assert np.random is numpy.random  # a submodule NumPy loads on first use
    assert np.add is numpy.add
    with pytest.raises(AttributeError):
        np.no_such_name  # noqa: B018


def test_column_arrays_are_made_on_first_read_from_the_nodes_as_they_are_then() -> None:
    engine = Engine(default_config(), _cluster(2), EngineOptions(vectorize=False))
    columns = engine._snapshot.columns
    assert not columns.arrays_made
    assert columns.alloc_cpu.tolist() == [4000, 4000]
    assert columns.arrays_made
    assert columns.name_rank.tolist() == [0, 1]


def test_arrays_made_after_binds_hold_the_nodes_as_bound() -> None:
    cluster = _cluster(1)  # one node: nothing scored, so nothing reads the arrays
    cluster.pods = [make_pod(f"p{i}", cpu="250m", memory="1Gi") for i in range(3)]
    engine = Engine(default_config(), cluster, EngineOptions(vectorize=False))
    engine.run()
    columns = engine._snapshot.columns
    infos = engine._snapshot.list()
    assert not columns.arrays_made
    assert columns.req_cpu.tolist() == [ni.requested.milli_cpu for ni in infos]
    assert columns.pod_count.tolist() == [len(ni.pods) for ni in infos]
    assert sum(columns.pod_count.tolist()) == 3
