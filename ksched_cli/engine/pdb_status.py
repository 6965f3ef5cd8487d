"""PodDisruptionBudget status where the input has none, as the disruption controller computes it.

ksched has no controllers' scale subresources, so the expected count of a PDB given
as maxUnavailable or a percentage is the number of matching pods in the input;
healthy pods are the matching pods that are running (have a node).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..api.pod import Pod
from ..api.policy import IntOrPercent, PodDisruptionBudget


def _scaled(value: IntOrPercent, total: int) -> int:
    """intstr.GetScaledValueFromIntOrPercent with roundUp=true."""
    if isinstance(value, int):
        return value
    return math.ceil(int(value[:-1]) * total / 100)


def _matching(pdb: PodDisruptionBudget, pods: Sequence[Pod]) -> list[Pod]:
    if pdb.selector is None:
        return []
    return [p for p in pods if p.namespace == pdb.meta.namespace and pdb.selector.matches(p.labels)]


def compute_status(pdb: PodDisruptionBudget, pods: Sequence[Pod]) -> str:
    """Fill ``disruptions_allowed`` and return a sentence saying how (for --explain)."""
    matching = _matching(pdb, pods)
    expected = len(matching)
    healthy = sum(1 for p in matching if p.node_name and p.meta.deletion_timestamp is None)
    if pdb.max_unavailable is not None:
        desired = max(expected - _scaled(pdb.max_unavailable, expected), 0)
    elif pdb.min_available is not None:
        desired = _scaled(pdb.min_available, expected)
    else:
        desired = expected  # the API server defaults minAvailable to 1 only for policy/v1beta1
    allowed = healthy - desired if expected > 0 else 0
    pdb.disruptions_allowed = max(allowed, 0)
    pdb.desired_healthy, pdb.current_healthy = desired, healthy
    return (
        f"PodDisruptionBudget {pdb.meta.namespace}/{pdb.meta.name} has no status: computed "
        f"disruptionsAllowed={pdb.disruptions_allowed} (healthy {healthy}, desired {desired}, "
        f"expected {expected} matching pod(s))"
    )


def fill_missing_statuses(pdbs: Sequence[PodDisruptionBudget], pods: Sequence[Pod]) -> list[str]:
    return [compute_status(pdb, pods) for pdb in pdbs if pdb.disruptions_allowed is None]
