"""What controllers see of the cluster during one reconcile: pods by owner, names in use,
admission, the clock; and how they stamp pods from a template."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .. import limits
from ..api.meta import DEFAULT_TIME, ObjectMeta, OwnerReference
from ..api.pod import Pod
from ..api.selectors import LabelSelector
from ..api.templates import PodTemplate
from ..api.workloads import Workload
from ..engine.cluster import Cluster
from ..errors import KschedError
from ..manifests.admission import Admission, prepare_for_create
from ..versions.features import Features
from ..versions.releases import features_for, minor_version
from .hashing import generate_name_prefix, name_suffix

OwnerKey = tuple[str, str, str]  # namespace, kind, name
# The field of each workload kind that sets how many pods it asks for.
COUNTING_FIELDS = {
    "Deployment": "spec.replicas", "ReplicaSet": "spec.replicas",
    "ReplicationController": "spec.replicas", "StatefulSet": "spec.replicas",
    "Job": "spec.parallelism", "CronJob": "spec.jobTemplate.spec.parallelism",
    "DaemonSet": "spec.template",  # a pod per node
}
_LISTS = {"Deployment": "deployments", "CronJob": "cron_jobs"}


class PodLimitReached(KschedError):
    """``--max-pods`` reached while a controller makes a workload's pods. ``workload`` is
    the object that makes them, ``root`` the input object it comes from and ``field``
    the root's field that counts them (``spec.replicas``), for the error's position."""

    def __init__(self, reason: str, workload: Workload, root: Workload, field: str) -> None:
        super().__init__(f"{_describe(workload)}: {reason}")
        self.reason = reason
        self.workload = workload
        self.root = root
        self.counting_field = field


def _describe(workload: Workload) -> str:
    key = f"{workload.namespace}/{workload.name}" if workload.namespace else workload.name
    return f"{workload.kind} {key}"


class Context:
    def __init__(self, cluster: Cluster, now: float) -> None:
        self.cluster = cluster
        # The plan's start instant (a CronJob's run) and the instant of this reconcile.
        self.start = DEFAULT_TIME
        self.now = now
        self.admission = Admission.of(cluster)
        self._features = features_for(minor_version(cluster.kubernetes_version))
        self._owned: dict[OwnerKey, list[Pod]] = defaultdict(list)
        self._orphans: dict[str, list[Pod]] = defaultdict(list)
        self.names = cluster.used_names  # shared: names stay taken across reconciles
        for pod in cluster.pods:
            self.names.add(pod.key)
            ref = pod.meta.controller_ref()
            if ref is None:
                self._orphans[pod.namespace].append(pod)
            else:
                self._owned[(pod.namespace, ref.kind, ref.name)].append(pod)
        self._present = {
            kind: {(w.namespace, w.name) for w in getattr(cluster, attr)}
            for kind, attr in (("Deployment", "deployments"), ("CronJob", "cron_jobs"))
        }
        self._prototypes: dict[int, Pod] = {}
        self._counters: dict[str, int] = defaultdict(int)

    @property
    def features(self) -> Features:
        """The release's switches (what its API server stores of a created object)."""
        return self._features

    def kinds_present(self, kind: str) -> set[tuple[str, str]]:
        """(namespace, name) of every object of ``kind`` in the input."""
        return self._present[kind]

    def claim_pods(
        self,
        namespace: str,
        kind: str,
        name: str,
        selector: LabelSelector | None,
        member: Callable[[Pod], bool] | None = None,
    ) -> list[Pod]:
        """The pods a controller owns: its controller ownerReferences, then orphans its
        selector matches and ``member`` accepts (adopted, as ClaimPods does).
        Terminating pods are left out."""
        pods = self._owned.get((namespace, kind, name), [])
        if selector is not None and not selector.is_empty:
            orphans = self._orphans.get(namespace, [])
            adopted = [p for p in orphans if selector.matches(p.labels)
                       and (member is None or member(p))]
            if adopted:
                taken = {id(p) for p in adopted}
                self._orphans[namespace] = [p for p in orphans if id(p) not in taken]
                self._owned[(namespace, kind, name)] = pods = pods + adopted
        return [p for p in pods if p.meta.deletion_timestamp is None]

    def prototype(self, template: PodTemplate) -> Pod:
        """The template's pod after admission (LimitRanger, Priority), computed once."""
        pod = self._prototypes.get(id(template.pod))
        if pod is None:
            explicit = template.raw.get("spec", {}).get("priority") is not None
            pod = self.admission.admit_new(template.pod, explicit)
            self._prototypes[id(template.pod)] = pod
        return pod

    def generated_name(self, namespace: str, base: str) -> str:
        """generateName ``base``: a deterministic suffix, the first one not in use."""
        prefix = generate_name_prefix(base)
        while True:
            count = self._counters[f"{namespace}/{prefix}"]
            self._counters[f"{namespace}/{prefix}"] = count + 1
            name = prefix + name_suffix(f"{namespace}/{prefix}{count}")
            if f"{namespace}/{name}" not in self.names:
                return name

    def check_new_pods(self, count: int, owner: Workload) -> None:
        """PodLimitReached if ``count`` more pods would pass ``--max-pods`` (nothing counted)."""
        reason = limits.pods_over(self.cluster.created_pods + count)
        if reason:
            root = self._input_object(owner)
            raise PodLimitReached(reason, owner, root, COUNTING_FIELDS.get(root.kind, "spec"))

    def _input_object(self, owner: Workload) -> Workload:
        """The object a user wrote that ``owner``'s pods come from: a Deployment for its
        ReplicaSet, a CronJob for its Job (one controller reference at a time)."""
        for _ in range(len(_LISTS) + 1):  # owners form no cycle; bounded all the same
            ref = owner.meta.controller_ref()
            if ref is None or ref.kind not in _LISTS:
                return owner
            listed: list[Workload] = getattr(self.cluster, _LISTS[ref.kind])
            parent = next((w for w in listed
                           if w.name == ref.name and w.namespace == owner.namespace), None)
            if parent is None:
                return owner
            owner = parent
        return owner

    def stamp(
        self,
        prototype: Pod,
        owner: Workload,
        workload: str,
        name: str,
        labels: dict[str, str],
        annotations: dict[str, str] | None = None,
        **spec: Any,
    ) -> Pod:
        """A new pending pod: the prototype's spec with its own identity (GetPodFromTemplate)."""
        self.check_new_pods(1, owner)
        self.cluster.created_pods += 1
        meta = ObjectMeta(
            name=name,
            namespace=owner.namespace,
            labels=labels,
            annotations=dict(prototype.meta.annotations) if annotations is None else annotations,
            creation_timestamp=self.now,
            owner_references=(OwnerReference(owner.kind, owner.name, True),),
        )
        pod = replace(prototype, meta=meta, workload=workload, info_cache=None, **spec)
        pod.finalize()
        prepare_for_create(pod, self._features)  # with the stamped pod's own labels
        self.names.add(pod.key)
        self._owned[(owner.namespace, owner.kind, owner.name)].append(pod)
        return pod
