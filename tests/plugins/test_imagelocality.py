from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.plugins import imagelocality
from ksched_cli.plugins.imagelocality import normalized_image_name
from tests.fakes import FakeHandle, make_node, make_pod

MB = 1024 * 1024


def _images(*entries: tuple[int, tuple[str, ...]]) -> list[dict[str, Any]]:
    return [{"names": list(names), "sizeBytes": size * MB} for size, names in entries]


N403002000 = _images(
    (40, ("gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1")),
    (300, ("gcr.io/300:latest", "gcr.io/300:v1")),
    (2000, ("gcr.io/2000:latest",)),
)
N25010 = _images((250, ("gcr.io/250:latest",)), (10, ("gcr.io/10:latest", "gcr.io/10:v1")))
N60040900 = _images(
    (600, ("gcr.io/600:latest",)), (40, ("gcr.io/40:latest",)), (900, ("gcr.io/900:latest",))
)
N300600900 = _images(
    (300, ("gcr.io/300:latest",)), (600, ("gcr.io/600:latest",)), (900, ("gcr.io/900:latest",))
)
N400030 = _images((4000, ("gcr.io/4000:latest",)), (30, ("gcr.io/30:latest",)))
N203040 = _images(
    (20, ("gcr.io/20:latest",)), (30, ("gcr.io/30:latest",)), (40, ("gcr.io/40:latest",))
)
NONE: list[dict[str, Any]] = []

CASES = [
    # 250M/2 spread over 2 nodes: 100*(125-23)/(2000-23) = 5
    ("two images spread, prefer the larger", ["gcr.io/40", "gcr.io/250"], [],
     [N403002000, N25010], [0, 5]),
    ("two images on one node", ["gcr.io/40", "gcr.io/300"], [], [N403002000, N25010], [7, 0]),
    ("above the max threshold", ["gcr.io/10", "gcr.io/4000"], [], [N400030, N25010], [100, 0]),
    ("spread over three nodes", ["gcr.io/10", "gcr.io/4000"], [], [N400030, N25010, NONE],
     [66, 0, 0]),
    ("several large images", ["gcr.io/300", "gcr.io/600", "gcr.io/900"], [],
     [N60040900, N300600900, NONE], [32, 36, 0]),
    ("several small images", ["gcr.io/30", "gcr.io/40"], [], [N203040, N400030], [1, 0]),
    # Init containers count towards both the sum and the max threshold.
    ("init containers", ["gcr.io/10"], ["gcr.io/4000"], [N400030, N25010], [100, 0]),
    # 300M/2 = 150M; 100*(150-23)/(1000-23) = 12
    ("explicit tag", ["gcr.io/300:v1"], [], [N403002000, N25010], [12]),
    ("untagged name on node is not matched", ["gcr.io/20:v9"], [], [N203040], [0]),
]


@pytest.mark.parametrize(
    ("containers", "inits", "node_images", "expected"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_score(
    containers: list[str],
    inits: list[str],
    node_images: list[list[dict[str, Any]]],
    expected: list[int],
) -> None:
    nodes = [make_node(f"node{i + 1}", images=imgs) for i, imgs in enumerate(node_images)]
    handle = FakeHandle(nodes)
    plugin = imagelocality.Plugin(None, handle)
    spec = {
        "containers": [{"name": f"c{i}", "image": img} for i, img in enumerate(containers)],
        "initContainers": [{"name": f"i{i}", "image": img} for i, img in enumerate(inits)],
    }
    pod = make_pod("p", spec=spec)
    got = []
    for i in range(len(expected)):
        score, status = plugin.score(CycleState(), pod, handle.node(f"node{i + 1}"))
        assert status is None
        got.append(score)
    assert got == expected


@pytest.mark.parametrize(
    ("name", "normalized"),
    [
        ("root", "root:latest"),
        ("gcr.io:5000/root", "gcr.io:5000/root:latest"),
        ("root:tag", "root:tag"),
        ("root@sha256:abc", "root@sha256:abc"),
        ("gcr.io:5000/root:tag", "gcr.io:5000/root:tag"),
    ],
)
def test_normalized_image_name(name: str, normalized: str) -> None:
    assert normalized_image_name(name) == normalized


# v1.36 (kubernetes#130231): image volumes add to the sum; the max threshold still counts
# only containers (the bug kubernetes#138952 reports, fixed for 1.37 by #138951).
VOLUME_CASES = [
    # 1.36: (10M + 250M)/2 on node2; 100*(130-23)/(1000-23) = 10.
    ("image volume counted", ["gcr.io/10"], ["gcr.io/250"], "1.36", [0, 10]),
    # Before 1.36 the volume is ignored: node2's 10M is below the minimum threshold.
    ("image volume ignored before 1.36", ["gcr.io/10"], ["gcr.io/250"], "1.32", [0, 0]),
    # (30M + 4000M)/2 is over one container's 1000M threshold: 100, where
    # counting the volume in the threshold (v1.37) would give less.
    ("threshold counts containers only", ["gcr.io/30"], ["gcr.io/4000"], "1.36", [100, 0]),
]


@pytest.mark.parametrize(
    ("containers", "volumes", "version", "expected"),
    [c[1:] for c in VOLUME_CASES],
    ids=[c[0] for c in VOLUME_CASES],
)
def test_image_volumes(
    containers: list[str], volumes: list[str], version: str, expected: list[int]
) -> None:
    from ksched_cli.versions.releases import release

    nodes = [make_node("node1", images=N400030), make_node("node2", images=N25010)]
    handle = FakeHandle(nodes, features=release(version).features)
    plugin = imagelocality.Plugin(None, handle)
    spec = {
        "containers": [{"name": f"c{i}", "image": img} for i, img in enumerate(containers)],
        "volumes": [{"name": f"v{i}", "image": {"reference": ref}}
                    for i, ref in enumerate(volumes)],
    }
    pod = make_pod("p", spec=spec)
    got = [plugin.score(CycleState(), pod, handle.node(n))[0] for n in ("node1", "node2")]
    assert got == expected
