"""Workload objects: the selectors PodTopologySpread's default constraints read, and the
controller specs the controllers layer (``ksched_cli/controllers``) turns into pods.

Each parse applies the API server's defaults and its semantic checks (ValidateDeployment,
ValidateStatefulSet, ValidateDaemonSet, ValidateJob: negative counts, a selector that does
not select the template, a template that is not a valid pod), raising ObjectError with
the field path.
"""

from __future__ import annotations

import uuid
from dataclasses import replace

from ..errors import ObjectError
from ..record import record
from .fields import Raw, boolean, integer, mapping, objects, string, string_map
from .meta import ObjectMeta, parse_meta
from .selectors import LabelSelector, Requirement, parse_label_selector
from .storage import parse_persistent_volume_claim
from .templates import (
    PodTemplate,
    check_restart_policy,
    check_selector_matches,
    non_negative,
    parse_template,
)

SELECTOR_KINDS = ("Service", "ReplicaSet", "StatefulSet", "ReplicationController")
CONTROLLER_KINDS = (
    "Deployment", "ReplicaSet", "ReplicationController", "StatefulSet", "DaemonSet", "Job",
    "CronJob",
)

# Labels the API server's Job strategy adds to a Job's template (generateSelector).
JOB_NAME_LABELS = ("job-name", "batch.kubernetes.io/job-name")
JOB_UID_LABELS = ("controller-uid", "batch.kubernetes.io/controller-uid")
JOB_SELECTOR_LABEL = "batch.kubernetes.io/controller-uid"
ANN_DS_TEMPLATE_GENERATION = "deprecated.daemonset.template.generation"


@record(frozen=True, slots=True)
class ReplicasSpec:
    """Deployment, ReplicaSet and ReplicationController."""

    replicas: int
    template: PodTemplate
    collision_count: int | None = None
    paused: bool = False


@record(frozen=True, slots=True)
class ClaimTemplate:
    name: str
    raw: Raw


@record(frozen=True, slots=True)
class StatefulSetSpec:
    replicas: int
    template: PodTemplate
    service_name: str
    ordered_ready: bool
    start_ordinal: int
    claim_templates: tuple[ClaimTemplate, ...]
    collision_count: int | None = None


@record(frozen=True, slots=True)
class DaemonSetSpec:
    template: PodTemplate
    template_generation: str
    collision_count: int | None = None


@record(frozen=True, slots=True)
class JobSpec:
    template: PodTemplate
    parallelism: int
    completions: int | None
    indexed: bool
    suspend: bool
    uid: str
    succeeded: int = 0
    completed_indexes: frozenset[int] = frozenset()
    finished: bool = False


@record(frozen=True, slots=True)
class CronJobSpec:
    job: JobSpec
    job_labels: dict[str, str]
    job_annotations: dict[str, str]
    suspend: bool


ControllerSpec = ReplicasSpec | StatefulSetSpec | DaemonSetSpec | JobSpec | CronJobSpec


@record(slots=True, eq=False)
class Workload:
    """A Service or a controller object with its pod selector.

    ``selector`` is None when the object selects nothing. Services and
    ReplicationControllers carry plain maps, kept in ``selector_map`` as well.
    ``controller`` is the parsed spec of controller kinds (None for Services).
    """

    kind: str
    meta: ObjectMeta
    selector: LabelSelector | None
    selector_map: dict[str, str] | None = None
    controller: ControllerSpec | None = None

    @property
    def namespace(self) -> str:
        return self.meta.namespace

    @property
    def name(self) -> str:
        return self.meta.name

    @property
    def ref(self) -> str:
        """kubectl's ``kind/name`` (``deployment/web``)."""
        return f"{self.kind.lower()}/{self.meta.name}"


def _map_selector(values: dict[str, str]) -> LabelSelector:
    return LabelSelector(tuple(Requirement(k, "In", (v,)) for k, v in sorted(values.items())))


def object_uid(meta: ObjectMeta, kind: str) -> str:
    """metadata.uid, or a stable one derived from the object's identity when absent."""
    return meta.uid or str(uuid.uuid5(uuid.NAMESPACE_URL, f"ksched:{kind}/{meta.namespace}/"
                                                          f"{meta.name}"))


