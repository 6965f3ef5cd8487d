"""``--scale KIND/NAME=N`` for Deployments, ReplicaSets and StatefulSets.

Scaling up creates pending copies of the workload's pod template (taken from one of its
pods); scaling down deletes pods in the order the controller does: a StatefulSet its
highest ordinals, a ReplicaSet the pods ActivePodsWithRanks sorts first.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence

from ...api.pod import Pod
from ...api.printed_names import parse_name
from ...api.workloads import ReplicasSpec, StatefulSetSpec, Workload
from ...engine.cluster import Cluster
from ...errors import KschedError
from ...record import record
from ..controllers_reconciler import OBJECT_LISTS, Controllers, in_input
from ..model import CREATED, DELETED, OperationResult, PodChange
from ..pending_copy import copy_pending
from ..reconcile import replacement_name
from .base import OpContext, owner_text

OPTION = "--scale"
# The kinds --scale changes, by output kind (api/printed_names.py reads their aliases).
KINDS = {"deployment": "Deployment", "replicaset": "ReplicaSet", "statefulset": "StatefulSet"}
DELETION_COST = "controller.kubernetes.io/pod-deletion-cost"
HASH_LABEL = "pod-template-hash"
_ORDINAL = re.compile(r"-(\d+)$")


@record
class Scale:
    kind: str
    namespace: str
    name: str
    replicas: int
    text: str
    named_namespace: bool = True  # False: the value named none (-n or default applies)

    @property
    def label(self) -> str:
        return f"{self.kind.lower()}/{self.name}"

    def pods(self, cluster: Cluster) -> list[Pod]:
        return sorted((p for p in cluster.pods if self._owns(p)), key=lambda p: p.name)

    def _owns(self, pod: Pod) -> bool:
        ref = pod.meta.controller_ref()
        if ref is None or pod.namespace != self.namespace:
            return False
        if self.kind != "Deployment":
            return ref.kind == self.kind and ref.name == self.name
        pod_hash = pod.labels.get(HASH_LABEL)
        return ref.kind == "ReplicaSet" and pod_hash is not None and (
            ref.name == f"{self.name}-{pod_hash}"
        )

    def check(self, cluster: Cluster) -> None:
        if not self.kind:
            self.kind = self._named_kind(cluster)
        if self.pods(cluster) or self._declared(cluster):
            return
        raise KschedError(f"no {self.label} in namespace {self.namespace} of the input",
                          field=OPTION)

    def _named_kind(self, cluster: Cluster) -> str:
        """The kind of the one scalable workload of the name a kind-less value gives (as
        ``capacity`` prints a workload); none or several is an error naming them."""
        kinds = [kind for kind in KINDS.values()
                 if dataclasses.replace(self, kind=kind)._found(cluster)]
        if len(kinds) == 1:
            return kinds[0]
        where = f"in namespace {self.namespace} of the input"
        if not kinds:
            pod = next((p for p in cluster.pods if p.key == f"{self.namespace}/{self.name}"), None)
            owner = owner_text(pod) if pod is not None else ""
            hint = f" ({pod.key} is a pod of {owner})" if pod is not None and owner else ""
            raise KschedError(
                f"no deployment, replicaset or statefulset {self.name} {where}{hint}",
                field=OPTION)
        found = " and ".join(f"{k.lower()}/{self.name}" for k in kinds)
        raise KschedError(f"{found} {where}: name the kind (KIND/NAME=N)", field=OPTION)

    def _found(self, cluster: Cluster) -> bool:
        return bool(self.pods(cluster)) or self._declared(cluster)

    def _declared(self, cluster: Cluster) -> bool:
        return in_input(cluster, self.namespace, self.kind, self.name)

    def _object(self, cluster: Cluster) -> Workload | None:
        """The workload object in the input, when its controller can reconcile it."""
        attr = OBJECT_LISTS[self.kind]
        return next((w for w in getattr(cluster, attr)
                     if w.namespace == self.namespace and w.name == self.name
                     and isinstance(w.controller, ReplicasSpec | StatefulSetSpec)), None)

    def apply(self, ctx: OpContext) -> OperationResult:
        result = OperationResult(self.text, ctx.time)
        workload = self._object(ctx.cluster)
        if workload is not None and isinstance(ctx.reconciler, Controllers):
            # spec.replicas changes; the controller creates or deletes the difference.
            assert isinstance(workload.controller, ReplicasSpec | StatefulSetSpec)
            workload.controller = dataclasses.replace(workload.controller,
                                                      replicas=self.replicas)
            ctx.sync(result)
            for change in result.changes:
                change.reason = f"{self.label} scaled to {self.replicas}"
            return result
        pods = self.pods(ctx.cluster)
        if self.replicas > len(pods):
            self._grow(ctx, pods, result)
        elif self.replicas < len(pods):
            ranked = _ordinal_order(pods) if self.kind == "StatefulSet" else _rank(ctx, pods)
            for pod in ranked[: len(pods) - self.replicas]:
                ctx.target.delete_pod(pod)
                result.changes.append(PodChange(
                    pod.key, DELETED, pod.node_name, f"{self.label} scaled to {self.replicas}",
                    workload=owner_text(pod), operation=result.operation,
                ))
        return result

    def _grow(self, ctx: OpContext, pods: Sequence[Pod], result: OperationResult) -> None:
        if not pods:
            raise KschedError(
                f"{self.label} has no pod in the input to take its pod template from",
                field=OPTION,
            )
        template = pods[0]
        taken = {p.key for p in ctx.cluster.pods}
        index = max((p.load_index for p in ctx.cluster.pods), default=-1) + 1
        for name in self._new_names(pods, taken):
            pod = copy_pending(template, name, index, f"{template.uid}@{name}")
            index += 1
            taken.add(pod.key)
            ctx.target.create_pod(pod)
            result.changes.append(PodChange(
                pod.key, CREATED, reason=f"{self.label} scaled to {self.replicas}",
                workload=owner_text(pod), operation=result.operation,
            ))

    def _new_names(self, pods: Sequence[Pod], taken: set[str]) -> list[str]:
        missing = self.replicas - len(pods)
        if self.kind == "StatefulSet":
            used = {p.name for p in pods}
            ordinals = (f"{self.name}-{i}" for i in range(self.replicas))
            return [n for n in ordinals if n not in used][:missing]
        seed = pods[0]
        names: list[str] = []
        for _ in range(missing):
            name = replacement_name(seed, taken)
            taken.add(f"{seed.namespace}/{name}")
            names.append(name)
        return names


def _ordinal_order(pods: Sequence[Pod]) -> list[Pod]:
    """Highest ordinal first, as the StatefulSet controller scales down."""
    def ordinal(pod: Pod) -> int:
        match = _ORDINAL.search(pod.name)
        return int(match[1]) if match else -1
    return sorted(pods, key=ordinal, reverse=True)


def _cost(pod: Pod) -> int:
    text = pod.meta.annotations.get(DELETION_COST, "0")
    try:
        value = int(text)
    except ValueError:
        return 0
    return value if -(2**31) <= value < 2**31 else 0


def _rank(ctx: OpContext, pods: Sequence[Pod]) -> list[Pod]:
    """ActivePodsWithRanks: unassigned first, lower deletion cost, more pods of the
    workload on the same node, newer; ksched's bound pods are all Running and Ready."""
    per_node = Counter(p.node_name for p in pods)

    def key(pod: Pod) -> tuple[int, int, int, int, float, str]:
        created = pod.meta.creation_timestamp
        return (
            1 if pod.node_name else 0,
            _cost(pod),
            -per_node[pod.node_name],
            0 if created is None else 1,
            -(created or 0.0),
            pod.name,
        )
    return sorted(pods, key=key)


