"""Reading manifest files and directories into a Cluster, admitted as the API server would.

Documents are decoded on the fast path (json module, ``fastyaml`` over PyYAML's C
parser, ``yamlio.load_documents`` as the fallback), checked as the API server would
(repeated keys, unknown fields, values: ``checks``) and parsed object by object;
positions are looked up only when something is wrong. Every problem of every file is
reported, one positioned line each (``problems``), and nothing is planned.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import field
from pathlib import Path
from typing import Any

from .. import KUBE_SCHEDULER_VERSION
from ..api.fields import Raw, type_name
from ..api.pod import Pod
from ..api.pod_level import TEMPLATE_SPEC_PATHS, drop_disabled
from ..api.resize import drop_disabled as drop_resize
from ..engine.cluster import Cluster
from ..errors import KschedError, ObjectError
from ..record import record
from ..versions.releases import features_for, minor_version
from ..yamlcore import Duplicate
from .admission import (
    SYSTEM_PRIORITY_CLASSES,
    Admission,
    admit_claim,
    admit_pod,
    default_priority_class,
    default_storage_class,
    prepare_for_create,
)
from .apply_namespace import ApplyNamespace
from .checks import check_object, duplicate_problem
from .files import manifest_files, read_documents
from .kinds import KINDS, KindSpec, admit_attributes_class, unserved_version
from .naming import describe, describe_any, object_key
from .origin import Origin, positioned_error
from .problems import ProblemList, duplicate_error, is_list
from .read_past import ReadPast
from .sources import STDIN_PATH, manifest_sources, stdin_text


@record
class LoadResult:
    """The cluster read from the inputs, and the warnings the reading gave."""

    cluster: Cluster
    warnings: list[str] = field(default_factory=list)
    # A workload's pod template refused at admission -> the error at the workload's
    # template field (kind, namespace, name, error); set by read_cluster.
    template_error: Callable[[str, str, str, ObjectError], KschedError] | None = None
    # A problem of a workload object at one of its fields (kind, namespace, name, field,
    # message), positioned in its file; set by read_cluster.
    workload_error: Callable[[str, str, str, str, str], KschedError] | None = None


FINISHED_PHASES = ("Succeeded", "Failed")


def read_cluster(
    paths: Sequence[str],
    *,
    checks: bool = True,
    kubernetes_version: str = KUBE_SCHEDULER_VERSION,
    namespace: str | None = None,
) -> LoadResult:
    """Every object of ``paths`` (files, directories, ``-``), in load order; see
    semantics.md §1. Workload objects are left as read: ``whatif.inputs.load_cluster``
    then has their controllers make their pods.

    ``checks=False`` skips the API server's checks (repeated keys, unknown fields, value
    rules); only the benchmark of their cost uses it. ``kubernetes_version`` picks the
    release whose published schemas the unknown-field check reads. ``namespace`` is
    ``-n``: objects without one are placed in it, as ``kubectl apply -n`` does
    (semantics.md §1).
    """
    files, warnings = manifest_sources(paths)
    builder = _Builder(checks, kubernetes_version)
    builder.apply_namespace = ApplyNamespace(namespace)
    with gc_paused():
        builder.add_files(files)
        builder.finish()
    return LoadResult(builder.cluster, warnings + builder.warnings, builder.template_error,
                      builder.workload_error)


def load_into(paths: Sequence[str], base: Cluster) -> LoadResult:
    """Objects to create in ``base`` (what-if scenarios): pods are admitted with its
    PriorityClasses too, and bound pods may name its nodes."""
    files, warnings = manifest_files(paths)
    builder = _Builder(kubernetes_version=base.kubernetes_version)
    builder.cluster.priority_classes.update(base.priority_classes)
    builder.known_nodes = {n.name for n in base.nodes}
    with gc_paused():
        builder.add_files(files)
        builder.finish()
    return LoadResult(builder.cluster, warnings + builder.warnings)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Loading allocates millions of objects that all stay alive and form no cycles, so
    the cyclic collector's repeated passes over them are pure cost (40% of a load)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Builder:
    def __init__(
        self, checks: bool = True, kubernetes_version: str = KUBE_SCHEDULER_VERSION
    ) -> None:
        self.checks = checks
        self.kubernetes_version = kubernetes_version
        self.cluster = Cluster(kubernetes_version=kubernetes_version)
        # The release's API server: what it stores of a pod (PodLevelResources), and how.
        self._features = features_for(minor_version(kubernetes_version))
        self.warnings: list[str] = []
        # kind -> key -> where the object with that key was defined (duplicate detection).
        self._seen: dict[str, dict[str, Origin]] = {kind: {} for kind in KINDS}
        # Parallel to cluster.pods: origin and whether spec.priority was written.
        self._pod_origins: list[Origin] = []
        self._explicit_priority: list[bool] = []
        self.problems = ProblemList()
        self._read_past = ReadPast(self._features)
        self._path: Path | None = None  # the file being read, whose text is self._text
        self._text = ""
        # Documents per file, to find an erroneous document without parsing those before it.
        self._documents: dict[Path, int] = {}
        # Nodes that exist outside these files (load_into), which bound pods may name.
        self.known_nodes: set[str] = set()
        # -n: the namespace of objects without one (kubectl apply -n).
        self.apply_namespace: ApplyNamespace[tuple[Origin, str]] = ApplyNamespace(None)

    def add_files(self, files: Sequence[Path]) -> None:
        """Read every file; then, if any had a problem, raise them all (nothing is built)."""
        for path in files:
            self.add_file(path)
        self.problems.raise_any()

    def add_file(self, path: Path) -> None:
        self._path = path
        text = stdin_text() if path == STDIN_PATH else None
        try:
            self._text, documents, duplicates = read_documents(path, text)
        except KschedError as exc:
            self.problems.record(exc)
            return
        self._documents[path] = len(documents)
        for duplicate in duplicates if self.checks else ():
            self._add_duplicate(duplicate, documents[duplicate.document], path)
        for index, document in enumerate(documents):
            documents[index] = None  # the decoded form is garbage once parsed: free it early
            if document is not None:
                self._add_document(document, path, index)
        for (origin, what), problem in self.apply_namespace.file_done():
            self._report(origin, what, "metadata.namespace", problem)
        self._path, self._text = None, ""

    def _add_document(self, document: Any, path: Path, index: int) -> None:
        if isinstance(document, Mapping) and is_list(document):
            items = document.get("items")
            if items is not None and not isinstance(items, list):
                origin = Origin(path, index, None)
                self._report(origin, str(document["kind"]), "items",
                             f"expected a list, got {type_name(items)}")
                return
            # A typed list (PodList, from the API itself) leaves kind out of its items.
            item_kind = document["kind"][:-4] or None
            item_api = document.get("apiVersion") if item_kind else None
            for i, item in enumerate(items or ()):
                self._add_object(item, Origin(path, index, i), item_kind, item_api)
        else:
            self._add_object(document, Origin(path, index, None), None, None)

    def _add_object(
        self, raw: Any, origin: Origin, default_kind: str | None, default_api: str | None
    ) -> None:
        if not isinstance(raw, Mapping):
            self._report(origin, "object", "", f"expected an object, got {type_name(raw)}")
            return
        kind = raw.get("kind") or default_kind
        if not isinstance(kind, str):
            what = describe("object", raw, False)
            problem = f"expected a string, got {type_name(kind)}" if kind else "Required value"
            self._report(origin, what, "kind", problem)
            return
        spec = KINDS.get(kind)
        api = raw.get("apiVersion") or default_api
        # No apiVersion is taken as the expected one; another API group's kind of the same
        # name (Volcano's PodGroup) is not the object ksched reads.
        if spec is not None and api is not None and api != spec.api_version:
            if unserved_version(kind, str(api), spec.api_version):
                what = describe(kind, raw, spec.namespaced)
                self._report(origin, what, "apiVersion",
                             f'no matches for kind "{kind}" in version "{api}"')
                return
            spec = None
        if spec is None:
            self._read_past.ignored[(kind, None if kind not in KINDS else str(api))] += 1
            return
        if kind == "Pod" and _finished(raw):
            # kube-scheduler's pod informer filters out Succeeded and Failed pods.
            self._read_past.finished_pods += 1
            return
        if spec.namespaced:
            raw = self.apply_namespace.place(raw, (origin, describe(kind, raw, True)))
        problems = (
            check_object(
                kind, str(api or spec.api_version), raw, spec.namespaced, self.kubernetes_version
            )
            if self.checks
            else []
        )
        try:
            if not problems:
                self._store(kind, spec, raw, origin)
        except ObjectError as exc:
            problems = exc.all()
        for found in problems:
            self._report(origin, describe(kind, raw, spec.namespaced), found.field, found.message)

    def _store(self, kind: str, spec: KindSpec, raw: Raw, origin: Origin) -> None:
        self._read_past.see(kind, raw)
        if not self._features.pod_level_resources:
            raw = drop_disabled(kind, raw)
        if kind == "Pod":
            raw = self._resize_fields(raw)
        obj = spec.parse(raw)
        if kind in ("PersistentVolume", "PersistentVolumeClaim"):
            admit_attributes_class(obj, self._features.volume_attributes_class)
        key = object_key(raw, spec.namespaced)
        seen = self._seen[kind]
        first = seen.get(key)
        if first is not None:
            where = self._error(first, kind, "metadata.name", "").location
            problem = f'Duplicate value: "{key}": already defined at {where}'
            raise ObjectError("metadata.name", problem)
        seen[key] = origin
        if kind == "Pod":
            obj.load_index = len(self.cluster.pods)
            self._pod_origins.append(origin)
            self._explicit_priority.append(raw["spec"].get("priority") is not None)
        elif kind == "Node":
            obj.load_index = len(self.cluster.nodes)
        spec.store(self.cluster, key, obj)

    def _resize_fields(self, raw: Raw) -> Raw:
        """The pod without the resize status fields its release's API server drops."""
        containers = self._features.in_place_resize_requests
        pod_level = self._features.in_place_pod_level_resize_requests
        return raw if containers and pod_level else drop_resize(raw, containers, pod_level)

    def _add_duplicate(self, duplicate: Duplicate, document: Any, path: Path) -> None:
        item, what, error = duplicate_error(duplicate, document, path, describe_any)
        if error is not None:
            self.problems.record(error)
        else:  # not placed by the decoder: looked up as any field is
            origin = Origin(path, duplicate.document, item)
            field = duplicate_problem(duplicate, item is not None)[1]
            self._report(origin, what, field.field, field.message)

    def _report(self, origin: Origin, what: str, field_path: str, message: str) -> None:
        """Record one problem; its position is looked up only while the list is not full."""
        self.problems.report(lambda: self._error(origin, what, field_path, message))

    def _error(self, origin: Origin, what: str, field_path: str, message: str) -> KschedError:
        text = self._text if origin.path == self._path else None
        if text is None and origin.path == STDIN_PATH:
            text = stdin_text()
        documents = self._documents.get(origin.path)
        return positioned_error(origin, what, field_path, message, text, documents)

    def finish(self) -> None:
        """Cross-object steps, once every file is read: admission and references."""
        self.warnings.extend(self._read_past.warnings())
        cluster = self.cluster
        classes = {**SYSTEM_PRIORITY_CLASSES, **cluster.priority_classes}
        default = default_priority_class(cluster.priority_classes)
        admission = Admission.of(cluster)
        nodes = self._seen["Node"]
        uids: dict[str, str] = {}
        kept: list[Pod] = []
        orphaned: Counter[str] = Counter()
        for pod, origin, explicit in zip(
            cluster.pods, self._pod_origins, self._explicit_priority, strict=True
        ):
            try:
                if pod.node_name and pod.node_name not in nodes and (
                    pod.node_name not in self.known_nodes
                ):
                    orphaned[pod.node_name] += 1
                    continue
                if not pod.node_name:
                    pod = admission.limit_ranger(pod)
                prepare_for_create(pod, self._features)
                admit_pod(pod, explicit, classes, default)
                other = uids.setdefault(pod.uid, pod.key)
                if other != pod.key:
                    raise ObjectError("metadata.uid",
                                      f'Duplicate value: "{pod.uid}": also the uid of Pod {other}')
            except ObjectError as exc:
                raise self._error(origin, f"Pod {pod.key}", exc.field, exc.message) from None
            kept.append(pod)
        cluster.pods[:] = kept
        if orphaned:
            names = ", ".join(sorted(orphaned))
            self.warnings.append(
                f"leaving out {sum(orphaned.values())} running Pod(s) bound to Node(s) absent "
                f"from the input: {names}"
            )
        default_class = default_storage_class(cluster.storage_classes)
        for claim in cluster.persistent_volume_claims.values():
            admit_claim(claim, default_class)

    def template_error(
        self, kind: str, namespace: str, name: str, exc: ObjectError
    ) -> KschedError:
        """A template's pod refused at admission, at the workload's template field."""
        field_path = ".".join(TEMPLATE_SPEC_PATHS[kind][:-1]) + "." + exc.field
        return self.workload_error(kind, namespace, name, field_path, exc.message)

    def workload_error(
        self, kind: str, namespace: str, name: str, field_path: str, message: str
    ) -> KschedError:
        """A problem of a workload object at ``field_path``, positioned in its file."""
        key = f"{namespace}/{name}" if KINDS[kind].namespaced else name
        what = f"{kind} {key}"
        origin = self._seen[kind].get(key)
        if origin is None:  # a Job its CronJob created: not in any file
            return KschedError(message, None, f"{what}: {field_path}")
        return self._error(origin, what, field_path, message)


# Cluster lists the controllers sync (controllers/registry.py; a test keeps them equal).
WORKLOAD_LISTS = (
    "deployments", "replica_sets", "replication_controllers", "stateful_sets",
    "daemon_sets", "cron_jobs", "jobs",
)


def needs_controllers(cluster: Cluster) -> bool:
    """Whether ``controllers.reconcile`` can change anything: a workload object to sync,
    or a pod with a controller reference whose ``Pod.workload`` it names."""
    if any(getattr(cluster, name) for name in WORKLOAD_LISTS):
        return True
    return any(pod.meta.owner_references for pod in cluster.pods)


def _finished(raw: Raw) -> bool:
    status = raw.get("status")
    return isinstance(status, Mapping) and status.get("phase") in FINISHED_PHASES