def parse_workload(kind: str, raw: Raw) -> Workload:
    meta = parse_meta(raw)
    spec = mapping(raw, "spec", "")
    if kind == "Service":
        if spec.get("selector") is None:
            return Workload(kind, meta, None, None)
        values = string_map(spec, "selector", "spec")
        return Workload(kind, meta, _map_selector(values), values)
    if kind == "ReplicationController":
        return _replication_controller(raw, meta, spec)
    if kind == "CronJob":
        return _cron_job(raw, meta, spec)
    if kind == "Job":
        job, selector = _job(raw, meta, spec, "spec", mapping(raw, "status", ""))
        return Workload(kind, meta, selector, None, job)
    selector = _required_selector(spec, kind)
    template = parse_template(raw, spec.get("template"), "spec.template", meta.namespace)
    check_selector_matches(selector, template, "spec.template")
    status = mapping(raw, "status", "")
    collisions = integer(status, "collisionCount", "status")
    controller: ControllerSpec
    if kind == "DaemonSet":
        check_restart_policy(template, "spec.template", ("Always",))
        generation = meta.annotations.get(ANN_DS_TEMPLATE_GENERATION, "1")
        controller = DaemonSetSpec(template, generation, collisions)
    elif kind == "StatefulSet":
        controller = _stateful_set(raw, spec, template, collisions)
    else:
        replicas = non_negative(spec, "replicas", "spec", 1)
        assert replicas is not None
        check_restart_policy(template, "spec.template", ("Always",))
        paused = kind == "Deployment" and boolean(spec, "paused", "spec")
        controller = ReplicasSpec(replicas, template, collisions, paused)
    return Workload(kind, meta, selector, None, controller)


def _required_selector(spec: Raw, kind: str) -> LabelSelector:
    sel = spec.get("selector")
    if sel is None:
        raise ObjectError("spec.selector", "Required value")
    selector = parse_label_selector(sel, "spec.selector")
    assert selector is not None
    if selector.is_empty:
        raise ObjectError("spec.selector", f"Invalid value: {{}}: empty selector is invalid for "
                          f"{kind.lower()}")
    return selector


def _replication_controller(raw: Raw, meta: ObjectMeta, spec: Raw) -> Workload:
    template = parse_template(raw, spec.get("template"), "spec.template", meta.namespace)
    # Defaulting: an absent selector is the template's labels.
    values = string_map(spec, "selector", "spec") or dict(template.labels)
    if not values:
        raise ObjectError("spec.selector", "Required value")
    selector = _map_selector(values)
    check_selector_matches(selector, template, "spec.template")
    check_restart_policy(template, "spec.template", ("Always",))
    replicas = non_negative(spec, "replicas", "spec", 1)
    assert replicas is not None
    collisions = integer(mapping(raw, "status", ""), "collisionCount", "status")
    return Workload("ReplicationController", meta, selector, values,
                    ReplicasSpec(replicas, template, collisions))


def _stateful_set(
    raw: Raw, spec: Raw, template: PodTemplate, collisions: int | None
) -> StatefulSetSpec:
    replicas = non_negative(spec, "replicas", "spec", 1)
    assert replicas is not None
    check_restart_policy(template, "spec.template", ("Always",))
    policy = string(spec, "podManagementPolicy", "spec") or "OrderedReady"
    if policy not in ("OrderedReady", "Parallel"):
        raise ObjectError("spec.podManagementPolicy",
                          f'Unsupported value: "{policy}": supported values: "OrderedReady", '
                          '"Parallel"')
    start = non_negative(mapping(spec, "ordinals", "spec"), "start", "spec.ordinals", 0)
    claims = []
    for path, item in objects(spec, "volumeClaimTemplates", "spec"):
        name = string(mapping(item, "metadata", path), "name", f"{path}.metadata")
        if not name:
            raise ObjectError(f"{path}.metadata.name", "Required value")
        _check_claim(item, path, f"{name}-{raw['metadata']['name']}-0")
        claims.append(ClaimTemplate(name, item))
    return StatefulSetSpec(
        replicas=replicas,
        template=template,
        service_name=string(spec, "serviceName", "spec"),
        ordered_ready=policy == "OrderedReady",
        start_ordinal=start or 0,
        claim_templates=tuple(claims),
        collision_count=collisions,
    )


