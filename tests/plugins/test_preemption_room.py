"""Every node's dry-run Room made from the columns at once equals the one summed from
the node's own pods (lower-priority ones gone, nominated ones added)."""

from __future__ import annotations

import random

import pytest

from ksched_cli.config.load import default_config
from ksched_cli.engine.cluster import Cluster
from ksched_cli.engine.engine import Engine
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.plugins.noderesources.fit import PRE_FILTER_STATE_KEY, PreFilterState
from ksched_cli.plugins.preemption_room import DryRunNumbers, Room, Rows
from tests.fakes import make_node, make_pod

GPU = "example.com/gpu"


def _requests(rng: random.Random) -> dict[str, str]:
    out = {}
    for name, values in (
        ("cpu", ["100m", "700m", "1500m"]),
        ("memory", ["256Mi", "1Gi"]),
        ("ephemeral-storage", ["100Mi"]),
        (GPU, ["1", "2"]),
    ):
        if rng.random() < 0.6:
            out[name] = rng.choice(values)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_rooms_from_columns_equal_rooms_summed_per_node(seed: int) -> None:
    rng = random.Random(seed)
    nodes = [
        make_node(
            f"n{i}",
            cpu="8",
            memory="16Gi",
            pods=str(rng.choice([3, 5, 110])),
            extra={GPU: str(rng.choice([0, 2, 4])), "ephemeral-storage": "10Gi"},
        )
        for i in range(12)
    ]
    running = [
        make_pod(
            f"run{k}",
            node=rng.choice(nodes).name,
            priority=rng.choice([0, 5, 10, 20]),
            requests=_requests(rng),
        )
        for k in range(30)
    ]
    engine = Engine(default_config(), Cluster(nodes=nodes, pods=running))
    nominated = [
        make_pod(f"nom{k}", priority=rng.choice([1, 10, 30]), requests=_requests(rng))
        for k in range(6)
    ]
    for pod in nominated:
        pod.nominated_node_name = rng.choice(nodes).name
        engine.nominator.add(pod, pod.nominated_node_name)
    fwk = engine.frameworks["default-scheduler"]
    moved = {"removed": 0, "added": 0}
    columns = engine.snapshot.list()[0].columns
    assert columns is not None
    for k in range(8):
        preemptor = make_pod(f"pre{k}", priority=rng.choice([5, 10, 25]), requests=_requests(rng))
        if k == 0:
            preemptor = nominated[0]  # its own nomination is not added
        state = CycleState()
        fwk.run_pre_filter(state, preemptor)
        request = state.get(PRE_FILTER_STATE_KEY)
        assert isinstance(request, PreFilterState)
        numbers = DryRunNumbers(request, columns, engine.nominations(), preemptor)
        rows = Rows(request)
        for ni in columns.infos:
            removed = [pi.pod for pi in ni.pods if pi.pod.priority < preemptor.priority]
            added = [
                pi.pod
                for pi in engine.nominated_pods_for_node(ni.name)
                if pi.pod.priority >= preemptor.priority and pi.pod.uid != preemptor.uid
            ]
            moved["removed"] += len(removed)
            moved["added"] += len(added)
            summed = Room.on_node(rows, ni, removed, added)
            assert numbers.rooms.room(ni).free == summed.free, ni.name
        assert rows.keys == numbers.rooms.rows.keys
    assert moved["removed"] and moved["added"]
