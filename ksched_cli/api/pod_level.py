"""Pod-level resources: ``spec.resources`` of a pod (PodLevelResources, on from 1.34).

Ported from k8s.io/kubernetes v1.35.7 (component-helpers ``resource/helpers.go``,
``apis/core/v1/defaults.go`` and the pod-level checks of ``apis/core/validation``); the
same code is in component-helpers v0.36.3. A release without the gate drops the field
as the API server does (``drop_disabled``), so nothing here runs for it.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from ..errors import ObjectError, ObjectErrors
from ..record import record
from .fields import Raw, mapping, objects
from .go_quantity import Quantity, parse_list
from .resource_names import HUGEPAGES, overcommit_allowed, whole_hugepages
from .resources import ExactList, aggregate

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
    return name in ("cpu", "memory") or name.startswith(HUGEPAGES)


@record(frozen=True, slots=True)
class PodResources:
    """``spec.resources`` after the API server's defaulting: exact amounts."""

    requests: ExactList
    limits: ExactList

    def supported_requests(self) -> ExactList:
        """What PodRequests takes from the pod level (IsPodLevelRequestsSet when non-empty)."""
        return {k: v for k, v in self.requests.items() if is_supported(k)}


def pod_spec_of(kind: str, raw: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The pod spec of a Pod, or of a workload's pod template; None for other kinds."""
    path = TEMPLATE_SPEC_PATHS.get(kind)
    if path is None:
        return None
    node: Any = raw
    for key in path:
        node = node.get(key) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else None


def drop_disabled(kind: str, raw: Raw) -> Raw:
    """``raw`` without pod-level resources, as a release without the gate stores it."""
    spec = pod_spec_of(kind, raw)
    if spec is None or "resources" not in spec:
        return raw
    return _without(raw, TEMPLATE_SPEC_PATHS[kind])


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
    problems = _validate(spec, requests, limits, containers)
    if problems:
        raise ObjectErrors(problems) if len(problems) > 1 else problems[0]
    return PodResources(
        {k: q.value for k, q in requests.items()}, {k: q.value for k, q in limits.items()}
    )


@record(frozen=True, slots=True)
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
        if name.startswith(HUGEPAGES) and name not in requests:
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
) -> list[ObjectError]:
    """validatePodResourceConsistency: each pod-level amount covers the containers' total."""
    return [
        ObjectError(
            f"spec.resources.{key}.{name}",
            f"Invalid value: {pod[name].go_quote()}: must be greater than or equal to "
            f"aggregate container {key} of {total}",
        )
        for name, total in containers.items()
        if name in pod and total.value > pod[name].value
    ]


def _validate(
    spec: Raw, requests: dict[str, Quantity], limits: dict[str, Quantity], c: _Containers
) -> list[ObjectError]:
    """validatePodResources: every problem, in the API server's order of checks."""
    os_name = spec.get("os", {}).get("name") if isinstance(spec.get("os"), Mapping) else None
    if os_name == "windows":
        return [ObjectError("spec.resources", "Forbidden: may not be set for a windows pod")]
    problems: list[ObjectError] = []
    resources = spec.get("resources")
    if isinstance(resources, Mapping) and resources.get("claims") is not None:
        problems.append(ObjectError(
            "spec.resources.claims", "Forbidden: claims may not be set for Resources at pod-level"
        ))
    problems += _requirements(requests, limits)
    problems += _at_least_containers(requests, _aggregate(c, limits=False), "requests")
    hugepages = {
        k: v for k, v in _aggregate(c, limits=True).items() if k.startswith(HUGEPAGES)
    }
    problems += _at_least_containers(limits, hugepages, "limits")
    for path, _, lims in c.regular:
        for name, q in lims.items():
            pod = limits.get(name)
            if pod is not None and q.value > pod.value:
                problems.append(ObjectError(
                    f"{path}.resources.limits.{name}",
                    f"Invalid value: {q.go_quote()}: must be less than or equal to pod "
                    f"limits of {pod}",
                ))
    return problems


def _requirements(
    requests: dict[str, Quantity], limits: dict[str, Quantity]
) -> list[ObjectError]:
    """validateResourceRequirements with validatePodResourceName, for ``spec.resources``
    (negative amounts and malformed names are the schema walk's, which runs first)."""
    problems: list[ObjectError] = []
    for name, q in limits.items():
        problems += _name_and_pages("limits", name, q)
    for name, q in requests.items():
        problems += _name_and_pages("requests", name, q, checked_pages=False)
        limit = limits.get(name)
        if limit is not None and not overcommit_allowed(name) and q.value != limit.value:
            problems.append(ObjectError(
                "spec.resources.requests",
                f"Invalid value: {q.go_quote()}: must be equal to {name} limit of {limit}",
            ))
        elif limit is not None and q.value > limit.value:
            problems.append(ObjectError(
                "spec.resources.requests",
                f"Invalid value: {q.go_quote()}: must be less than or equal to {name} limit "
                f"of {limit}",
            ))
        elif limit is None and not overcommit_allowed(name):
            problems.append(ObjectError(
                "spec.resources.limits",
                "Required value: Limit must be set for non overcommitable resources",
            ))
        problems += _pages("requests", name, q)
    named = [*limits, *requests]
    if any(n.startswith(HUGEPAGES) for n in named) and not any(
        n in ("cpu", "memory") for n in named
    ):
        problems.append(ObjectError("spec.resources", "Forbidden: HugePages require cpu or memory"))
    return problems


def _name_and_pages(
    key: str, name: str, q: Quantity, checked_pages: bool = True
) -> list[ObjectError]:
    """validatePodResourceName, then (for limits) the hugepage size check."""
    problems = []
    if not is_supported(name):
        supported = ", ".join(f'"{n}"' for n in SUPPORTED_NAMES)
        problems.append(ObjectError(
            f"spec.resources.{key}.{name}",
            f'Unsupported value: "{name}": supported values: {supported}',
        ))
    return problems + (_pages(key, name, q) if checked_pages else [])


def _pages(key: str, name: str, q: Quantity) -> list[ObjectError]:
    """validateResourceQuantityHugePageValue for a new pod."""
    if not name.startswith(HUGEPAGES) or whole_hugepages(name, q.value):
        return []
    return [ObjectError(
        f"spec.resources.{key}.{name}",
        f"Invalid value: {q.go_quote()}: {q} is not positive integer multiple of {name}",
    )]
