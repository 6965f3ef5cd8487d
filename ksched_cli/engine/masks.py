"""The filter walk on NumPy masks (see docs/ARCHITECTURE.md, "Speed").

It visits the same nodes in the same order as schedule_one's plain walk and records
the same statuses; plugin code runs only where a mask rejects a node, where a plugin
has no mask for the pod, or where a node carries nominated pods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..api.pod import Pod
from ..framework.columns import BoolArray, IntArray, LiveNodes, NodeColumns, pick
from ..framework.cycle_state import CycleState
from ..framework.interface import FilterPlugin
from ..framework.nodeinfo import NodeInfo
from ..framework.status import Code, Status
from ..lazy_numpy import np
from ..plugins.noderesources.fit import NAME as FIT
from ..plugins.resource_only import (
    fit_decides_nominated,
    fit_with_nominated_statuses,
    resource_only,
)
from .runtime import filter_failure
from .walk import Failed, check_status, visit

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from .runtime import Framework


def walk_with_masks(
    fwk: Framework,
    state: CycleState,
    pod: Pod,
    nodes: Sequence[NodeInfo],
    start: int,
    to_find: int,
    columns: NodeColumns,
    count_only: bool = False,
) -> tuple[list[NodeInfo], Failed, int]:
    """The same walk with filter masks: only nodes a mask rejects (or that need a
    per-node plugin or carry nominated pods) run plugin code, so the visited prefix,
    the feasible nodes and every recorded status equal the reference path's.

    The walk visits ``nodes`` from ``start`` round the ring. Nodes are handled by their
    index in ``nodes``; a node's place in the walk is its index less ``start``, modulo
    ``len(nodes)``, so no rotated copy of the nodes is made (but for a walk that runs a
    per-node plugin).

    ``count_only``: when some node is feasible, the mask-rejected nodes are only
    counted (the third value), not given statuses: the caller reads nothing else of
    them (no --explain record, no extender, no failure message)."""
    masks = fwk.filter_masks(state, pod, columns)
    n = len(nodes)
    whole = n == columns.size  # all live nodes, in node-tree order: index = position
    positions = (
        columns.positions if whole else np.array([ni.column_index for ni in nodes], dtype=np.int64)
    )
    vector = [m for _, m in masks if m is not None]
    passing = _all_of(vector, columns.size)
    by_name = columns.by_name
    nominated = [by_name[n].column_index for n in fwk.nominated_node_names() if n in by_name]
    if len(vector) < len(masks):
        order = np.concatenate((positions[start:], positions[:start])) if start else positions
        special = _marked(columns.size, nominated)
        return (*_walk_mixed(fwk, state, pod, columns, order, special, masks, to_find), 0)
    ok = passing if whole else passing[positions]  # per index in ``nodes``
    at = None
    if nominated:  # nodes that carry nominated pods, per index in ``nodes``
        special = _marked(columns.size, nominated)
        at = special if whole else special[positions]
    chosen = _first_in_walk((ok if at is None else ok & ~at).nonzero()[0], start, n, to_find)
    failed: Failed = []
    if at is not None:
        ring = _Ring(positions, start, n, to_find)
        chosen, failed = _check_nominated(fwk, state, pod, columns, masks, ring, chosen, at)
    # Every node a mask rejected before the last chosen one was visited and failed.
    end = (int(chosen[-1]) - start) % n if len(chosen) >= to_find else n
    chosen_positions = chosen if whole else positions[chosen]
    feasible = LiveNodes(pick(columns.infos, chosen_positions.tolist()), chosen_positions)
    if count_only and len(chosen) and at is None:  # every node visited passed or failed
        return feasible, failed, end - len(chosen) + (1 if len(chosen) >= to_find else 0)
    bad = ~ok if at is None else ~ok & ~at
    first, wrapped = bad[start : start + end], bad[: max(0, start + end - n)]
    if count_only and len(chosen):
        return feasible, failed, int(np.count_nonzero(first) + np.count_nonzero(wrapped))
    rejected = np.concatenate((np.flatnonzero(first) + start, np.flatnonzero(wrapped)))
    failed.extend(rejected_statuses(fwk, state, pod, masks, columns, positions[rejected]))
    return feasible, failed, 0


def _marked(size: int, positions: list[int]) -> BoolArray:
    marked = np.zeros(size, dtype=np.bool_)
    marked[positions] = True
    return marked


def _first_in_walk(indexes: IntArray, start: int, n: int, limit: int) -> IntArray:
    """The first ``limit`` of ``indexes`` (ascending) in walk order: those from ``start``
    on, then those before it."""
    split = int(np.searchsorted(indexes, start))
    head = indexes[split : split + limit]
    if len(head) < limit and split:
        head = np.concatenate((head, indexes[: min(split, limit - len(head))]))
    return head


def _all_of(masks: list[BoolArray], size: int) -> BoolArray:
    """The masks ANDed (copying the first: masks are shared, cached columns)."""
    if not masks:
        return np.ones(size, dtype=np.bool_)
    passing = masks[0].copy()
    for mask in masks[1:]:
        passing &= mask
    return passing


class _Ring(NamedTuple):
    """The walk's geometry: ``nodes``' live positions, where it starts, how many nodes
    it goes round and how many feasible ones it looks for."""

    positions: IntArray
    start: int
    n: int
    to_find: int


def _check_nominated(
    fwk: Framework,
    state: CycleState,
    pod: Pod,
    columns: NodeColumns,
    masks: list[tuple[FilterPlugin, BoolArray | None]],
    ring: _Ring,
    chosen: IntArray,
    at: BoolArray,
) -> tuple[IntArray, Failed]:
    """Nodes with nominated pods (``at``, per index) may still pass: check them one by
    one, in walk order, until enough nodes are found. Returns the chosen indexes with
    those that pass merged in, and the statuses of those that fail."""
    positions, start, n, to_find = ring
    walk_clear = (chosen - start) % n  # places in the walk
    walk_special = (_first_in_walk(np.flatnonzero(at), start, n, n) - start) % n
    before = np.searchsorted(walk_clear, walk_special)  # clear nodes walked before each
    reached = before < to_find  # the rest are never reached
    walk_special, before = walk_special[reached], before[reached]
    at_positions = positions[(walk_special + start) % n]
    known = None
    if walk_special.size and fwk.vectorize:
        if resource_only(fwk, state):
            known = _nominated_statuses(fwk, state, pod, columns, masks, at_positions)
        elif fit_decides_nominated(fwk, state):
            known = _nominated_statuses(fwk, state, pod, columns, masks, at_positions, True)
    extra: list[int] = []
    failed: Failed = []
    for k, (place, ahead, position) in enumerate(
        zip(walk_special.tolist(), before.tolist(), at_positions.tolist(), strict=True)
    ):
        if ahead + len(extra) >= to_find:
            break
        ni = columns.infos[position]
        if known is not None:
            status = known(k)
        else:
            status = fwk.run_filter_with_nominated_pods(state, pod, ni)
        if check_status(status):
            extra.append(place)
        else:
            assert status is not None
            failed.append((ni.name, status))
    if extra:  # places in the walk: merged with the clear nodes', back to indexes
        merged = sorted([*walk_clear.tolist(), *extra])[:to_find]
        chosen = (np.array(merged, dtype=np.int64) + start) % n
    return chosen, failed


def _walk_mixed(
    fwk: Framework,
    state: CycleState,
    pod: Pod,
    columns: NodeColumns,
    order: IntArray,
    special: BoolArray,
    masks: list[tuple[FilterPlugin, BoolArray | None]],
    to_find: int,
) -> tuple[list[NodeInfo], Failed]:
    """Some plugin has no mask for this pod: visit nodes in order, skipping known passes."""

    def check(ni: NodeInfo) -> Status | None:
        if special[ni.column_index]:
            return fwk.run_filter_with_nominated_pods(state, pod, ni)
        return fwk.run_filter_known(state, pod, ni, masks)

    infos = columns.infos
    return visit((infos[pos] for pos in order.tolist()), check, to_find)


def _nominated_statuses(
    fwk: Framework,
    state: CycleState,
    pod: Pod,
    columns: NodeColumns,
    masks: list[tuple[FilterPlugin, BoolArray | None]],
    positions: IntArray,
    fit_first_only: bool = False,
) -> Callable[[int], Status | None]:
    """RunFilterPluginsWithNominatedPods on the nodes at ``positions`` when filters are
    resource-only: the other plugins' masks hold with nominated pods too, and Fit is
    judged on the nodes' requests plus their nominated pods'.

    ``fit_first_only``: only the plugins ahead of Fit are pod-independent, so the
    arrays settle the nodes where Fit (or one of those) rejects; where Fit accepts,
    the node runs the plain per-node check."""
    fit = fit_with_nominated_statuses(fwk, state, pod, columns, positions)
    fit_ok = np.array(fit.codes, dtype=np.int64) == 0
    unknown = np.zeros(len(positions), dtype=np.bool_)  # no mask: ask the plugin below
    verdicts = np.stack(
        [fit_ok if pl.name == FIT else unknown if m is None else m[positions] for pl, m in masks]
    )
    passing: list[bool] = np.all(verdicts, axis=0).tolist()
    first: list[int] = np.argmin(verdicts, axis=0).tolist()
    fit_index = next(k for k, (pl, _) in enumerate(masks) if pl.name == FIT)
    by_fit = fit.all()

    def status(k: int) -> Status | None:
        if fit_first_only and not fit.codes[k]:
            return fwk.run_filter_with_nominated_pods(state, pod, columns.infos[int(positions[k])])
        if passing[k]:
            return None
        if first[k] == fit_index:
            return by_fit[k]
        i = int(positions[k])
        for pl, mask in masks:
            if pl.name == FIT:
                if fit.codes[k]:
                    return fit.status(k)
            elif mask is None or not mask[i]:
                found = pl.filter(state, pod, columns.infos[i])
                if found is not None and found.code != Code.SUCCESS:
                    return filter_failure(pl.name, found)
        return None

    return status


def rejected_statuses(
    fwk: Framework,
    state: CycleState,
    pod: Pod,
    masks: list[tuple[FilterPlugin, BoolArray | None]],
    columns: NodeColumns,
    positions: IntArray,
) -> list[tuple[str, Status]]:
    """Statuses of nodes some mask rejected: the first rejecting plugin says why.

    Plugins with ``filter_statuses`` give them for many nodes at once; the others
    (and any node where a plugin disagrees with its mask) go through Filter.
    """
    if positions.size == 0:
        return []
    vector = [(pl, m) for pl, m in masks if m is not None]
    first = np.argmin(np.stack([m[positions] for _, m in vector]), axis=0)
    out: list[tuple[str, Status]] = []
    infos = columns.infos
    for k in np.unique(first).tolist():
        pl = vector[k][0]
        group = positions[first == k]
        batch = getattr(pl, "filter_statuses", None)
        statuses = batch(state, pod, columns, group) if batch is not None else None
        if statuses is not None and _all_rejections(statuses):
            out.extend(_shared_failures(pl.name, statuses, columns, group))
            continue
        # Batch statuses are shared between nodes: make each one a failure only once.
        failures: dict[int, Status] = {}
        for i, pos in enumerate(group.tolist()):
            ni = infos[pos]
            status = statuses[i] if statuses is not None else pl.filter(state, pod, ni)
            if status is None or status.code == Code.SUCCESS:
                status = fwk.run_filter_known(state, pod, ni, masks)
                if status is None:
                    continue  # cannot happen for a consistent mask; the node passed
                out.append((ni.name, status))
            elif statuses is not None:
                failure = failures.get(id(status))
                if failure is None:
                    failure = failures[id(status)] = filter_failure(pl.name, status)
                out.append((ni.name, failure))
            else:
                out.append((ni.name, filter_failure(pl.name, status)))
    return out


def _all_rejections(statuses: list[Status | None]) -> bool:
    return all(status is not None and status.code != Code.SUCCESS for status in statuses)


def _shared_failures(
    plugin: str, statuses: list[Status | None], columns: NodeColumns, positions: IntArray
) -> list[tuple[str, Status]]:
    """(node name, failure) for every node; each distinct status is made a failure once."""
    distinct = {id(s): s for s in statuses if s is not None}
    failures = {key: filter_failure(plugin, s) for key, s in distinct.items()}
    names = columns.names
    return [
        (names[pos], failures[id(status)])
        for pos, status in zip(positions.tolist(), statuses, strict=True)
    ]
