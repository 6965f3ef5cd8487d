"""The names ksched prints for pods and workloads, as a grammar every option reads back.

A table prints ``NS/NAME`` (a pod), ``-o name`` ``pod/NAME``, the JSON ``owner`` and the
diff's WORKLOAD column ``kind/name``, a table's workload line ``NS/kind/name``;
``capacity`` names its copies as the workload (``NS/NAME``). kubectl's forms are read
too: short names (``deploy/web``), plurals, any case of the kind, and ``kind.group/name``
as ``kubectl get -o name`` prints it (``deployment.apps/web``).
"""

from __future__ import annotations

from ..errors import KschedError
from ..record import record

# kubectl's names and short names of the kinds output names, as output names them.
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
# The API group of each kind ("" the core group), for ``kind.group`` and ``kind.version.group``.
GROUPS = {
    "pod": "", "replicationcontroller": "", "deployment": "apps", "replicaset": "apps",
    "statefulset": "apps", "daemonset": "apps", "job": "batch", "cronjob": "batch",
}
# The kind as the API spells it, for options that match objects by ``kind``.
API_KINDS = {
    "pod": "Pod", "deployment": "Deployment", "replicaset": "ReplicaSet",
    "statefulset": "StatefulSet", "daemonset": "DaemonSet", "job": "Job",
    "cronjob": "CronJob", "replicationcontroller": "ReplicationController",
}
FORMS = "NAME, NS/NAME, KIND/NAME or NS/KIND/NAME"


def kind_of(text: str) -> str | None:
    """The output kind ``text`` names (``Deployment``, ``deploy``, ``deployment.apps``,
    ``deployments.v1.apps``), else None; a group that is not the kind's is not a kind."""
    resource, _, group = text.lower().partition(".")
    kind = KINDS.get(resource)
    if kind is None or not group:
        return kind
    # kubectl reads resource.group and resource.version.group (two dots at least).
    version, dot, named_group = group.partition(".")
    if group == GROUPS[kind] or (dot and named_group == GROUPS[kind] and version[:1] == "v"):
        return kind
    return None


@record(frozen=True)
class Name:
    """A pod (``kind`` "pod") or a workload, in its namespace; ``bare`` when the text
    named no kind (a pod, or failing one, the workload of that name)."""

    namespace: str
    kind: str
    name: str
    bare: bool = False

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"

    @property
    def workload(self) -> str:
        return f"{self.kind}/{self.name}"


def parse_name(text: str, namespace: str | None, pod_keys: frozenset[str] = frozenset(),
               option: str | None = None) -> Name:
    """``text`` as printed; ``namespace`` (``-n``, else default) when it names none;
    ``option`` is named by the error of a malformed one."""
    ns = namespace or "default"
    parts = text.split("/")
    if not all(parts) or len(parts) > 3:
        raise _malformed(text, option)
    if len(parts) == 1:
        return Name(ns, "pod", text, bare=True)
    if len(parts) == 2:
        kind = kind_of(parts[0])
        if kind is None and "." in parts[0]:  # a namespace is a DNS label: no dots
            raise KschedError(f'malformed name "{text}": "{parts[0]}" is no kind of '
                              f"{', '.join(API_KINDS.values())}", field=option)
        # KIND/NAME unless a pod has that key (a namespace named like a kind).
        if kind is not None and text not in pod_keys:
            return Name(ns, kind, parts[1])
        return Name(parts[0], "pod", parts[1], bare=True)
    middle, first = kind_of(parts[1]), kind_of(parts[0])
    if middle is not None:
        return Name(parts[0], middle, parts[2])
    if first is not None:  # KIND/NS/NAME, as --scale reads it
        return Name(parts[1], first, parts[2])
    raise _malformed(text, option)


def _malformed(text: str, option: str | None) -> KschedError:
    return KschedError(f'malformed name "{text}": expected {FORMS} '
                       "(pod/NAME, deployment.apps/NAME...)", field=option)
