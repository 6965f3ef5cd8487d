"""In-place resize: a bound pod's requests while its resize is under way (v1.33+).

``test_container_requests`` ports the resize rows of component-helpers'
``TestPodResourceRequests`` (v0.36.3; the rule is the same from v0.33.3): the rows with
``UseStatusResources`` true expect the effective requests, those with it false the spec,
which is what a release with InPlacePodVerticalScaling off (1.30, 1.32) computes, its
API server keeping no such status. The pod-level rows follow ``PodRequests`` of v0.36.3
(InPlacePodLevelResourcesVerticalScaling, on from v1.36), whose tests carry no such row.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from ksched_cli.api.pod import parse_pod
from ksched_cli.whatif.inputs import load_cluster

INFEASIBLE = [{"type": "PodResizePending", "status": "True", "reason": "Infeasible"}]


def _pod(
    spec_requests: dict[str, str],
    status: dict[str, Any] | None = None,
    *,
    sidecar: bool = False,
    bound: bool = True,
    conditions: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    container = {"name": "c1", "image": "x", "resources": {"requests": spec_requests}}
    spec: dict[str, Any] = {"containers": [{"name": "main", "image": "x"}]}
    statuses: dict[str, Any] = {"conditions": conditions or []}
    key = "containerStatuses"
    if sidecar:
        spec["initContainers"] = [{**container, "restartPolicy": "Always"}]
        key = "initContainerStatuses"
    else:
        spec["containers"] = [container]
    if status is not None:
        statuses[key] = [{"name": "c1", **status}]
    if bound:
        spec["nodeName"] = "n1"
    return {"metadata": {"name": "p", "namespace": "default"}, "spec": spec, "status": statuses}


def _requested(status: dict[str, str]) -> dict[str, Any]:
    return {"resources": {"requests": status}}


ROWS = [
    ("resized, infeasible",
     _pod({"cpu": "4"}, _requested({"cpu": "2"}), conditions=INFEASIBLE), {"cpu": 2000}),
    ("resized, infeasible & in-progress",
     _pod({"cpu": "6"}, {"allocatedResources": {"cpu": "4"}, **_requested({"cpu": "2"})},
          conditions=INFEASIBLE),
     {"cpu": 4000}),
    ("resized, no resize status", _pod({"cpu": "4"}, _requested({"cpu": "2"})), {"cpu": 4000}),
    ("resized: per-resource 3-way maximum",
     _pod({"cpu": "30m", "memory": "20M", "ephemeral-storage": "10G"},
          {"allocatedResources": {"cpu": "20m", "memory": "10M", "ephemeral-storage": "30G"},
           **_requested({"cpu": "10m", "memory": "30M", "ephemeral-storage": "20G"})}),
     {"cpu": 30, "memory": 30_000_000, "ephemeral-storage": 30_000_000_000}),
    ("resized, restartable init container, infeasible",
     _pod({"cpu": "4"}, _requested({"cpu": "2"}), sidecar=True, conditions=INFEASIBLE),
     {"cpu": 2000}),
    ("resized, restartable init container, no resize status",
     _pod({"cpu": "4"}, _requested({"cpu": "2"}), sidecar=True), {"cpu": 4000}),
    # ksched's own rows: no status resources means the spec, and a pending pod's status
    # is not read (fit.go computes the incoming pod's requests without it).
    ("status without resources",
     _pod({"cpu": "1"}, {"allocatedResources": {"cpu": "3"}}), {"cpu": 1000}),
    ("pending pod",
     _pod({"cpu": "1"}, _requested({"cpu": "3"}), bound=False), {"cpu": 1000}),
    ("a later PodResizePending condition is not read",
     _pod({"cpu": "4"}, _requested({"cpu": "2"}),
          conditions=[{"type": "PodResizePending", "status": "True", "reason": "Deferred"},
                      *INFEASIBLE]),
     {"cpu": 4000}),
]


@pytest.mark.parametrize(("raw", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_container_requests(raw: dict[str, Any], expected: dict[str, int]) -> None:
    assert parse_pod(raw).requests == expected


def _pod_level(status: dict[str, Any], conditions: list[dict[str, str]] | None = None) -> Any:
    raw = _pod({"cpu": "1"})
    raw["spec"]["resources"] = {"requests": {"cpu": "2", "memory": "1Gi"}}
    raw["status"].update(status, conditions=conditions or [])
    return raw


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (_pod_level({"resources": {"requests": {"cpu": "3"}}}),
         {"cpu": 3000, "memory": 1 << 30}),
        (_pod_level({"resources": {"requests": {"cpu": "1"}}, "allocatedResources": {"cpu": "5"}}),
         {"cpu": 5000, "memory": 1 << 30}),
        # Infeasible: the spec is left out, and memory, in neither status list, becomes 0.
        (_pod_level({"resources": {"requests": {"cpu": "1"}}}, INFEASIBLE),
         {"cpu": 1000, "memory": 0}),
        (_pod_level({"allocatedResources": {"cpu": "5"}}), {"cpu": 2000, "memory": 1 << 30}),
    ],
    ids=["actuated above spec", "allocated above both", "infeasible", "no status.resources"],
)
def test_pod_level_requests(raw: dict[str, Any], expected: dict[str, int]) -> None:
    assert parse_pod(raw).requests == expected


@pytest.mark.parametrize(
    ("version", "expected"),
    [("1.30", 1000), ("1.32", 1000), ("1.36", 3000)],
)
def test_release_keeps_the_status(tmp_path: Path, version: str, expected: int) -> None:
    raw = _pod({"cpu": "1"}, _requested({"cpu": "3"}))
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
            "status": {"allocatable": {"cpu": "4"}}}
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml.safe_dump_all([node, {"apiVersion": "v1", "kind": "Pod", **raw}]))
    cluster = load_cluster([str(path)], kubernetes_version=version).cluster
    assert cluster.pods[0].requests == {"cpu": expected}
