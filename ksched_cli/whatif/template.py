"""The pod a ``capacity`` question is about: a Pod manifest, or a workload's pod template."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..api.pod import Pod, parse_pod
from ..api.pod_level import drop_disabled
from ..api.printed_names import API_KINDS, parse_name
from ..engine.cluster import Cluster
from ..errors import KschedError, KschedErrors, Location, ObjectError, ObjectErrors
from ..manifests.admission import Admission, prepare_for_create
from ..manifests.checks import check_object
from ..manifests.files import read_documents
from ..manifests.kinds import KINDS as KIND_SPECS
from ..manifests.origin import Origin, positioned_error
from ..record import record
from ..versions.releases import features_for, minor_version

# kind -> path of its pod template inside the object
TEMPLATE_PATHS: Mapping[str, tuple[str, ...]] = {
    "Deployment": ("spec", "template"),
    "ReplicaSet": ("spec", "template"),
    "ReplicationController": ("spec", "template"),
    "StatefulSet": ("spec", "template"),
    "DaemonSet": ("spec", "template"),
    "Job": ("spec", "template"),
    "CronJob": ("spec", "jobTemplate", "spec", "template"),
}


def _template_raw(raw: Mapping[str, Any], kind: str) -> tuple[dict[str, Any], str]:
    """A Pod object from the workload's template, and the template's field path."""
    node: Any = raw
    path = TEMPLATE_PATHS[kind]
    for key in path:
        node = node.get(key) if isinstance(node, Mapping) else None
    field = ".".join(path)
    if not isinstance(node, Mapping):
        raise ObjectError(field, "Required value: the workload has no pod template")
    template_meta = node.get("metadata")
    meta = dict(template_meta) if isinstance(template_meta, Mapping) else {}
    outer = raw.get("metadata") if isinstance(raw.get("metadata"), Mapping) else {}
    meta.setdefault("name", outer.get("name"))  # type: ignore[union-attr]
    meta.setdefault("namespace", outer.get("namespace"))  # type: ignore[union-attr]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta,
            "spec": node.get("spec")}, field


def _check(raw: Mapping[str, Any], kind: str, version: str) -> None:
    """What the API server would refuse in the object, every problem (ObjectErrors)."""
    spec = KIND_SPECS[kind]
    api = raw.get("apiVersion") or spec.api_version
    problems = check_object(kind, str(api), raw, spec.namespaced, version)
    if problems:
        raise ObjectErrors(problems)


@record(frozen=True)
class Pick:
    """``--workload KIND/NAME`` (and ``-n NS``): which object of a chart to count."""

    kind: str | None  # canonical (Deployment); None: a name without its kind, any kind
    name: str
    namespace: str | None = None

    def text(self) -> str:
        return f"{self.kind.lower()}/{self.name}" if self.kind else self.name

    def matches(self, raw: Mapping[str, Any]) -> bool:
        meta = raw.get("metadata") if isinstance(raw.get("metadata"), Mapping) else {}
        assert isinstance(meta, Mapping)
        namespace = meta.get("namespace") or "default"
        kind = raw.get("kind")
        return ((kind == self.kind if self.kind else kind in KINDS)
                and meta.get("name") == self.name
                and (self.namespace is None or namespace == self.namespace))


KINDS = ("Pod", *TEMPLATE_PATHS)


def parse_pick(text: str, namespace: str | None) -> Pick:
    """The object named as ksched prints it (``deployment/web``, ``deploy/web``,
    ``NS/deployment/web``, ``deployment.apps/web``, or its bare name); a malformed one is
    an option error."""
    name = parse_name(text, namespace, option="--workload")
    named_namespace = text.count("/") == (1 if name.bare else 2)
    kind = None if name.bare else API_KINDS[name.kind]  # every kind printed has a template
    return Pick(kind, name.name, name.namespace if named_namespace else namespace)


def _files(path: Path) -> list[Path]:
    """A file, or a chart's rendered directory: its manifests in path order."""
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file()
                      and p.suffix in (".yaml", ".yml", ".json"))
    if not path.is_file():
        raise KschedError("not a file" if path.exists() else "no such file", Location(str(path)))
    return [path]


def _candidates(file: str) -> list[tuple[Path, str, list[Any], int]]:
    """(file, text, documents, index) of every Pod or workload document."""
    found = []
    for path in _files(Path(file)):
        text, documents, _ = read_documents(path)
        for i, doc in enumerate(documents):
            if isinstance(doc, Mapping) and doc.get("kind") in KINDS:
                found.append((path, text, documents, i))
    return found


