"""What the API server's admission and defaulting add to objects before the scheduler sees them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ..api.affinity_keys import merge_affinity_label_keys
from ..api.meta import DEFAULT_TIME
from ..api.pod import PREEMPT_LOWER_PRIORITY, Container, Pod
from ..api.policy import PriorityClass
from ..errors import ObjectError
from ..record import record
from ..versions.features import Features

if TYPE_CHECKING:
    from ..api.namespaces import LimitRange
    from ..api.storage import PersistentVolumeClaim, StorageClass
    from ..engine.cluster import Cluster

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


def prepare_for_create(pod: Pod, features: Features) -> None:
    """The pod registry's create-time steps that depend on the release (its
    PrepareForCreate; admission plugins come after): v1.31+ folds the pod (anti-)affinity
    label keys into the selectors (``mutatePodAffinity``)."""
    if features.match_label_keys_in_pod_affinity:
        merge_affinity_label_keys(pod)


def admit_pod(
    pod: Pod,
    explicit_priority: bool,
    classes: Mapping[str, PriorityClass],
    default: PriorityClass | None,
) -> None:
    """The Priority admission plugin, then pod defaulting.

    ``classes`` must include SYSTEM_PRIORITY_CLASSES. A pod that gives ``spec.priority``
    keeps it, with or without a class: that is the field kube-scheduler reads, and
    snapshot pods carry the priority they were admitted with (their class may be
    missing from the dump, or changed since). The class is looked up only when the
    priority is absent.
    """
    if explicit_priority:
        if not pod.preemption_policy:
            pc = classes.get(pod.priority_class_name) if pod.priority_class_name else None
            pod.preemption_policy = pc.preemption_policy if pc else PREEMPT_LOWER_PRIORITY
    else:
        _admit_priority(pod, classes, default)
    if pod.node_name and pod.start_time is None:
        pod.start_time = DEFAULT_TIME


def _admit_priority(
    pod: Pod, classes: Mapping[str, PriorityClass], default: PriorityClass | None
) -> None:
    name = pod.priority_class_name or (default.name if default is not None else "")
    if not name:
        if not pod.preemption_policy:
            pod.preemption_policy = PREEMPT_LOWER_PRIORITY
        return
    pc = classes.get(name)
    if pc is None:
        raise ObjectError(
            "spec.priorityClassName",
            f'pods "{pod.name}" is forbidden: no PriorityClass with name {name} was found',
        )
    if pod.preemption_policy and pod.preemption_policy != pc.preemption_policy:
        raise ObjectError(
            "spec.preemptionPolicy",
            f'pods "{pod.name}" is forbidden: the string value of PreemptionPolicy '
            f"({pod.preemption_policy}) must not be provided in pod spec; priority admission "
            f"controller computed {pc.preemption_policy} from the given PriorityClass name",
        )
    pod.priority_class_name = name
    pod.priority = pc.value
    pod.preemption_policy = pc.preemption_policy


def limit_range_defaults(pod: Pod, ranges: Sequence[LimitRange]) -> Pod:
    """LimitRanger: each container (and init container) without a request for a resource
    gets the namespace's default request (LimitRanges in name order; the first wins).

    Returns ``pod`` itself when nothing changes, else a copy with new request shapes.
    """
    defaults: dict[str, object] = {}
    for limit_range in sorted(ranges, key=lambda r: r.name):
        for item in limit_range.default_requests:
            for key, value in item.items():
                defaults.setdefault(key, value)
    if not defaults:
        return pod
    containers = tuple(_default_container(c, defaults) for c in pod.containers)
    inits = tuple(_default_container(c, defaults) for c in pod.init_containers)
    if containers == pod.containers and inits == pod.init_containers:
        return pod
    admitted = replace(pod, containers=containers, init_containers=inits, info_cache=None)
    admitted.finalize()
    return admitted


def _default_container(container: Container, defaults: Mapping[str, object]) -> Container:
    missing = {k: v for k, v in defaults.items() if k not in container.requests}
    if not missing:
        return container
    return replace(container, requests={**container.requests, **missing})  # type: ignore[dict-item]


@record
class Admission:
    """Priority and LimitRanger for pods created or still pending in the input."""

    classes: Mapping[str, PriorityClass]
    default: PriorityClass | None
    limit_ranges: Mapping[str, list[LimitRange]]

    @classmethod
    def of(cls, cluster: Cluster) -> Admission:
        ranges: dict[str, list[LimitRange]] = defaultdict(list)
        for limit_range in cluster.limit_ranges:
            ranges[limit_range.meta.namespace].append(limit_range)
        classes = {**SYSTEM_PRIORITY_CLASSES, **cluster.priority_classes}
        return cls(classes, default_priority_class(cluster.priority_classes), dict(ranges))

    def admit_new(self, pod: Pod, explicit_priority: bool) -> Pod:
        """A pod the API server admits now: LimitRanger, then Priority."""
        admitted = self.limit_ranger(pod)
        if admitted is pod:
            admitted = replace(pod, info_cache=None)
            admitted.finalize()
        admit_pod(admitted, explicit_priority, self.classes, self.default)
        return admitted

    def limit_ranger(self, pod: Pod) -> Pod:
        ranges = self.limit_ranges.get(pod.namespace)
        return limit_range_defaults(pod, ranges) if ranges else pod


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
