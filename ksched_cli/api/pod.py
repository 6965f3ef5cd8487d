"""The Pod as kube-scheduler sees it: parsed once, with requests precomputed."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..errors import ObjectError
from ..record import record
from .fields import Raw, boolean, integer, mapping, objects, string, string_map, strings
from .meta import ObjectMeta, parse_meta, parse_time
from .pod_level import PodResources, parse_pod_resources
from .resize import Resize, parse_resize
from .resources import (
    NON_ZERO_DEFAULTS,
    REQUESTS_BY_SHAPE,
    ExactList,
    compute_requests,
    parse_resource_list,
    pod_requests,
    to_scheduler_units,
)
from .selectors import LabelSelector, NodeAffinity, parse_label_selector, parse_node_affinity

DEFAULT_SCHEDULER_NAME = "default-scheduler"
PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority"
PREEMPT_NEVER = "Never"


@record(frozen=True, slots=True)
class ContainerPort:
    """A container's port, as NodePorts reads it."""

    container_port: int
    host_port: int
    protocol: str
    host_ip: str


@record(frozen=True, slots=True)
class Container:
    """A container (or init container): its requests, ports, restart policy."""

    name: str
    image: str
    requests: ExactList
    ports: tuple[ContainerPort, ...] = ()
    restart_policy: str = ""


@record(frozen=True, slots=True)
class Toleration:
    """spec.tolerations[] of a Pod."""

    key: str = ""
    operator: str = "Equal"
    value: str = ""
    effect: str = ""
    toleration_seconds: int | None = None


@record(frozen=True, slots=True)
class PodAffinityTerm:
    """One term of podAffinity or podAntiAffinity."""

    label_selector: LabelSelector | None
    namespaces: tuple[str, ...]
    topology_key: str
    namespace_selector: LabelSelector | None
    match_label_keys: tuple[str, ...] = ()
    mismatch_label_keys: tuple[str, ...] = ()


@record(frozen=True, slots=True)
class WeightedPodAffinityTerm:
    """A preferred (soft) affinity term and its weight."""

    weight: int
    term: PodAffinityTerm


@record(frozen=True, slots=True)
class PodAffinity:
    """Either podAffinity or podAntiAffinity."""

    required: tuple[PodAffinityTerm, ...] = ()
    preferred: tuple[WeightedPodAffinityTerm, ...] = ()


@record(frozen=True, slots=True)
class TopologySpreadConstraint:
    """spec.topologySpreadConstraints[] of a Pod."""

    max_skew: int
    topology_key: str
    when_unsatisfiable: str
    label_selector: LabelSelector | None
    min_domains: int | None = None
    node_affinity_policy: str | None = None
    node_taints_policy: str | None = None
    match_label_keys: tuple[str, ...] = ()


@record(frozen=True, slots=True)
class Volume:
    """spec.volumes[]: the claim it names, if any, and its source as written."""

    name: str
    claim_name: str | None
    source: dict[str, Any]


