"""What the API server's admission and defaulting add to objects before the scheduler sees them."""

from __future__ import annotations

from collections.abc import Mapping

from ..api.meta import DEFAULT_TIME
from ..api.pod import PREEMPT_LOWER_PRIORITY, Pod
from ..api.policy import PriorityClass
from ..api.storage import PersistentVolumeClaim, StorageClass
from ..errors import ObjectError

# Every cluster has these two (created by the API server itself), so pods such as
# kube-proxy may name them even when a snapshot does not list PriorityClasses.
SYSTEM_PRIORITY_CLASSES: Mapping[str, PriorityClass] = {
    "system-node-critical": PriorityClass(
        "system-node-critical", 2000001000, False, PREEMPT_LOWER_PRIORITY
    ),
    "system-cluster-critical": PriorityClass(
        "system-cluster-critical", 2000000000, False, PREEMPT_LOWER_PRIORITY
    ),
}


def default_priority_class(classes: Mapping[str, PriorityClass]) -> PriorityClass | None:
    """The globalDefault class; with several, the smallest value wins (as documented).

    A tie, which kube-scheduler's admission resolves by lister order, goes to the
    lowest name.
    """
    defaults = [c for c in classes.values() if c.global_default]
    return min(defaults, key=lambda c: (c.value, c.name), default=None)


def admit_pod(
    pod: Pod,
    explicit_priority: bool,
    classes: Mapping[str, PriorityClass],
    default: PriorityClass | None,
) -> None:
    """The Priority admission plugin, then pod defaulting.

    ``classes`` must include SYSTEM_PRIORITY_CLASSES. A pod that gives
    ``spec.priority`` without a class keeps it: snapshot pods carry the priority
    they were admitted with, possibly before today's globalDefault class existed.
    """
    name = pod.priority_class_name
    if not name and not explicit_priority and default is not None:
        name = default.name
    if name:
        pc = classes.get(name)
        if pc is None:
            raise ObjectError(
                "spec.priorityClassName",
                f'pods "{pod.name}" is forbidden: no PriorityClass with name {name} was found',
            )
        _check_consistent(pod, explicit_priority, pc)
        pod.priority_class_name = name
        pod.priority = pc.value
        pod.preemption_policy = pc.preemption_policy
    elif not pod.preemption_policy:
        pod.preemption_policy = PREEMPT_LOWER_PRIORITY
    if pod.node_name and pod.start_time is None:
        pod.start_time = DEFAULT_TIME


def _check_consistent(pod: Pod, explicit_priority: bool, pc: PriorityClass) -> None:
    """The API server rejects a pod whose own priority or policy contradicts its class."""
    forbidden = f'pods "{pod.name}" is forbidden'
    if explicit_priority and pod.priority != pc.value:
        raise ObjectError(
            "spec.priority",
            f"{forbidden}: the integer value of priority ({pod.priority}) must not be provided "
            f"in pod spec; priority admission controller computed {pc.value} from the given "
            "PriorityClass name",
        )
    if pod.preemption_policy and pod.preemption_policy != pc.preemption_policy:
        raise ObjectError(
            "spec.preemptionPolicy",
            f"{forbidden}: the string value of PreemptionPolicy ({pod.preemption_policy}) must "
            f"not be provided in pod spec; priority admission controller computed "
            f"{pc.preemption_policy} from the given PriorityClass name",
        )


def default_storage_class(classes: Mapping[str, StorageClass]) -> StorageClass | None:
    """volume util GetDefaultClass: of the classes marked default, the newest, then by name."""
    defaults = [c for c in classes.values() if c.is_default]
    return min(
        defaults, key=lambda c: (-(c.meta.creation_timestamp or 0.0), c.name), default=None
    )


def admit_claim(claim: PersistentVolumeClaim, default: StorageClass | None) -> None:
    """DefaultStorageClass admission (and the PV controller's retroactive assignment).

    Only a claim without ``storageClassName`` gets the default class, and only while
    unbound: an explicit "" means "no class" and a bound claim keeps what it had.
    """
    if default is not None and claim.storage_class_name is None and not claim.volume_name:
        claim.storage_class_name = default.name
