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
from ..manifests.admission import Admission, prepare_for_create
from ..versions.releases import features_for, minor_version
from .hashing import generate_name_prefix, name_suffix

OwnerKey = tuple[str, str, str]  # namespace, kind, name


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
        """An error if ``count`` more pods would pass ``--max-pods`` (nothing counted)."""
        what = f"{owner.kind} {owner.namespace}/{owner.name}" if owner.namespace \
            else f"{owner.kind} {owner.name}"
        limits.check_pods(self.cluster.created_pods + count, what)

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
