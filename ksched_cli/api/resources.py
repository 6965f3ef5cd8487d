"""Resource lists and the pod request arithmetic of v1.30 (pkg/api/v1/resource.PodRequests)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import TypeVar

from ..errors import ObjectError
from .fields import Raw, mapping
from .quantity import QuantityError, ceil_int, milli_value, parse_quantity, scheduler_amount

CPU = "cpu"
MEMORY = "memory"
EPHEMERAL_STORAGE = "ephemeral-storage"
PODS = "pods"
DEFAULT_MILLI_CPU_REQUEST = 100
DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024

ExactList = dict[str, Fraction]


def parse_resource_list(raw: Raw, key: str, path: str) -> ExactList:
    out: ExactList = {}
    for name, value in mapping(raw, key, path).items():
        try:
            out[str(name)] = parse_quantity(value)
        except (QuantityError, TypeError) as exc:
            raise ObjectError(f"{path}.{key}.{name}", str(exc)) from None
    return out


def _add(into: ExactList, other: Mapping[str, Fraction]) -> None:
    for k, v in other.items():
        into[k] = into.get(k, Fraction(0)) + v


def _max(into: ExactList, other: Mapping[str, Fraction]) -> None:
    for k, v in other.items():
        if k not in into or v > into[k]:
            into[k] = v


def _non_missing(reqs: Mapping[str, Fraction], defaults: Mapping[str, Fraction]) -> ExactList:
    out = dict(reqs)
    for k, v in defaults.items():
        if k not in reqs:
            out[k] = v
    return out


NON_ZERO_DEFAULTS: Mapping[str, Fraction] = {
    CPU: Fraction(DEFAULT_MILLI_CPU_REQUEST, 1000),
    MEMORY: Fraction(DEFAULT_MEMORY_REQUEST),
}


V = TypeVar("V")


def aggregate(
    containers: Iterable[Mapping[str, V]],
    init_containers: Iterable[tuple[Mapping[str, V], bool]],
    add: Callable[[dict[str, V], Mapping[str, V]], None],
    maximum: Callable[[dict[str, V], Mapping[str, V]], None],
) -> dict[str, V]:
    """AggregateContainerRequests' formula: containers summed, then the max with each init
    container's phase (itself plus the restartable sidecars before it, which also add up)."""
    total: dict[str, V] = {}
    for c in containers:
        add(total, c)
    sidecars: dict[str, V] = {}
    init_max: dict[str, V] = {}
    for c, restartable in init_containers:
        if restartable:
            add(total, c)
            add(sidecars, c)
            effective = dict(sidecars)
        else:
            effective = dict(c)
            add(effective, sidecars)
        maximum(init_max, effective)
    maximum(total, init_max)
    return total


def pod_requests(
    containers: Iterable[ExactList],
    init_containers: Iterable[tuple[ExactList, bool]],
    overhead: ExactList | None,
    non_missing: Mapping[str, Fraction] | None = None,
    pod_level: Mapping[str, Fraction] | None = None,
) -> ExactList:
    """Sum of containers, max with init containers (sidecars accumulate), plus overhead.

    ``init_containers`` yields (requests, is_restartable_sidecar). ``pod_level`` holds the
    supported pod-level requests, which replace the containers' amounts (1.34+).
    """
    if non_missing:
        containers = [_non_missing(c, non_missing) for c in containers]
        init_containers = [(_non_missing(c, non_missing), r) for c, r in init_containers]
    reqs = aggregate(containers, init_containers, _add, _max)
    if pod_level:
        reqs.update(pod_level)
    if overhead:
        _add(reqs, overhead)
    return reqs


def to_scheduler_units(exact: Mapping[str, Fraction]) -> dict[str, int]:
    return {k: scheduler_amount(k, v) for k, v in exact.items()}


def _nonzero_cpu_mem(reqs: Mapping[str, Fraction]) -> tuple[int, int]:
    """schedutil.GetNonzeroRequests: defaults only where cpu/memory are missing, not zero."""
    cpu = milli_value(reqs[CPU]) if CPU in reqs else DEFAULT_MILLI_CPU_REQUEST
    mem = ceil_int(reqs[MEMORY]) if MEMORY in reqs else DEFAULT_MEMORY_REQUEST
    return cpu, mem


