"""Pod requests as v1.30 computes them (PodRequests and NodeInfo's non-zero sums)."""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.api.pod import parse_pod

MI = 1024 * 1024


def _pod(spec: dict[str, Any]) -> Any:
    return parse_pod({"metadata": {"name": "p"}, "spec": spec})


def _c(cpu: str | None = None, mem: str | None = None, **extra: Any) -> dict[str, Any]:
    req = {k: v for k, v in (("cpu", cpu), ("memory", mem)) if v is not None}
    return {"name": "c", "resources": {"requests": req}, **extra}


@pytest.mark.parametrize(
    ("spec", "requests", "non_zero", "cache_non_zero"),
    [
        (
            {"containers": [_c("1", "1Gi"), _c("500m", "512Mi")]},
            {"cpu": 1500, "memory": 1536 * MI},
            {"cpu": 1500, "memory": 1536 * MI},
            (1500, 1536 * MI),
        ),
        ({"containers": [_c()]}, {}, {"cpu": 100, "memory": 200 * MI}, (100, 200 * MI)),
        ({"containers": [_c("0")]}, {"cpu": 0}, {"cpu": 0, "memory": 200 * MI}, (0, 200 * MI)),
        # init containers: max with the sum of the regular containers
        (
            {"containers": [_c("1", "1Gi")], "initContainers": [_c("2", "512Mi")]},
            {"cpu": 2000, "memory": 1024 * MI},
            {"cpu": 2000, "memory": 1024 * MI},
            (2000, 1024 * MI),
        ),
        # a sidecar (restartable init container) adds to the regular sum and to later inits
        (
            {
                "containers": [_c("1", "1Gi")],
                "initContainers": [_c("500m", "100Mi", restartPolicy="Always"), _c("1", "1Gi")],
            },
            {"cpu": 1500, "memory": 1124 * MI},
            {"cpu": 1500, "memory": 1124 * MI},
            (1500, 1124 * MI),
        ),
        # overhead is added on top
        (
            {"containers": [_c("1", "1Gi")], "overhead": {"cpu": "250m", "memory": "64Mi"}},
            {"cpu": 1250, "memory": 1088 * MI},
            {"cpu": 1250, "memory": 1088 * MI},
            (1250, 1088 * MI),
        ),
        # limits-only: the API server defaults requests to limits
        (
            {
                "containers": [
                    {"name": "c", "resources": {"limits": {"cpu": "2", "example.com/gpu": "1"}}}
                ]
            },
            {"cpu": 2000, "example.com/gpu": 1},
            {"cpu": 2000, "memory": 200 * MI, "example.com/gpu": 1},
            (2000, 200 * MI),
        ),
    ],
)
def test_requests(
    spec: dict[str, Any],
    requests: dict[str, int],
    non_zero: dict[str, int],
    cache_non_zero: tuple[int, int],
) -> None:
    pod = _pod(spec)
    assert pod.requests == requests
    assert pod.non_zero_requests == non_zero
    assert pod.cache_non_zero == cache_non_zero


def test_host_network_defaults_host_ports() -> None:
    pod = _pod(
        {"hostNetwork": True, "containers": [{"name": "c", "ports": [{"containerPort": 8080}]}]}
    )
    assert [(p.container_port, p.host_port) for p in pod.host_ports()] == [(8080, 8080)]
