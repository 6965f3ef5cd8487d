"""Indexes built before the first attempt (Framework.prepare) change no plan, and leave
the attempts nothing to build."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ksched_cli.config.load import default_config
from ksched_cli.engine.engine import Engine, EngineOptions
from ksched_cli.engine.runtime import Framework
from ksched_cli.render.document import plan_document
from ksched_cli.whatif.inputs import load_cluster

from .test_equivalence import _affinity_cluster, _workload_cluster


def _plan(cluster: Any) -> dict[str, Any]:
    # The indexes are the array paths': forced on, whatever the cluster's size.
    options = EngineOptions(vectorize=True)
    return plan_document(Engine(default_config(), cluster, options).run(), explain=True)


@pytest.mark.parametrize("seed", range(3))
def test_prepared_indexes_plan_as_lazily_built_ones(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    prepared = _plan(_affinity_cluster(seed))
    monkeypatch.setattr(Framework, "prepare", lambda self, pods: None)
    assert prepared == _plan(_affinity_cluster(seed))


@pytest.mark.parametrize("seed", range(3))
def test_prepared_spread_columns_plan_as_lazily_built_ones(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from .spread_cluster import write

    path = write(seed, tmp_path)
    prepared = _plan(load_cluster([str(path)]).cluster)
    monkeypatch.setattr(Framework, "prepare", lambda self, pods: None)
    assert prepared == _plan(load_cluster([str(path)]).cluster)


@pytest.mark.parametrize("workload", ["pod-affinity", "topology-spreading"])
def test_first_attempts_build_no_index(workload: str) -> None:
    engine = Engine(default_config(), _workload_cluster(workload), EngineOptions(vectorize=True))
    engine.start()
    columns = engine.snapshot.list()[0].columns
    assert columns is not None
    built = (set(columns._watchers), set(columns._match_counts))
    # pod-affinity: the existing pods' terms and the pods' own term group;
    # topology-spreading: the matching pods of the constraint's selector.
    assert len(built[0]) >= 2 or built[1]
    engine.run_until()
    assert (set(columns._watchers), set(columns._match_counts)) == built