@record(slots=True, eq=False)
class Pod:
    """A Pod as the scheduler, the controllers and the what-if layer read it."""

    meta: ObjectMeta
    containers: tuple[Container, ...]
    init_containers: tuple[Container, ...]
    node_name: str = ""
    scheduler_name: str = DEFAULT_SCHEDULER_NAME
    priority_class_name: str = ""
    priority: int = 0
    preemption_policy: str = PREEMPT_LOWER_PRIORITY
    node_selector: dict[str, str] = field(default_factory=dict)
    node_affinity: NodeAffinity | None = None
    # nodeAffinity.preferredDuringScheduling... was given, even as an empty list: NodeAffinity
    # skips scoring only when it is absent.
    node_affinity_preferred_set: bool = False
    pod_affinity: PodAffinity | None = None
    pod_anti_affinity: PodAffinity | None = None
    tolerations: tuple[Toleration, ...] = ()
    topology_spread_constraints: tuple[TopologySpreadConstraint, ...] = ()
    scheduling_gates: tuple[str, ...] = ()
    volumes: tuple[Volume, ...] = ()
    overhead: ExactList = field(default_factory=dict)
    # spec.resources (pod-level resources), kept only by releases that have the gate.
    pod_resources: PodResources | None = None
    # A bound pod's in-place resize as its status reports it (api/resize.py).
    resize: Resize | None = None
    host_network: bool = False
    hostname: str = ""
    subdomain: str = ""
    nominated_node_name: str = ""
    start_time: float | None = None
    # Being deleted after a DisruptionTarget condition set by the scheduler's preemption.
    terminating_by_preemption: bool = False
    # Filled by finalize(): the scheduler's view of the requests, cpu in millicores.
    requests: dict[str, int] = field(default_factory=dict)
    non_zero_requests: dict[str, int] = field(default_factory=dict)
    cache_non_zero: tuple[int, int] = (0, 0)
    node_non_zero: tuple[int, int] = (0, 0)
    load_index: int = 0
    # The workload a user keeps that owns this pod, as kubectl names it
    # ("deployment/web", "statefulset/db"); "" for a bare pod. Set by the controllers layer.
    workload: str = ""
    # framework.PodInfo built on first use (see framework/podinfo.py).
    info_cache: object = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return self.meta.name

    @property
    def namespace(self) -> str:
        return self.meta.namespace

    # "namespace/name" and the uid (metadata.uid, else the key): set by finalize(),
    # read on every hot path, so plain attributes rather than properties.
    key: str = ""
    uid: str = ""

    @property
    def labels(self) -> dict[str, str]:
        return self.meta.labels

    def finalize(self) -> None:
        """Compute requests the way the scheduler does (exact sums, then rounded up)."""
        self.key = f"{self.meta.namespace}/{self.meta.name}"
        self.uid = self.meta.uid or self.key
        containers, inits, level = _request_lists(self)
        shape = (
            tuple(tuple(c.items()) for c in containers),
            tuple((tuple(c.items()), always) for c, always in inits),
            tuple(self.overhead.items()),
            tuple(level.items()) if level else (),
        )
        computed = REQUESTS_BY_SHAPE.get(shape)
        if computed is None:
            computed = compute_requests(containers, inits, self.overhead, level)
            REQUESTS_BY_SHAPE[shape] = computed
        # Shared between pods of one shape: treated as read-only everywhere.
        self.requests, self.non_zero_requests, self.cache_non_zero, self.node_non_zero = computed

    def host_ports(self) -> list[ContainerPort]:
        return [p for c in self.containers for p in c.ports if p.host_port > 0]


def container_requests(pod: Pod, non_zero: bool) -> dict[str, int]:
    """PodRequests with SkipPodLevelResources: the spec's containers and overhead only,
    with the non-zero defaults when ``non_zero``."""
    containers = [c.requests for c in pod.containers]
    inits = [(c.requests, c.restart_policy == "Always") for c in pod.init_containers]
    defaults = NON_ZERO_DEFAULTS if non_zero else None
    return to_scheduler_units(pod_requests(containers, inits, pod.overhead, defaults))


def _request_lists(
    pod: Pod,
) -> tuple[list[ExactList], list[tuple[ExactList, bool]], ExactList | None]:
    """The containers', init containers' (with "restartable") and pod-level requests the
    scheduler counts: the spec's, or what a resize under way holds (api/resize.py)."""
    resize = pod.resize
    containers = [c.requests for c in pod.containers]
    inits = [(c.requests, c.restart_policy == "Always") for c in pod.init_containers]
    level = pod.pod_resources.supported_requests() if pod.pod_resources else None
    if resize is None:
        return containers, inits, level
    containers = [resize.container_requests(c.name, c.requests) for c in pod.containers]
    inits = [
        (resize.container_requests(c.name, c.requests) if always else c.requests, always)
        for c, (_, always) in zip(pod.init_containers, inits, strict=True)
    ]
    return containers, inits, resize.pod_requests(level) if level else level