def _check_claim(item: Raw, path: str, name: str) -> None:
    """A claim template must be a valid PersistentVolumeClaim (as its ordinal 0 would be)."""
    raw = {"metadata": {**mapping(item, "metadata", path), "name": name},
           "spec": mapping(item, "spec", path)}
    try:
        parse_persistent_volume_claim(raw)
    except ObjectError as exc:
        raise ObjectError(f"{path}.{exc.field}", exc.message) from None


def _job(
    owner: Raw, meta: ObjectMeta, spec: Raw, path: str, status: Raw, generate: bool = True
) -> tuple[JobSpec, LabelSelector]:
    template = parse_template(owner, spec.get("template"), f"{path}.template", meta.namespace)
    check_restart_policy(template, f"{path}.template", ("OnFailure", "Never"))
    parallelism = non_negative(spec, "parallelism", path, None)
    completions = non_negative(spec, "completions", path, None)
    # SetDefaults_Job: neither given means one pod to one completion.
    if parallelism is None:
        parallelism = 1
        if completions is None:
            completions = 1
    mode = string(spec, "completionMode", path) or "NonIndexed"
    if mode not in ("NonIndexed", "Indexed"):
        raise ObjectError(f"{path}.completionMode", f'Unsupported value: "{mode}": supported '
                          'values: "NonIndexed", "Indexed"')
    if mode == "Indexed" and completions is None:
        raise ObjectError(f"{path}.completions",
                          "Required value: when completion mode is Indexed")
    uid = object_uid(meta, "Job")
    sel = spec.get("selector")
    if generate and (sel is None or not boolean(spec, "manualSelector", path)):
        template = with_generated_labels(template, meta.name, uid)
    selector = (parse_label_selector(sel, f"{path}.selector") if sel is not None
                else LabelSelector((Requirement(JOB_SELECTOR_LABEL, "In", (uid,)),)))
    assert selector is not None
    if generate:  # a CronJob's Job gets its labels and selector when created
        check_selector_matches(selector, template, f"{path}.template")
    job = JobSpec(
        template=template,
        parallelism=parallelism,
        completions=completions,
        indexed=mode == "Indexed",
        suspend=boolean(spec, "suspend", path),
        uid=uid,
        succeeded=integer(status, "succeeded", "status", 0) or 0,
        completed_indexes=_index_set(string(status, "completedIndexes", "status")),
        finished=any(
            string(c, "type", p) in ("Complete", "Failed") and string(c, "status", p) == "True"
            for p, c in objects(status, "conditions", "status")
        ),
    )
    return job, selector


def with_generated_labels(template: PodTemplate, name: str, uid: str) -> PodTemplate:
    """The Job strategy's generateSelector: job-name and controller-uid labels, old and new keys."""
    labels = dict(template.labels)
    for key in JOB_NAME_LABELS:
        labels.setdefault(key, name)
    for key in JOB_UID_LABELS:
        labels.setdefault(key, uid)
    return replace(template, labels=labels)


def _index_set(text: str) -> frozenset[int]:
    """status.completedIndexes ("1,3-5") as a set; malformed parts are skipped, as upstream."""
    out: set[int] = set()
    for part in filter(None, text.split(",")):
        first, _, last = part.partition("-")
        try:
            out.update(range(int(first), int(last or first) + 1))
        except ValueError:
            continue
    return frozenset(out)


def cron_job_name(name: str, scheduled: float) -> str:
    """getJobName: the CronJob's name and the scheduled time in minutes."""
    return f"{name}-{int(scheduled) // 60}"


def _cron_job(raw: Raw, meta: ObjectMeta, spec: Raw) -> Workload:
    job_template = mapping(spec, "jobTemplate", "spec")
    if not job_template:
        raise ObjectError("spec.jobTemplate", "Required value")
    job_meta_raw = mapping(job_template, "metadata", "spec.jobTemplate")
    # The Job's identity is only known at creation; checks run against its template.
    job_meta = ObjectMeta(name=meta.name, namespace=meta.namespace)
    job, _ = _job(raw, job_meta, mapping(job_template, "spec", "spec.jobTemplate"),
                  "spec.jobTemplate.spec", {}, generate=False)
    cron = CronJobSpec(
        job=job,
        job_labels=string_map(job_meta_raw, "labels", "spec.jobTemplate.metadata"),
        job_annotations=string_map(job_meta_raw, "annotations", "spec.jobTemplate.metadata"),
        suspend=boolean(spec, "suspend", "spec"),
    )
    return Workload("CronJob", meta, None, None, cron)
