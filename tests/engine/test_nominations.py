"""The nominator's table: per-node totals equal a plain sum over live nominations."""

from __future__ import annotations

import random

from ksched_cli.api.pod import Pod
from ksched_cli.engine.nominator import Nominator
from ksched_cli.engine.snapshot import Snapshot
from ksched_cli.framework.nominations import PODS_COUNT
from tests.fakes import make_node, make_pod

NAMES = [PODS_COUNT, "cpu", "memory"]


def _expected(
    nominated: dict[str, tuple[str, Pod]], nodes: list[str], priority: int, exclude: str
) -> dict[str, list[int]]:
    out = {name: [0] * len(nodes) for name in NAMES}
    for uid, (node, pod) in nominated.items():
        if uid == exclude or pod.priority < priority or node not in nodes:
            continue
        i = nodes.index(node)
        out[PODS_COUNT][i] += 1
        out["cpu"][i] += pod.requests.get("cpu", 0)
        out["memory"][i] += pod.requests.get("memory", 0)
    return out


def test_totals_follow_adds_and_deletes_through_compaction() -> None:
    rng = random.Random(3)
    nodes = [f"n{i}" for i in range(6)]
    columns = Snapshot([make_node(n) for n in nodes]).columns
    nominator = Nominator()
    nominated: dict[str, tuple[str, Pod]] = {}
    pods = [
        make_pod(f"p{i}", cpu=f"{rng.randint(1, 900)}m", memory="1Mi", priority=rng.choice([0, 5]))
        for i in range(400)
    ]
    for step in range(5000):
        pod = rng.choice(pods)
        if rng.random() < 0.55:
            node = rng.choice([*nodes, "gone"])  # a node missing from the snapshot counts nowhere
            nominator.add(pod, node)
            nominated[pod.uid] = (node, pod)
        else:
            nominator.delete(pod)
            nominated.pop(pod.uid, None)
        if step % 97 == 0:
            exclude = rng.choice(pods).uid
            got = nominator.nominations().totals(columns, NAMES, 5, exclude)
            want = _expected(nominated, nodes, 5, exclude)
            assert {k: v.tolist() for k, v in got.items()} == want