def _container(raw: Raw, path: str, host_network: bool) -> Container:
    resources = mapping(raw, "resources", path)
    requests = parse_resource_list(resources, "requests", f"{path}.resources")
    limits = parse_resource_list(resources, "limits", f"{path}.resources")
    for name, value in limits.items():
        requests.setdefault(name, value)  # API server defaulting: requests default to limits
    ports = []
    for p, item in objects(raw, "ports", path):
        cport = integer(item, "containerPort", p, 0) or 0
        hport = integer(item, "hostPort", p, 0) or 0
        if host_network and hport == 0:
            hport = cport
        ports.append(
            ContainerPort(
                cport, hport, string(item, "protocol", p, "TCP"), string(item, "hostIP", p)
            )
        )
    return Container(
        name=string(raw, "name", path),
        image=string(raw, "image", path),
        requests=requests,
        ports=tuple(ports),
        restart_policy=string(raw, "restartPolicy", path),
    )


def _affinity_term(raw: Raw, path: str) -> PodAffinityTerm:
    sel = raw.get("labelSelector")
    ns_sel = raw.get("namespaceSelector")
    return PodAffinityTerm(
        label_selector=parse_label_selector(sel, f"{path}.labelSelector")
        if sel is not None
        else None,
        namespaces=tuple(strings(raw, "namespaces", path)),
        topology_key=string(raw, "topologyKey", path),
        namespace_selector=(
            parse_label_selector(ns_sel, f"{path}.namespaceSelector")
            if ns_sel is not None
            else None
        ),
        match_label_keys=tuple(strings(raw, "matchLabelKeys", path)),
        mismatch_label_keys=tuple(strings(raw, "mismatchLabelKeys", path)),
    )


def _pod_affinity(raw: Raw | None, path: str) -> PodAffinity | None:
    if raw is None:
        return None
    req_key = "requiredDuringSchedulingIgnoredDuringExecution"
    pref_key = "preferredDuringSchedulingIgnoredDuringExecution"
    required = tuple(_affinity_term(i, p) for p, i in objects(raw, req_key, path))
    preferred = []
    for p, item in objects(raw, pref_key, path):
        weight = integer(item, "weight", p, 0) or 0
        term = _affinity_term(mapping(item, "podAffinityTerm", p), f"{p}.podAffinityTerm")
        preferred.append(WeightedPodAffinityTerm(weight, term))
    return PodAffinity(required, tuple(preferred))


def _spread_constraint(raw: Raw, path: str) -> TopologySpreadConstraint:
    sel = raw.get("labelSelector")
    return TopologySpreadConstraint(
        max_skew=integer(raw, "maxSkew", path, 0) or 0,
        topology_key=string(raw, "topologyKey", path),
        when_unsatisfiable=string(raw, "whenUnsatisfiable", path),
        label_selector=parse_label_selector(sel, f"{path}.labelSelector")
        if sel is not None
        else None,
        min_domains=integer(raw, "minDomains", path),
        node_affinity_policy=raw.get("nodeAffinityPolicy"),
        node_taints_policy=raw.get("nodeTaintsPolicy"),
        match_label_keys=tuple(strings(raw, "matchLabelKeys", path)),
    )


def parse_spread_constraint(raw: Raw, path: str) -> TopologySpreadConstraint:
    """One topologySpreadConstraints entry (also PodTopologySpreadArgs.defaultConstraints)."""
    return _spread_constraint(raw, path)


