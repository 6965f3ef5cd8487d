"""Node columns stay equal to sums over the live NodeInfos as pods come and go."""

from __future__ import annotations

import random

from ksched_cli.api.pod import Pod
from ksched_cli.engine.snapshot import Snapshot
from ksched_cli.framework.nodeinfo import NodeInfo
from ksched_cli.framework.nominations import PODS_COUNT
from tests.fakes import make_node, make_pod


def _below(info: NodeInfo, priority: int, name: str) -> int:
    pods = [pi.pod for pi in info.pods if pi.pod.priority < priority]
    return len(pods) if name == PODS_COUNT else sum(p.requests.get(name, 0) for p in pods)


def test_requested_below_follows_binds_and_removals() -> None:
    rng = random.Random(11)
    snapshot = Snapshot([make_node(f"n{i}", cpu="64", pods="500") for i in range(5)])
    columns = snapshot.columns
    placed: list[Pod] = []
    asked: set[tuple[int, str]] = set()
    for step in range(600):
        if placed and rng.random() < 0.4:
            pod = placed.pop(rng.randrange(len(placed)))
            info = snapshot.get(pod.node_name)
            assert info is not None
            info.remove_pod(pod)
        else:
            node = f"n{rng.randrange(5)}"
            pod = make_pod(
                f"p{step}", cpu=f"{rng.randint(1, 500)}m", node=node, priority=rng.randint(0, 9)
            )
            info = snapshot.get(node)
            assert info is not None
            info.add_pod(pod)
            placed.append(pod)
        if step % 50 == 0:  # columns created mid-way must also stay current afterwards
            asked.add((rng.randint(0, 10), rng.choice([PODS_COUNT, "cpu"])))
        for priority, name in asked:
            column = columns.requested_below(priority, name)
            assert column.tolist() == [_below(ni, priority, name) for ni in columns.infos]
