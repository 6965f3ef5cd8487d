"""Pods and workloads named as ksched prints them (api/printed_names.py), found in the
input: a workload stands for its pods, and a name that is no pod for the one workload of
that name (``capacity`` names its copies as the workload).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from ..api.owners import owner_of
from ..api.pod import Pod
from ..api.printed_names import KINDS, Name, parse_name
from ..engine.cluster import Cluster
from ..errors import KschedError


def workload_pods(
    cluster: Cluster, wanted: Name, planned: Iterable[str] = (),
    owners: Mapping[str, str] | None = None,
) -> list[str]:
    """The keys of the pods of workload ``wanted``: those the input has or its controller
    made (``owner`` as the output prints it, or the controller reference), ``planned``
    keys of the StatefulSet members created during the plan, and the pods ``owners``
    (pod key -> owner) knows besides (a scenario's, gone by its end)."""
    keys = [p.key for p in cluster.pods if p.namespace == wanted.namespace and _owned(p, wanted)]
    if owners:
        prefix = f"{wanted.namespace}/"
        keys += [k for k, owner in owners.items()
                 if owner == wanted.workload and k.startswith(prefix) and k not in keys]
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
    option: str, owners: Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """Every pod key the names ``wanted`` stand for (a workload: its pods), in order."""
    keys = frozenset({p.key for p in cluster.pods} | set(planned) | set(owners or ()))
    out: list[str] = []
    for text in wanted:
        name = parse_name(text, namespace, keys, option)
        found = _pods_named(cluster, name, keys, planned, owners, option)
        out += [k for k in found if k not in out]
    return tuple(out)


def _pods_named(
    cluster: Cluster, name: Name, keys: Collection[str], planned: Collection[str],
    owners: Mapping[str, str] | None, option: str,
) -> list[str]:
    if name.kind == "pod" and name.key in keys:
        return [name.key]
    if name.kind != "pod":
        found = workload_pods(cluster, name, planned, owners)
    else:
        named = _workloads_named(cluster, name, planned, owners) if name.bare else []
        if len(named) > 1:
            choices = " or ".join(f"{name.namespace}/{label}" for label, _ in named)
            raise KschedError(f"no pod {name.key} in the input, and several workloads have "
                              f"that name: {choices}", field=option)
        found = named[0][1] if named else []
    if not found:
        raise KschedError(_missing(cluster, name, keys), field=option)
    return found


def _missing(cluster: Cluster, name: Name, keys: Collection[str]) -> str:
    if name.kind == "pod":
        named = _workloads_named(cluster, name, (), None)  # pod/NAME of a workload's name
        if named:
            label, pods = named[0]
            shown = ", ".join(pods[:5]) + (f" and {len(pods) - 5} more" if len(pods) > 5 else "")
            return (f"no pod {name.key} in the input; did you mean {name.namespace}/{label} "
                    f"(pods {shown})?")
        return f"no pod {name.key} in the input{suggestion(name.key, keys)}"
    elsewhere = sorted({p.namespace for p in cluster.pods if p.namespace != name.namespace
                        and _owned(p, Name(p.namespace, name.kind, name.name))})
    hint = f" (did you mean {elsewhere[0]}/{name.workload}?)" if elsewhere else ""
    return f"no {name.workload} with pods in namespace {name.namespace} of the input{hint}"


def _workloads_named(
    cluster: Cluster, name: Name, planned: Collection[str], owners: Mapping[str, str] | None
) -> list[tuple[str, list[str]]]:
    """Every workload (by kind name) of that name in the namespace that has pods."""
    found = []
    for kind in sorted(set(KINDS.values()) - {"pod"}):
        pods = workload_pods(cluster, Name(name.namespace, kind, name.name), planned, owners)
        if pods:
            found.append((f"{kind}/{name.name}", pods))
    return found


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

    try:
        found = resolve_pods(cluster, [text], namespace, (), "WORKLOAD_OR_POD_FILE")
    except KschedError as exc:
        raise KschedError(f"not a file, and {exc.message}", field=exc.field) from None
    name = parse_name(text, namespace, frozenset(p.key for p in cluster.pods))
    pod = next(p for p in cluster.pods if p.key == found[0])
    index = max((p.load_index for p in cluster.pods), default=-1) + 1
    return copy_pending(pod, name.name, index, f"capacity-template/{pod.key}")