def _toleration(raw: Raw, path: str) -> Toleration:
    op = string(raw, "operator", path, "Equal") or "Equal"
    if op not in ("Equal", "Exists"):
        raise ObjectError(
            f"{path}.operator", f'Unsupported value: "{op}": supported values: "Equal", "Exists"'
        )
    return Toleration(
        key=string(raw, "key", path),
        operator=op,
        value=string(raw, "value", path),
        effect=string(raw, "effect", path),
        toleration_seconds=integer(raw, "tolerationSeconds", path),
    )


def _volume(raw: Raw, path: str) -> Volume:
    claim = raw.get("persistentVolumeClaim")
    claim_name = None
    if claim is not None:
        claim_name = string(
            mapping(raw, "persistentVolumeClaim", path),
            "claimName",
            f"{path}.persistentVolumeClaim",
        )
    return Volume(string(raw, "name", path), claim_name, dict(raw))


def parse_pod(raw: Raw) -> Pod:
    """Build a Pod from a decoded manifest; API-server defaults are applied here."""
    meta = parse_meta(raw)
    spec = mapping(raw, "spec", "")
    status = mapping(raw, "status", "")
    host_network = boolean(spec, "hostNetwork", "spec")
    containers = tuple(
        _container(i, p, host_network) for p, i in objects(spec, "containers", "spec")
    )
    if not containers:
        raise ObjectError("spec.containers", "Required value: a pod needs at least one container")
    inits = tuple(
        _container(i, p, host_network) for p, i in objects(spec, "initContainers", "spec")
    )
    affinity = mapping(spec, "affinity", "spec")
    gates = [string(i, "name", p) for p, i in objects(spec, "schedulingGates", "spec")]
    start = status.get("startTime")
    pod = Pod(
        meta=meta,
        containers=containers,
        init_containers=inits,
        node_name=string(spec, "nodeName", "spec"),
        scheduler_name=string(spec, "schedulerName", "spec") or DEFAULT_SCHEDULER_NAME,
        priority_class_name=string(spec, "priorityClassName", "spec"),
        priority=integer(spec, "priority", "spec", 0) or 0,
        preemption_policy=string(spec, "preemptionPolicy", "spec") or "",
        node_selector=string_map(spec, "nodeSelector", "spec"),
        node_affinity=parse_node_affinity(
            affinity.get("nodeAffinity"), "spec.affinity.nodeAffinity"
        ),
        node_affinity_preferred_set=mapping(affinity, "nodeAffinity", "spec.affinity").get(
            "preferredDuringSchedulingIgnoredDuringExecution"
        )
        is not None,
        pod_affinity=_pod_affinity(affinity.get("podAffinity"), "spec.affinity.podAffinity"),
        pod_anti_affinity=_pod_affinity(
            affinity.get("podAntiAffinity"), "spec.affinity.podAntiAffinity"
        ),
        tolerations=tuple(_toleration(i, p) for p, i in objects(spec, "tolerations", "spec")),
        topology_spread_constraints=tuple(
            _spread_constraint(i, p) for p, i in objects(spec, "topologySpreadConstraints", "spec")
        ),
        scheduling_gates=tuple(gates),
        volumes=tuple(_volume(i, p) for p, i in objects(spec, "volumes", "spec")),
        overhead=parse_resource_list(spec, "overhead", "spec"),
        pod_resources=parse_pod_resources(spec),
        host_network=host_network,
        hostname=string(spec, "hostname", "spec"),
        subdomain=string(spec, "subdomain", "spec"),
        nominated_node_name=string(status, "nominatedNodeName", "status"),
        # The scheduler reads a pending pod's requests without its status (fit.go).
        resize=parse_resize(status) if spec.get("nodeName") else None,
        start_time=parse_time(start, "status.startTime") if start is not None else None,
    )
    pod.terminating_by_preemption = meta.deletion_timestamp is not None and any(
        string(c, "type", p) == "DisruptionTarget"
        and string(c, "status", p) == "True"
        and string(c, "reason", p) == "PreemptionByScheduler"
        for p, c in objects(status, "conditions", "status")
    )
    pod.finalize()
    return pod
