"""Pod-level resources: ``spec.resources`` of a pod (PodLevelResources, on from 1.34).

Ported from k8s.io/kubernetes v1.35.7 (component-helpers ``resource/helpers.go``,
``apis/core/v1/defaults.go`` and the pod-level checks of ``apis/core/validation``); the
same code is in component-helpers v0.36.3. A release without the gate drops the field
as the API server does (``drop_disabled``), so nothing here runs for it.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from ..errors import ObjectError
from .fields import Raw, mapping, objects
from .go_quantity import Quantity, parse_list
from .resources import ExactList, aggregate

HUGEPAGES_PREFIX = "hugepages-"
SUPPORTED_NAMES = ("cpu", "hugepages-", "memory")  # SupportedPodLevelResources, sorted

# Where each workload kind keeps its pod template (the field the API server drops in).
TEMPLATE_SPEC_PATHS: Mapping[str, tuple[str, ...]] = {
    "Deployment": ("spec", "template", "spec"),
    "ReplicaSet": ("spec", "template", "spec"),
    "ReplicationController": ("spec", "template", "spec"),
    "StatefulSet": ("spec", "template", "spec"),
    "DaemonSet": ("spec", "template", "spec"),
    "Job": ("spec", "template", "spec"),
    "CronJob": ("spec", "jobTemplate", "spec", "template", "spec"),
    "Pod": ("spec",),
}


def is_supported(name: str) -> bool:
    return name in ("cpu", "memory") or name.startswith(HUGEPAGES_PREFIX)


@dataclass(frozen=True, slots=True)
class PodResources:
    """``spec.resources`` after the API server's defaulting: exact amounts."""

    requests: ExactList
    limits: ExactList

    def supported_requests(self) -> ExactList:
        """What PodRequests takes from the pod level (IsPodLevelRequestsSet when non-empty)."""
        return {k: v for k, v in self.requests.items() if is_supported(k)}


def drop_disabled(kind: str, raw: Raw) -> Raw:
    """``raw`` without pod-level resources, as a release without the gate stores it."""
    path = TEMPLATE_SPEC_PATHS.get(kind)
    if path is None:
        return raw
    node: Any = raw
    for key in path:
        node = node.get(key) if isinstance(node, Mapping) else None
    if not isinstance(node, Mapping) or "resources" not in node:
        return raw
    return _without(raw, path)


