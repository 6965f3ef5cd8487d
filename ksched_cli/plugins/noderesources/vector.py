"""NodeResourcesFit and BalancedAllocation over many nodes at once, exact to the per-node code.

The per-node functions in fit.py, resource_allocation.py and the strategy modules
stay the reference; these array forms reproduce them with int64 and float64 NumPy
operations in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...config.args import LEAST_ALLOCATED, MOST_ALLOCATED
from ...framework.columns import BoolArray, FloatArray, IntArray, NodeColumns
from ...framework.status import Status
from ...framework.types import MAX_NODE_SCORE
from ...lazy_numpy import np
from .resource_allocation import _CPU, _EPHEMERAL, _MEMORY, _SCALAR, ResourceAllocationScorer
from .usage import FitStatuses, fit_codes, live_usage

if TYPE_CHECKING:
    from .fit import PreFilterState


def fit_mask(request: PreFilterState, columns: NodeColumns) -> BoolArray:
    """fitsRequest as a mask over all live nodes: True where no resource is short (the
    checks of ``fit_codes``, on the columns themselves: no reasons are needed here)."""
    return fit_mask_at(request, columns, columns.positions)


def fit_mask_at(request: PreFilterState, columns: NodeColumns, at: IntArray) -> BoolArray:
    """The fit mask at the live positions ``at``."""
    mask: BoolArray = columns.pod_count[at] < columns.alloc_pods[at]
    if request.empty:
        return mask
    for amount, alloc, used in (
        (request.milli_cpu, columns.alloc_cpu, columns.req_cpu),
        (request.memory, columns.alloc_mem, columns.req_mem),
        (request.ephemeral_storage, columns.alloc_eph, columns.req_eph),
    ):
        if amount > 0:
            mask &= alloc[at] - used[at] >= amount
    for name, amount, _ in request.scalars:
        mask &= columns.scalar_allocatable(name)[at] - columns.scalar_requested(name)[at] >= amount
    return mask


def fit_statuses(
    request: PreFilterState, columns: NodeColumns, positions: IntArray
) -> list[Status | None]:
    """fitsRequest's reasons for the live nodes at ``positions``, in kube-scheduler's order."""
    usage = live_usage(request, columns, positions)
    return FitStatuses(*fit_codes(request, columns, positions, usage)).all()


def _pairs(
    scorer: ResourceAllocationScorer,
    pod_requests: Sequence[int],
    columns: NodeColumns,
    index: IntArray,
) -> list[tuple[IntArray, IntArray]]:
    """calculateResourceAllocatableRequest per configured resource: (allocatable, requested).

    A resource left out (not requested extended resource, or absent on the node)
    shows as zeros, as in the per-node scorer.
    """
    real = scorer.use_requested
    out = []
    zeros = np.zeros(len(index), dtype=np.int64)
    for kind, name, pod_request in zip(scorer._kinds, scorer._names, pod_requests, strict=True):
        if kind == _CPU:
            used = columns.req_cpu if real else columns.nz_cpu
            alloc, req = columns.alloc_cpu[index], used[index] + pod_request
        elif kind == _MEMORY:
            used = columns.req_mem if real else columns.nz_mem
            alloc, req = columns.alloc_mem[index], used[index] + pod_request
        elif kind == _EPHEMERAL:
            alloc, req = columns.alloc_eph[index], columns.req_eph[index] + pod_request
        elif kind == _SCALAR and pod_request != 0:
            alloc = columns.scalar_allocatable(name)[index]
            req = np.where(alloc != 0, columns.scalar_requested(name)[index] + pod_request, 0)
        else:
            alloc, req = zeros, zeros
        out.append((alloc, np.where(alloc != 0, req, 0)))
    return out


def has_array_form(strategy: str) -> bool:
    return strategy in (LEAST_ALLOCATED, MOST_ALLOCATED)


def strategy_scores(
    strategy: str,
    weights: Sequence[int],
    scorer: ResourceAllocationScorer,
    pod_requests: Sequence[int],
    columns: NodeColumns,
    index: IntArray,
) -> IntArray | None:
    """LeastAllocated or MostAllocated; None for strategies without an array form."""
    if not has_array_form(strategy):
        return None
    node_score = np.zeros(len(index), dtype=np.int64)
    weight_sum = np.zeros(len(index), dtype=np.int64)
    for (alloc, req), weight in zip(
        _pairs(scorer, pod_requests, columns, index), weights, strict=True
    ):
        present = alloc != 0
        safe = np.where(present, alloc, 1)
        if strategy == LEAST_ALLOCATED:
            part = np.where(req > alloc, 0, (alloc - req) * MAX_NODE_SCORE // safe)
        else:
            part = np.minimum(req, alloc) * MAX_NODE_SCORE // safe
        node_score += np.where(present, part, 0) * weight
        weight_sum += np.where(present, weight, 0)
    result: IntArray = np.where(
        weight_sum == 0, 0, node_score // np.where(weight_sum == 0, 1, weight_sum)
    )
    return result


def balanced_scores(
    scorer: ResourceAllocationScorer,
    pod_requests: Sequence[int],
    columns: NodeColumns,
    index: IntArray,
    without: IntArray | None = None,
) -> IntArray | None:
    """balancedResourceScorer for up to two resources (the std-deviation shortcut); given
    each node's balance ``without`` the pod, v1.36's score of the change in balance."""
    pairs = _pairs(scorer, pod_requests, columns, index)
    if len(pairs) > 2:
        return None
    present, divisors = _present_and_divisors(pairs)
    with_pod = _balance([req for _, req in pairs], present, divisors, len(index))
    if without is None:
        return with_pod
    half = MAX_NODE_SCORE // 2
    result: IntArray = half + (half + with_pod - without) // 2
    return result


def balances_before(
    scorer: ResourceAllocationScorer,
    stand_in: Sequence[int],
    columns: NodeColumns,
    index: IntArray,
) -> IntArray | None:
    """v1.36: each node's balance before the pod (``lists``' allocated side) for up to two
    resources; ``stand_in`` is 1 for each extended resource the pod requests, 0 else."""
    pairs = _pairs(scorer, stand_in, columns, index)
    if len(pairs) > 2:
        return None
    present, divisors = _present_and_divisors(pairs)
    allocated = [
        np.where(p, req - extra, 0)
        for p, (_, req), extra in zip(present, pairs, stand_in, strict=True)
    ]
    return _balance(allocated, present, divisors, len(index))


def _present_and_divisors(
    pairs: list[tuple[IntArray, IntArray]],
) -> tuple[list[BoolArray], list[FloatArray]]:
    """Per resource: the nodes that have it, and its allocatable as float64 (1 where
    absent, a divisor that is never used)."""
    present = [alloc != 0 for alloc, _ in pairs]
    divisors = [
        np.where(p, alloc, 1).astype(np.float64)
        for p, (alloc, _) in zip(present, pairs, strict=True)
    ]
    return present, divisors


def _balance(
    requests: list[IntArray], present: list[BoolArray], divisors: list[FloatArray], count: int
) -> IntArray:
    """(1 - std) * MaxNodeScore of the capped fractions, truncated, per node."""
    if len(requests) != 2:
        return np.full(count, MAX_NODE_SCORE, dtype=np.int64)  # one resource: no deviation
    # In place, in Go's order: min(req / alloc, 1) per resource, |f0 - f1| / 2, masked.
    f0, f1 = (
        np.minimum(np.true_divide(req, divisor), 1.0)
        for req, divisor in zip(requests, divisors, strict=True)
    )
    std = np.subtract(f0, f1, out=f0)
    std /= 2
    np.abs(std, out=std)
    std[~(present[0] & present[1])] = 0.0
    np.subtract(1, std, out=std)
    std *= float(MAX_NODE_SCORE)
    result: IntArray = std.astype(np.int64)
    return result
