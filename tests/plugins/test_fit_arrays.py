"""NodeResourcesFit's mask over all live nodes equals its per-node Filter."""

from __future__ import annotations

import random

import pytest

from ksched_cli.api.node import Node
from ksched_cli.engine.snapshot import Snapshot
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.plugins.noderesources.fit import PRE_FILTER_STATE_KEY, Fit
from ksched_cli.plugins.noderesources.vector import fit_mask
from tests.fakes import FakeHandle, make_node, make_pod

GPU = "example.com/gpu"


def _random_nodes(
    rng: random.Random, count: int, pods: list[int], extra: dict[str, str]
) -> list[Node]:
    """Nodes of mixed cpu, memory, pod and GPU capacity (``extra`` added to each)."""
    return [
        make_node(
            f"n{i}",
            cpu=f"{rng.choice([500, 1000, 2000])}m",
            memory=f"{rng.choice([1, 2])}Gi",
            pods=str(rng.choice(pods)),
            extra={GPU: str(rng.choice([0, 1, 2])), **extra},
        )
        for i in range(count)
    ]


@pytest.mark.parametrize("seed", range(5))
def test_fit_mask_is_the_filter_on_every_node(seed: int) -> None:
    rng = random.Random(seed)
    nodes = _random_nodes(rng, 30, [1, 2, 3, 110], {"ephemeral-storage": "1Gi"})
    snapshot = Snapshot(nodes)
    for k in range(40):
        info = snapshot.get(f"n{rng.randrange(30)}")
        assert info is not None
        info.add_pod(make_pod(f"run{k}", cpu=f"{rng.randint(0, 600)}m", node=info.name))
    plugin = Fit(None, FakeHandle(nodes))
    columns = snapshot.columns
    seen: set[bool] = set()
    for k in range(60):
        requests = {}
        for name, values in (
            ("cpu", ["0", "100m", "700m"]),
            ("memory", ["0", "512Mi", "1536Mi"]),
            ("ephemeral-storage", ["0", "512Mi"]),
            (GPU, ["0", "1", "2"]),
        ):
            if rng.random() < 0.6:
                requests[name] = rng.choice(values)
        pod = make_pod(f"p{k}", requests=requests)
        state = CycleState()
        plugin.pre_filter(state, pod)
        request = state.get(PRE_FILTER_STATE_KEY)
        want = [plugin.filter(state, pod, ni) is None for ni in columns.infos]
        assert fit_mask(request, columns).tolist() == want
        seen.update(want)
    assert seen == {True, False}


@pytest.mark.parametrize("version", ["1.30", "1.34"])
@pytest.mark.parametrize("seed", range(3))
def test_fit_statuses_are_the_filter_statuses(seed: int, version: str) -> None:
    """The array statuses carry the per-node reasons and code (v1.34+: a request over the
    allocatable is UnschedulableAndUnresolvable)."""
    import numpy as np

    from ksched_cli.framework.status import Code
    from ksched_cli.plugins.noderesources.vector import fit_statuses
    from ksched_cli.versions.releases import features_for

    rng = random.Random(seed)
    nodes = _random_nodes(rng, 20, [1, 2, 110], {})
    features = features_for(version)
    snapshot = Snapshot(nodes, features)
    for k in range(25):
        info = snapshot.get(f"n{rng.randrange(20)}")
        assert info is not None
        info.add_pod(make_pod(f"run{k}", cpu=f"{rng.randint(0, 600)}m", node=info.name))
    plugin = Fit(None, FakeHandle(nodes, features=features))
    columns = snapshot.columns
    positions = np.arange(len(columns.infos), dtype=np.int64)
    codes: set[Code] = set()
    for k in range(40):
        requests = {
            "cpu": rng.choice(["100m", "700m", "1500m"]),
            GPU: rng.choice(["0", "1", "2"]),
        }
        pod = make_pod(f"p{k}", requests=requests)
        state = CycleState()
        plugin.pre_filter(state, pod)
        request = state.get(PRE_FILTER_STATE_KEY)
        want = [plugin.filter(state, pod, ni) for ni in columns.infos]
        got = fit_statuses(request, columns, positions)
        assert [(s.code, s.reasons) if s else None for s in got] == [
            (s.code, s.reasons) if s else None for s in want
        ]
        codes.update(s.code for s in want if s is not None)
    assert Code.UNSCHEDULABLE in codes
    assert (Code.UNSCHEDULABLE_AND_UNRESOLVABLE in codes) == (version == "1.34")