def _without(raw: Mapping[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    """A copy of ``raw`` with ``resources`` removed at ``path``; the input is left alone."""
    out = dict(raw)
    if not path:
        out.pop("resources", None)
    else:
        out[path[0]] = _without(raw[path[0]], path[1:])
    return out


def parse_pod_resources(spec: Raw) -> PodResources | None:
    """``spec.resources`` defaulted and checked as the API server does; None when absent."""
    if spec.get("resources") is None:
        return None
    raw = mapping(spec, "resources", "spec")
    requests = parse_list(raw, "requests", "spec.resources")
    limits = parse_list(raw, "limits", "spec.resources")
    containers = _containers(spec)
    if requests or limits:
        _default_hugepage_limits(requests, limits, containers)
        _default_requests(requests, limits, containers)
    _validate(requests, limits, containers)
    return PodResources(
        {k: q.value for k, q in requests.items()}, {k: q.value for k, q in limits.items()}
    )


@dataclass(frozen=True, slots=True)
class _Containers:
    """Each container's requests and limits; init containers say if they are sidecars."""

    regular: list[tuple[str, dict[str, Quantity], dict[str, Quantity]]]
    init: list[tuple[dict[str, Quantity], dict[str, Quantity], bool]]


def _containers(spec: Raw) -> _Containers:
    """Container requests (defaulted from limits, as the API server does) and limits."""

    def read(item: Raw, path: str) -> tuple[dict[str, Quantity], dict[str, Quantity]]:
        res = mapping(item, "resources", path)
        requests = parse_list(res, "requests", f"{path}.resources")
        limits = parse_list(res, "limits", f"{path}.resources")
        for name, q in limits.items():
            requests.setdefault(name, q)
        return requests, limits

    regular = [(p, *read(i, p)) for p, i in objects(spec, "containers", "spec")]
    init = [
        (*read(i, p), i.get("restartPolicy") == "Always")
        for p, i in objects(spec, "initContainers", "spec")
    ]
    return _Containers(regular, init)


def _add(into: MutableMapping[str, Quantity], other: Mapping[str, Quantity]) -> None:
    for name, q in other.items():
        into[name] = into[name].plus(q) if name in into else q


def _max(into: MutableMapping[str, Quantity], other: Mapping[str, Quantity]) -> None:
    for name, q in other.items():
        if name not in into or q.value > into[name].value:
            into[name] = q


def _aggregate(c: _Containers, limits: bool) -> dict[str, Quantity]:
    """AggregateContainerRequests / AggregateContainerLimits, with the quantities' formats."""
    regular = [lims if limits else requests for _, requests, lims in c.regular]
    init = [(lims if limits else requests, sidecar) for requests, lims, sidecar in c.init]
    return aggregate(regular, init, _add, _max)


def _default_hugepage_limits(
    requests: dict[str, Quantity], limits: dict[str, Quantity], c: _Containers
) -> None:
    """defaultHugePagePodLimits: pod hugepage limits from the containers' limits."""
    for name, q in _aggregate(c, limits=True).items():
        if name.startswith(HUGEPAGES_PREFIX) and name not in requests:
            limits.setdefault(name, q)


def _default_requests(
    requests: dict[str, Quantity], limits: dict[str, Quantity], c: _Containers
) -> None:
    """defaultPodRequests: only when pod-level limits are given."""
    if not limits:
        return
    for name, q in _aggregate(c, limits=False).items():
        # IsOvercommitAllowed: native resources other than hugepages (cpu and memory here).
        if name in ("cpu", "memory"):
            requests.setdefault(name, q)
    for name, q in limits.items():
        if is_supported(name):
            requests.setdefault(name, q)


def _at_least_containers(
    pod: dict[str, Quantity], containers: dict[str, Quantity], key: str
) -> None:
    """validatePodResourceConsistency: each pod-level amount covers the containers' total."""
    for name, total in containers.items():
        given = pod.get(name)
        if given is not None and total.value > given.value:
            raise ObjectError(
                f"spec.resources.{key}.{name}",
                f"Invalid value: {given.go_quote()}: must be greater than or equal to "
                f"aggregate container {key} of {total}",
            )


def _validate(
    requests: dict[str, Quantity], limits: dict[str, Quantity], c: _Containers
) -> None:
    supported = ", ".join(f'"{n}"' for n in SUPPORTED_NAMES)
    for key, amounts in (("limits", limits), ("requests", requests)):
        for name in amounts:
            if not is_supported(name):
                raise ObjectError(
                    f"spec.resources.{key}.{name}",
                    f'Unsupported value: "{name}": supported values: {supported}',
                )
    for name, q in requests.items():
        limit = limits.get(name)
        if limit is not None and q.value > limit.value:
            raise ObjectError(
                "spec.resources.requests",
                f"Invalid value: {q.go_quote()}: must be less than or equal to {name} limit "
                f"of {limit}",
            )
    _at_least_containers(requests, _aggregate(c, limits=False), "requests")
    hugepages = {
        k: v for k, v in _aggregate(c, limits=True).items() if k.startswith(HUGEPAGES_PREFIX)
    }
    _at_least_containers(limits, hugepages, "limits")
    for path, _, lims in c.regular:
        for name, q in lims.items():
            pod = limits.get(name)
            if pod is not None and q.value > pod.value:
                raise ObjectError(
                    f"{path}.resources.limits.{name}",
                    f"Invalid value: {q.go_quote()}: must be less than or equal to pod "
                    f"limits of {pod}",
                )
