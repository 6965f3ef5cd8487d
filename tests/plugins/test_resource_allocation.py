"""The shared resource scorer (resource_allocation.go), ported from resource_allocation_test.go."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ksched_cli.api.pod import Pod
from ksched_cli.config.args import ResourceSpec
from ksched_cli.plugins.noderesources.resource_allocation import ResourceAllocationScorer
from tests.plugins.noderesources_helpers import node, node_info, pod

MI = 1024 * 1024
DEFAULT_CPU = 100
DEFAULT_MEM = 200 * MI
ONE = {"cpu": "1", "memory": "1Mi"}


def echo(requested: Sequence[int], allocatable: Sequence[int]) -> int:
    return 0


def scorer(*names: str, use_requested: bool = False) -> ResourceAllocationScorer:
    return ResourceAllocationScorer("test", echo, [ResourceSpec(n) for n in names], use_requested)


CALCULATE_REQUESTS = [
    ("overhead only", pod(overhead=ONE), 1000, MI),
    ("1x requestless container", pod(None), DEFAULT_CPU, DEFAULT_MEM),
    ("2x requestless container", pod(None, None), 2 * DEFAULT_CPU, 2 * DEFAULT_MEM),
    ("request container + requestless container", pod(ONE, None),
     1000 + DEFAULT_CPU, MI + DEFAULT_MEM),
    ("container + requestless container + overhead", pod(ONE, None, overhead=ONE),
     2000 + DEFAULT_CPU, 2 * MI + DEFAULT_MEM),
    ("init container + container + requestless container + overhead",
     pod(ONE, None, init=[{"cpu": "3"}], overhead=ONE), 4000, 2 * MI + DEFAULT_MEM),
    ("requestless init container + small init container + small container",
     pod({"cpu": "3m", "memory": "3"}, init=[None, {"cpu": "1m", "memory": "1"}]),
     DEFAULT_CPU, DEFAULT_MEM),
    ("requestless init container + small init container + small container + requestless "
     "container",
     pod({"cpu": "3m", "memory": "3"}, None, init=[None, {"cpu": "1m", "memory": "1"}]),
     3 + DEFAULT_CPU, 3 + DEFAULT_MEM),
]


@pytest.mark.parametrize(
    ("pod_", "cpu", "memory"),
    [c[1:] for c in CALCULATE_REQUESTS], ids=[c[0] for c in CALCULATE_REQUESTS],
)
def test_calculate_pod_resource_request(pod_: Pod, cpu: int, memory: int) -> None:
    assert scorer("cpu", "memory").pod_request_list(pod_) == [cpu, memory]


def test_requested_list_has_no_defaults_when_using_requests() -> None:
    p = pod(None, {"cpu": "250m", "example.com/gpu": "2"})
    assert scorer("cpu", "memory", "example.com/gpu", use_requested=True).pod_request_list(p) == [
        250, 0, 2,
    ]


def test_allocatable_requested() -> None:
    n = node("n", {
        "cpu": "4", "memory": "8Gi", "pods": "10", "ephemeral-storage": "100",
        "example.com/gpu": "4", "example.com/zero": "0",
    })
    running = pod({"ephemeral-storage": "10", "example.com/gpu": "1"}, None)
    info = node_info(n, running)
    names = ("cpu", "memory", "ephemeral-storage", "example.com/gpu", "example.com/zero",
             "example.com/absent", "pods", "storage")
    non_zero = scorer(*names)
    # cpu/memory from the non-zero aggregate: two containers' defaults.
    assert non_zero.allocatable_requested(info, 0, 5) == (4000, 2 * DEFAULT_CPU + 5)
    assert non_zero.allocatable_requested(info, 1, 5) == (8 * 1024 * MI, 2 * DEFAULT_MEM + 5)
    # ephemeral storage and scalars always come from the real requests.
    assert non_zero.allocatable_requested(info, 2, 5) == (100, 15)
    assert non_zero.allocatable_requested(info, 3, 1) == (4, 2)
    # A scalar the pod does not request, or the node lacks, drops out.
    assert non_zero.allocatable_requested(info, 3, 0) == (0, 0)
    assert non_zero.allocatable_requested(info, 4, 1) == (0, 0)
    assert non_zero.allocatable_requested(info, 5, 1) == (0, 0)
    # Names that are neither core nor scalar are never scored.
    assert non_zero.allocatable_requested(info, 6, 1) == (0, 0)
    assert non_zero.allocatable_requested(info, 7, 1) == (0, 0)
    real = scorer(*names, use_requested=True)
    assert real.allocatable_requested(info, 0, 5) == (4000, 5)
    assert real.allocatable_requested(info, 1, 5) == (8 * 1024 * MI, 5)


def test_score_passes_only_present_resources() -> None:
    seen: list[tuple[list[int], list[int]]] = []

    def record(requested: Sequence[int], allocatable: Sequence[int]) -> int:
        seen.append((list(requested), list(allocatable)))
        return 42

    s = ResourceAllocationScorer(
        "test", record, [ResourceSpec("cpu"), ResourceSpec("example.com/gpu")], False
    )
    info = node_info(node("n", {"cpu": "2", "memory": "1Gi"}))
    assert s.score(info, [500, 1]) == (42, None)
    assert seen == [([500, 0], [2000, 0])]