def node_cache_non_zero(
    containers: Iterable[ExactList],
    init_containers: Iterable[tuple[ExactList, bool]],
    overhead: ExactList | None,
) -> tuple[int, int]:
    """NodeInfo's NonZeroRequested contribution (framework.calculateResource).

    Regular containers are summed; each init container's effective request (with the
    sidecars before it) only takes part in a max, so sidecars are not summed here.
    """
    cpu = mem = 0
    for c in containers:
        dc, dm = _nonzero_cpu_mem(c)
        cpu, mem = cpu + dc, mem + dm
    init_cpu = init_mem = 0
    sidecars: ExactList = {}
    for c, restartable in init_containers:
        if restartable:
            _add(sidecars, c)
            effective = dict(sidecars)
        else:
            effective = dict(c)
            _add(effective, sidecars)
        dc, dm = _nonzero_cpu_mem(effective)
        init_cpu, init_mem = max(init_cpu, dc), max(init_mem, dm)
    cpu, mem = max(cpu, init_cpu), max(mem, init_mem)
    if overhead:
        if CPU in overhead:
            cpu += milli_value(overhead[CPU])
        if MEMORY in overhead:
            mem += ceil_int(overhead[MEMORY])
    return cpu, mem


def is_scalar_resource(name: str) -> bool:
    """schedutil.IsScalarResourceName: extended, prefixed-native, hugepages, attachable volumes."""
    if name.startswith(("hugepages-", "attachable-volumes-")):
        return True
    return "/" in name and not name.startswith("requests.")


def pod_level_requests(
    containers: list[ExactList],
    inits: list[tuple[ExactList, bool]],
    overhead: ExactList | None,
    level: Mapping[str, Fraction],
) -> tuple[dict[str, int], dict[str, int], tuple[int, int], tuple[int, int]]:
    """The requests of a pod with pod-level requests (PodLevelResources, 1.34+).

    Scoring defaults every container's missing cpu and memory; a node's NonZeroRequested
    (PodInfo.CalculateResource) defaults only what neither level requests.
    """
    exact = pod_requests(containers, inits, overhead, pod_level=level)
    non_zero = to_scheduler_units(
        pod_requests(containers, inits, overhead, NON_ZERO_DEFAULTS, pod_level=level)
    )
    missing = {k: v for k, v in NON_ZERO_DEFAULTS.items() if k not in exact}
    node = pod_requests(containers, inits, overhead, missing, level) if missing else exact
    node_cpu = milli_value(node[CPU]) if CPU in node else 0
    node_mem = ceil_int(node[MEMORY]) if MEMORY in node else 0
    # v1.30's per-container NonZeroRequested never applies: the gate came in 1.34.
    return to_scheduler_units(exact), non_zero, (node_cpu, node_mem), (node_cpu, node_mem)


# Pods stamped from one template share a resource shape; exact Fraction sums are
# the slow part of loading, so each shape is computed once.
# (requests, non-zero requests, v1.30's NonZeroRequested, v1.32+'s NonZeroRequested)
_Computed = tuple[dict[str, int], dict[str, int], tuple[int, int], tuple[int, int]]
REQUESTS_BY_SHAPE: dict[object, _Computed] = {}


def compute_requests(
    containers: list[ExactList],
    inits: list[tuple[ExactList, bool]],
    overhead: ExactList,
    level: ExactList | None,
) -> _Computed:
    """(requests, non-zero requests, v1.30's and v1.32+'s NonZeroRequested) of a pod."""
    if level:
        return pod_level_requests(containers, inits, overhead, level)
    requests = to_scheduler_units(pod_requests(containers, inits, overhead))
    non_zero = to_scheduler_units(pod_requests(containers, inits, overhead, NON_ZERO_DEFAULTS))
    node_non_zero = (non_zero.get(CPU, 0), non_zero.get(MEMORY, 0))
    return requests, non_zero, node_cache_non_zero(containers, inits, overhead), node_non_zero
