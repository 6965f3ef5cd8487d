"""The eviction subresource's rules (pkg/registry/core/pod/storage/eviction.go).

A pod is evicted, or refused with the API server's message. ksched takes every bound
pod as Running and Ready (it has no kubelet), so the not-ready branch never applies;
a pod without a node is Pending and one being deleted is terminating: both skip PDBs.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..api.pod import Pod
from ..api.policy import PodDisruptionBudget
from ..record import record

MAX_DISRUPTED_POD_SIZE = 2000
TOO_MANY_REQUESTS = "Cannot evict pod as it would violate the pod's disruption budget."
MORE_THAN_ONE = (
    "This pod has more than one PodDisruptionBudget, which the eviction subresource "
    "does not support."
)


@record(frozen=True)
class Eviction:
    allowed: bool
    message: str = ""
    pdb: str = ""  # namespace/name of the budget that decided, "" when none did


def can_ignore_pdb(pod: Pod) -> bool:
    """canIgnorePDB: pending and terminating pods are deleted without a budget check."""
    return not pod.node_name or pod.meta.deletion_timestamp is not None


def matching_pdbs(pod: Pod, pdbs: Sequence[PodDisruptionBudget]) -> list[PodDisruptionBudget]:
    """getPodDisruptionBudgets: same namespace; an absent or empty selector matches nothing."""
    return [
        pdb
        for pdb in pdbs
        if pdb.meta.namespace == pod.namespace
        and pdb.selector is not None
        and not pdb.selector.is_empty
        and pdb.selector.matches(pod.labels)
    ]


def evict(pod: Pod, pdbs: Sequence[PodDisruptionBudget]) -> Eviction:
    """One eviction request; an accepted one decrements the budget as the API server does."""
    if can_ignore_pdb(pod):
        return Eviction(True)
    found = matching_pdbs(pod, pdbs)
    if len(found) > 1:
        names = ", ".join(sorted(f"{p.meta.namespace}/{p.meta.name}" for p in found))
        return Eviction(False, f"{MORE_THAN_ONE} ({names})")
    if not found:
        return Eviction(True)
    return _check_and_decrement(pod, found[0])


def _forbidden(pdb: PodDisruptionBudget, why: str) -> str:
    return f'poddisruptionbudget.policy "{pdb.meta.name}" is forbidden: {why}'


def _check_and_decrement(pod: Pod, pdb: PodDisruptionBudget) -> Eviction:
    key = f"{pdb.meta.namespace}/{pdb.meta.name}"
    allowed = pdb.disruptions_allowed or 0
    if allowed < 0:
        return Eviction(False, _forbidden(pdb, "pdb disruptions allowed is negative"), key)
    if len(pdb.disrupted_pods) > MAX_DISRUPTED_POD_SIZE:
        why = "DisruptedPods map too big - too many evictions not confirmed by PDB controller"
        return Eviction(False, _forbidden(pdb, why), key)
    if allowed == 0:
        cause = (
            f"The disruption budget {pdb.meta.name} needs {pdb.desired_healthy} healthy pods "
            f"and has {pdb.current_healthy} currently"
        )
        return Eviction(False, f"{TOO_MANY_REQUESTS} {cause}", key)
    pdb.disruptions_allowed = allowed - 1
    pdb.disrupted_pods = pdb.disrupted_pods | {pod.name}
    return Eviction(True, pdb=key)