def _describe(doc: Mapping[str, Any]) -> str:
    meta = doc.get("metadata") if isinstance(doc.get("metadata"), Mapping) else {}
    assert isinstance(meta, Mapping)
    ns = meta.get("namespace")
    return f"{str(doc.get('kind')).lower()}/{meta.get('name')}" + (f" -n {ns}" if ns else "")


def _choose(file: str, pick: Pick | None) -> tuple[Path, str, list[Any], int]:
    found = _candidates(file)
    if pick is not None:
        chosen = [c for c in found if pick.matches(c[2][c[3]])]
        if len(chosen) == 1:
            return chosen[0]
        where = f" in namespace {pick.namespace}" if pick.namespace else ""
        if len({c[2][c[3]].get("kind") for c in chosen}) > 1:
            have = ", ".join(_describe(c[2][c[3]]) for c in chosen)
            raise KschedError(f"{pick.text()} names {len(chosen)} objects ({have}): choose "
                              "one with --workload KIND/NAME", Location(file))
        if chosen:
            raise KschedError(f"{pick.text()} is in several namespaces: choose one with -n",
                              Location(file))
        have = ", ".join(_describe(c[2][c[3]]) for c in found) or "none"
        raise KschedError(f"no {pick.text()}{where} (found: {have})", Location(file))
    if len(found) > 1:
        have = ", ".join(_describe(c[2][c[3]]) for c in found)
        raise KschedError(f"{len(found)} workloads ({have}): choose one with --workload KIND/NAME",
                          Location(file))
    return found[0] if found else _first(file)


def _first(file: str) -> tuple[Path, str, list[Any], int]:
    """A file without a Pod or workload: its first document is reported as the wrong kind."""
    path = _files(Path(file))[0] if Path(file).exists() else Path(file)
    _files(path)  # the not-a-file errors
    text, documents, _ = read_documents(path)
    index = next((i for i, d in enumerate(documents) if d is not None), None)
    if index is None:
        raise KschedError("no Pod or workload manifest", Location(file))
    return path, text, documents, index


def read_template(file: str, cluster: Cluster, pick: Pick | None = None) -> Pod:
    """The chosen document of FILE (the only Pod or workload, or ``pick``) as a pending
    pod, admitted with the cluster's classes."""
    path, text, documents, index = _choose(file, pick)
    raw = documents[index]
    origin = Origin(path, index, None)
    kind = raw.get("kind") if isinstance(raw, Mapping) else None
    if not isinstance(kind, str) or (kind != "Pod" and kind not in TEMPLATE_PATHS):
        kinds = ", ".join(KINDS)
        what = kind if isinstance(kind, str) and kind else "object"
        raise positioned_error(origin, what, "kind",
                               f"expected one of {kinds}", text, len(documents))
    try:
        _check(raw, kind, cluster.kubernetes_version)  # as plan checks a manifest
    except ObjectError as exc:
        raise _positioned(exc, "", origin, kind, text, len(documents)) from None
    prefix = ""
    try:
        if kind != "Pod":
            raw, prefix = _template_raw(raw, str(kind))
        features = features_for(minor_version(cluster.kubernetes_version))
        if not features.pod_level_resources:
            raw = drop_disabled("Pod", raw)
        pod = parse_pod(raw)
        prepare_for_create(pod, features)
        pod.node_name = ""  # a template never names a node (cluster-capacity clears it)
        explicit = isinstance(raw.get("spec"), Mapping) and raw["spec"].get("priority") is not None
        # As the API server admits a new pod: LimitRanger defaults, then Priority.
        pod = Admission.of(cluster).admit_new(pod, explicit)
    except ObjectError as exc:
        raise _positioned(exc, prefix, origin, kind, text, len(documents)) from None
    return pod


def _positioned(
    exc: ObjectError, prefix: str, origin: Origin, kind: str, text: str, documents: int
) -> KschedError:
    """Every problem of ``exc`` at its position; fields inside the template get ``prefix``."""
    errors = []
    for found in exc.all():
        inside = prefix and not found.field.startswith(prefix)
        field = f"{prefix}.{found.field}" if inside else found.field
        errors.append(positioned_error(origin, kind, field, found.message, text, documents))
    return errors[0] if len(errors) == 1 else KschedErrors(errors)
