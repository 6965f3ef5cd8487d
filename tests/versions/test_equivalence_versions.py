"""Array paths equal the per-node reference under every release's switches too."""

from __future__ import annotations

import pytest

from ksched_cli.config.load import default_config
from ksched_cli.versions.releases import release
from tests.engine.test_equivalence import _cluster, _crowded_cluster, _plan, _workload_cluster


@pytest.mark.parametrize("version", ["1.32", "1.36"])
@pytest.mark.parametrize("seed", range(2))
def test_random_clusters(version: str, seed: int) -> None:
    config = default_config(release(version).features)
    assert _plan(_cluster(seed), True, config) == _plan(_cluster(seed), False, config)


@pytest.mark.parametrize("version", ["1.32", "1.36"])
@pytest.mark.parametrize("seed", [4, 5])
def test_crowded_preemption(version: str, seed: int) -> None:
    config = default_config(release(version).features)
    vectorized = _plan(_crowded_cluster(seed, True), True, config)
    assert vectorized == _plan(_crowded_cluster(seed, True), False, config)


@pytest.mark.parametrize("version", ["1.32", "1.36"])
@pytest.mark.parametrize("workload", ["mixed", "mixed-tight"])
def test_mixed_workloads(version: str, workload: str) -> None:
    """Every default Score plugin with something to say (benchmarks/mixed.py)."""
    config = default_config(release(version).features)
    vectorized = _plan(_workload_cluster(workload), True, config)
    assert vectorized == _plan(_workload_cluster(workload), False, config)
