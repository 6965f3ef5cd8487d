"""The names ksched prints for pods and workloads, read back wherever one is asked for.

A table or story prints ``NS/NAME`` (a pod), ``pod/NAME`` (``-o name``), ``kind/name`` (a
workload in ``default``, or in ``-n NS``) and ``NS/kind/name``; each is accepted as it was
printed, and a bare ``NAME`` is a pod of the namespace, as kubectl reads it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from ..api.owners import owner_of
from ..api.pod import Pod
from ..engine.cluster import Cluster
from ..errors import KschedError

# kubectl's names and short names of the kinds a table prints, as output names them.
KINDS = {
    "pod": "pod", "pods": "pod", "po": "pod",
    "deployment": "deployment", "deployments": "deployment", "deploy": "deployment",
    "replicaset": "replicaset", "replicasets": "replicaset", "rs": "replicaset",
    "statefulset": "statefulset", "statefulsets": "statefulset", "sts": "statefulset",
    "daemonset": "daemonset", "daemonsets": "daemonset", "ds": "daemonset",
    "job": "job", "jobs": "job",
    "cronjob": "cronjob", "cronjobs": "cronjob", "cj": "cronjob",
    "replicationcontroller": "replicationcontroller",
    "replicationcontrollers": "replicationcontroller", "rc": "replicationcontroller",
}


@dataclass(frozen=True)
class Name:
    """A pod (``kind`` "pod") or a workload, in its namespace."""

    namespace: str
    kind: str
    name: str

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"

    @property
    def workload(self) -> str:
        return f"{self.kind}/{self.name}"


def parse_name(text: str, namespace: str | None, pod_keys: Collection[str] = ()) -> Name:
    """``text`` as printed; ``namespace`` (``-n``, else default) when it names none."""
    ns = namespace or "default"
    parts = text.split("/")
    if len(parts) == 1:
        return Name(ns, "pod", text)
    if len(parts) == 2:
        kind = KINDS.get(parts[0].lower())
        # NS/NAME unless the first part is a kind and no pod has that key.
        if kind is not None and text not in pod_keys:
            return Name(ns, kind, parts[1])
        return Name(parts[0], "pod", parts[1])
    if len(parts) == 3 and parts[1].lower() in KINDS:
        return Name(parts[0], KINDS[parts[1].lower()], parts[2])
    raise KschedError(
        f'malformed name "{text}": expected NAME, NS/NAME, pod/NAME, KIND/NAME or NS/KIND/NAME',
    )


def workload_pods(cluster: Cluster, wanted: Name, planned: Iterable[str] = ()) -> list[str]:
    """The keys of the pods of workload ``wanted``: those the input has or its controller
    made (``owner`` as the output prints it, or the controller reference), and ``planned``
    keys of the StatefulSet members created during the plan."""
    keys = [p.key for p in cluster.pods if p.namespace == wanted.namespace and _owned(p, wanted)]
    if wanted.kind == "statefulset":
        member = re.compile(rf"{re.escape(wanted.key)}-\d+$")
        keys += sorted(k for k in planned if member.match(k) and k not in keys)
    return keys


def _owned(pod: Pod, wanted: Name) -> bool:
    ref = pod.meta.controller_ref()
    by_ref = ref is not None and ref.kind.lower() == wanted.kind and ref.name == wanted.name
    return by_ref or owner_of(pod) == wanted.workload


def resolve_pods(
    cluster: Cluster, wanted: Sequence[str], namespace: str | None, planned: Collection[str],
    option: str,
) -> tuple[str, ...]:
    """Every pod key the names ``wanted`` stand for (a workload: its pods), in order."""
    keys = {p.key for p in cluster.pods} | set(planned)
    out: list[str] = []
    for text in wanted:
        name = parse_name(text, namespace, keys)
        found = [name.key] if name.kind == "pod" and name.key in keys else []
        if name.kind != "pod":
            found = workload_pods(cluster, name, planned)
        if not found:
            raise KschedError(_missing(cluster, name, keys, planned), field=option)
        out += [k for k in found if k not in out]
    return tuple(out)


def _missing(cluster: Cluster, name: Name, keys: Collection[str], planned: Iterable[str]) -> str:
    if name.kind != "pod":
        return f"no {name.workload} with pods in namespace {name.namespace} of the input"
    owned = _workloads_named(cluster, name, planned)
    if owned:
        label, pods = owned
        shown = ", ".join(pods[:5]) + (f" and {len(pods) - 5} more" if len(pods) > 5 else "")
        return (f"no pod {name.key} in the input; did you mean {name.namespace}/{label} "
                f"(pods {shown})?")
    return f"no pod {name.key} in the input{suggestion(name.key, keys)}"


def _workloads_named(
    cluster: Cluster, name: Name, planned: Iterable[str]
) -> tuple[str, list[str]] | None:
    """The first workload (by kind name) of that name in the namespace that has pods."""
    planned = list(planned)
    for kind in sorted(set(KINDS.values()) - {"pod"}):
        pods = workload_pods(cluster, Name(name.namespace, kind, name.name), planned)
        if pods:
            return f"{kind}/{name.name}", pods
    return None


def suggestion(wanted: str, keys: Collection[str]) -> str:
    """`` (did you mean NS/NAME?)`` for a bare NAME, a wrong namespace or a typo, else ""."""
    from difflib import SequenceMatcher  # only on this error path (start-up)

    namespace, _, name = wanted.rpartition("/")
    pods = sorted(tuple(key.split("/", 1)) for key in keys)
    same_name = [f"{ns}/{n}" for ns, n in pods if n == name]
    if same_name:
        return f" (did you mean {same_name[0]}?)"
    namespace = namespace or "default"
    prefixed = [f"{ns}/{n}" for ns, n in pods if ns == namespace and n.startswith(name)]
    if prefixed:
        return f" (did you mean {' or '.join(prefixed[:3])}?)"
    # The closest names, best first (equally close: the lowest, as pods are sorted).
    scored = sorted(
        ((SequenceMatcher(None, name, n).ratio(), n) for ns, n in pods if ns == namespace),
        key=lambda s: -s[0],
    )
    close = [f"{namespace}/{n}" for ratio, n in scored[:3] if ratio >= 0.6]
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def template_from_input(cluster: Cluster, text: str, namespace: str | None) -> Pod:
    """``capacity``'s pod given by name: a pending copy of the named pod, or of the first
    pod of the named workload, named as the workload (its copies are ``NAME-1``...)."""
    from ..whatif.pending_copy import copy_pending

    keys = {p.key for p in cluster.pods}
    name = parse_name(text, namespace, keys)
    found = [name.key] if name.kind == "pod" and name.key in keys else []
    if name.kind != "pod":
        found = workload_pods(cluster, name)
    if not found:
        raise KschedError(
            f"not a file, and {_missing(cluster, name, keys, ())}",
            field="WORKLOAD_OR_POD_FILE",
        )
    pod = next(p for p in cluster.pods if p.key == found[0])
    index = max((p.load_index for p in cluster.pods), default=-1) + 1
    return copy_pending(pod, name.name, index, f"capacity-template/{pod.key}")
