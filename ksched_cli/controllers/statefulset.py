"""The StatefulSet controller (pkg/controller/statefulset: stateful_set_utils.go and the
ordinal walk of stateful_set_control.go).

Pods are ``<set>-<ordinal>`` for ordinals ``start .. start+replicas-1``; each gets the
pod-name and pod-index labels, ``hostname`` = its name, ``subdomain`` = serviceName,
and one claim ``<template>-<set>-<ordinal>`` per volumeClaimTemplate (an existing claim
of that name is used as is). OrderedReady creates the lowest missing ordinal only
once every lower one is Running and Ready: in ksched, bound (docs/semantics.md).
"""

from __future__ import annotations

import re

from ..api.fields import Raw
from ..api.pod import Pod, Volume
from ..api.storage import PersistentVolumeClaim, parse_persistent_volume_claim
from ..api.workloads import StatefulSetSpec, Workload
from ..engine.cluster import Cluster
from ..manifests.admission import admit_claim, default_storage_class
from .context import Context
from .defaults import normalized_template
from .hashing import revision_hash
from .interface import Outcome

KIND = "StatefulSet"
POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name"
POD_INDEX_LABEL = "apps.kubernetes.io/pod-index"
REVISION_LABEL = "controller-revision-hash"
_MEMBER = re.compile(r"^(.*)-([0-9]+)$")


def ordinal_of(pod: Pod, set_name: str) -> int:
    """getParentNameAndOrdinal: -1 for a pod that is not ``<set>-<n>``."""
    match = _MEMBER.match(pod.name)
    if match is None or match.group(1) != set_name:
        return -1
    return int(match.group(2))


def claim_name(template: str, set_name: str, ordinal: int) -> str:
    return f"{template}-{set_name}-{ordinal}"


def member_keys(cluster: Cluster) -> set[str]:
    """``ns/<set>-<ordinal>`` of every pod the StatefulSets want, including those an
    OrderedReady set creates only during the plan."""
    out = set()
    for workload in cluster.stateful_sets:
        spec = workload.controller
        if isinstance(spec, StatefulSetSpec):
            for ordinal in range(spec.start_ordinal, spec.start_ordinal + spec.replicas):
                out.add(f"{workload.namespace}/{workload.name}-{ordinal}")
    return out


class StatefulSetController:
    kind = KIND
    cluster_list = "stateful_sets"

    def managed_elsewhere(self, workload: Workload, ctx: Context) -> bool:
        return False

    def sync(self, workload: Workload, ctx: Context) -> Outcome:
        spec = workload.controller
        assert isinstance(spec, StatefulSetSpec)
        outcome = Outcome()
        by_ordinal: dict[int, Pod] = {}
        # getPodsForStatefulSet adopts only pods named as members (isMemberOf).
        def is_member(pod: Pod) -> bool:
            return ordinal_of(pod, workload.name) >= 0

        for member in ctx.claim_pods(workload.namespace, KIND, workload.name,
                                     workload.selector, is_member):
            ordinal = ordinal_of(member, workload.name)
            if ordinal >= 0:  # owned by reference but misnamed: left alone
                member.workload = workload.ref
                by_ordinal[ordinal] = member
        first, end = spec.start_ordinal, spec.start_ordinal + spec.replicas
        # Condemned pods go highest ordinal first.
        outcome.deleted = [by_ordinal[o] for o in sorted(by_ordinal, reverse=True)
                           if not first <= o < end]
        missing = spec.replicas - sum(first <= o < end for o in by_ordinal)
        # Before any is made (replicas may be 2147483647), OrderedReady's later ones included.
        ctx.check_new_pods(missing, workload)
        revision = f"{workload.name}-" + revision_hash(
            normalized_template(spec.template.raw), spec.collision_count
        )
        for ordinal in range(first, end):
            pod = by_ordinal.get(ordinal)
            if pod is None:
                outcome.claims += self._claims(workload, spec, ordinal, ctx)
                outcome.created.append(self._new_pod(workload, spec, ordinal, revision, ctx))
                if spec.ordered_ready:
                    outcome.waiting = True
                    break
            elif spec.ordered_ready and not pod.node_name:
                outcome.waiting = True
                break
            else:
                outcome.claims += self._claims(workload, spec, ordinal, ctx)
        return outcome

    def _new_pod(
        self, owner: Workload, spec: StatefulSetSpec, ordinal: int, revision: str, ctx: Context
    ) -> Pod:
        name = f"{owner.name}-{ordinal}"
        labels = {
            **spec.template.labels,
            REVISION_LABEL: revision,
            POD_NAME_LABEL: name,
            POD_INDEX_LABEL: str(ordinal),
        }
        prototype = ctx.prototype(spec.template)
        claimed = {t.name: claim_name(t.name, owner.name, ordinal) for t in spec.claim_templates}
        volumes = [_claim_volume(t, c) for t, c in claimed.items()]
        volumes += [v for v in prototype.volumes if v.name not in claimed]
        return ctx.stamp(
            prototype, owner, owner.ref, name, labels,
            volumes=tuple(volumes), hostname=name, subdomain=spec.service_name,
        )

    def _claims(
        self, owner: Workload, spec: StatefulSetSpec, ordinal: int, ctx: Context
    ) -> list[PersistentVolumeClaim]:
        """createPersistentVolumeClaims: the claims of this ordinal not in the cluster yet."""
        out = []
        existing = ctx.cluster.persistent_volume_claims
        default_class = default_storage_class(ctx.cluster.storage_classes)
        for template in spec.claim_templates:
            name = claim_name(template.name, owner.name, ordinal)
            if f"{owner.namespace}/{name}" in existing:
                continue
            claim = new_claim(owner, template.raw, name)
            if not ctx.features.volume_attributes_class:
                claim.attributes_class = None  # dropped on create, as the loader's claims
            admit_claim(claim, default_class)
            out.append(claim)
        return out


def new_claim(owner: Workload, template: Raw, name: str) -> PersistentVolumeClaim:
    """getPersistentVolumeClaims: the template named for the ordinal, in the set's namespace."""
    meta = dict(template.get("metadata") or {})
    labels = {**(meta.get("labels") or {}), **_match_labels(owner)}
    raw = {
        "metadata": {**meta, "name": name, "namespace": owner.namespace, "labels": labels},
        "spec": template.get("spec") or {},
    }
    return parse_persistent_volume_claim(raw)


def _match_labels(owner: Workload) -> dict[str, str]:
    selector = owner.selector
    if selector is None:
        return {}
    return {r.key: r.values[0] for r in selector.requirements
            if r.operator == "In" and len(r.values) == 1}


def _claim_volume(volume_name: str, claim: str) -> Volume:
    source = {"name": volume_name, "persistentVolumeClaim": {"claimName": claim}}
    return Volume(volume_name, claim, source)