def parse_scale(value: str) -> Scale:
    """The target named as ksched prints it (api/printed_names.py: ``KIND/NAME=N``,
    ``NS/KIND/NAME=N``, ``KIND/NS/NAME=N``, ``deployment.apps/NAME=N``, or the workload's
    ``NS/NAME=N``, its kind found in the input); without a namespace the command's ``-n``
    (else default) applies (``in_namespace``)."""
    target, count = _split(value)
    try:
        name = parse_name(target, None)
    except KschedError:
        name = None
    if name is None or name.kind not in (*KINDS, "pod") or (name.kind == "pod" and not name.bare):
        raise KschedError(
            f'malformed value "{value}": expected KIND/NAME=N or NS/KIND/NAME=N with KIND one '
            "of deployment, replicaset, statefulset",
            field=OPTION,
        )
    named = target.count("/") == (1 if name.bare else 2)
    kind = "" if name.bare else KINDS[name.kind]
    return Scale(kind, name.namespace, name.name, count, f"{OPTION} {value}", named)


def in_namespace(operations: Sequence[object], namespace: str | None) -> None:
    """Scales that named no namespace act in ``namespace`` (kubectl's -n), else default."""
    for op in operations:
        if isinstance(op, Scale) and not op.named_namespace and namespace:
            op.namespace = namespace


def _split(value: str) -> tuple[str, int]:
    left, sep, count = value.rpartition("=")
    if not sep or not left or not count.isdigit():
        raise KschedError(
            f'malformed value "{value}": expected KIND/NAME=N with N a non-negative integer',
            field=OPTION,
        )
    return left, int(count)
