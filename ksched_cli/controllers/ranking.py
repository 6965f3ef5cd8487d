"""Which pods a controller deletes first (controller_utils.go: ActivePods, ActivePodsWithRanks).

ksched's pods are either bound (Running and Ready, since an unknown time) or pending
(Pending, not ready), and none has restarted, so the phase, readiness, ready-time and
restart steps reduce to "unassigned first". Go sorts with an unstable sort; ksched's
sort is stable over the input order, which only matters between pods equal in every key.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import cmp_to_key
from typing import Any

from ..api.pod import Pod

ANN_DELETION_COST = "controller.kubernetes.io/pod-deletion-cost"
_NANOSECONDS = 1_000_000_000


def deletion_cost(pod: Pod) -> int:
    """GetDeletionCostFromPodAnnotations: an int32; a malformed value counts as 0."""
    text = pod.meta.annotations.get(ANN_DELETION_COST)
    if text is None:
        return 0
    try:
        value = int(text, 10)
    except ValueError:
        return 0
    return value if -(2**31) <= value < 2**31 else 0


def _log_rank(created: float, now: float) -> int:
    delta = round((now - created) * _NANOSECONDS)
    return int(math.log2(delta)) if delta > 0 else -1


def _cmp(a: Any, b: Any) -> int:
    return int(a > b) - int(a < b)


def pods_to_delete(
    pods: Sequence[Pod], related: Sequence[Pod], count: int, now: float
) -> list[Pod]:
    """getPodsToDelete: the first ``count`` pods by ActivePodsWithRanks (LogarithmicScaleDown on).

    The rank is how many ``related`` pods (all the owner's, and its siblings') share the
    pod's node: doubled-up pods go first.
    """
    if count <= 0:
        return []
    if count >= len(pods):
        return list(pods)
    on_node = Counter(p.node_name for p in related)

    def compare(a: Pod, b: Pod) -> int:
        if a.node_name != b.node_name and (not a.node_name or not b.node_name):
            return -1 if not a.node_name else 1
        if cost := _cmp(deletion_cost(a), deletion_cost(b)):
            return cost
        if rank := _cmp(on_node[b.node_name], on_node[a.node_name]):
            return rank
        return _compare_created(a, b, now)

    return sorted(pods, key=cmp_to_key(compare))[:count]


def _compare_created(a: Pod, b: Pod, now: float) -> int:
    ta, tb = a.meta.creation_timestamp, b.meta.creation_timestamp
    if ta == tb:
        return 0
    if ta is None or tb is None:  # afterOrZero: an empty time sorts first
        return -1 if ta is None else 1
    diff = _log_rank(ta, now) - _log_rank(tb, now)
    if diff == 0:
        return _cmp(a.uid, b.uid)
    return -1 if diff < 0 else 1


def active_pods_order(pods: Sequence[Pod]) -> list[Pod]:
    """controller.ActivePods (the Job controller's order): unassigned first, then newer first."""

    def compare(a: Pod, b: Pod) -> int:
        if a.node_name != b.node_name and (not a.node_name or not b.node_name):
            return -1 if not a.node_name else 1
        ta, tb = a.meta.creation_timestamp, b.meta.creation_timestamp
        if ta == tb:
            return 0
        if ta is None or tb is None:
            return -1 if ta is None else 1
        return -1 if ta > tb else 1

    return sorted(pods, key=cmp_to_key(compare))
