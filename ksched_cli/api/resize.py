"""In-place resize: what a running pod holds on its node while a resize is under way.

Port of component-helpers' ``determineEffectiveRequests`` as ``AggregateContainerRequests``
and ``PodRequests`` apply it with ``UseStatusResources`` (v0.33.3 to v0.36.3, the same
rule throughout), which the scheduler's ``PodInfo.CalculateResource`` turns on with
InPlacePodVerticalScaling (on from v1.33). A container, or a restartable init container,
whose status reports ``resources`` counts the largest of its spec requests, the requests
the kubelet actuated and the ``allocatedResources``; when the pod's PodResizePending
condition says Infeasible the spec is left out. From v1.36
(InPlacePodLevelResourcesVerticalScaling) the pod-level requests follow the same rule with
the pod's own ``status.resources`` and ``status.allocatedResources``.

Only bound pods carry a resize: the scheduler computes a pending pod's requests without
its status. Releases whose gate is off store none of these status fields (``drop_disabled``).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..record import record
from .fields import Raw, mapping, objects, string
from .resources import ExactList, parse_resource_list

RESIZE_PENDING = "PodResizePending"
INFEASIBLE = "Infeasible"


@record(frozen=True, slots=True)
class ResourceState:
    """One container's (or the pod's) requests as the kubelet reports them."""

    actuated: ExactList
    allocated: ExactList

    def effective(self, spec: ExactList, infeasible: bool) -> ExactList:
        """determineEffectiveRequests: the per-resource maximum."""
        out: ExactList = {} if infeasible else dict(spec)
        for other in (self.actuated, self.allocated):
            for name, amount in other.items():
                if name not in out or amount > out[name]:
                    out[name] = amount
        return out


@record(frozen=True, slots=True)
class Resize:
    """What a bound pod's status says about its resources (only where it reports them)."""

    containers: Mapping[str, ResourceState]  # by container name, init containers included
    pod: ResourceState | None  # status.resources and status.allocatedResources
    infeasible: bool

    def container_requests(self, name: str, spec: ExactList) -> ExactList:
        state = self.containers.get(name)
        return spec if state is None else state.effective(spec, self.infeasible)

    def pod_requests(self, spec: ExactList) -> ExactList:
        """PodRequests' pod-level rule: every supported name in the spec takes the effective
        amount, zero when the effective list lacks it (an infeasible resize can drop one)."""
        if self.pod is None:
            return spec
        effective = self.pod.effective(spec, self.infeasible)
        return {name: effective.get(name, Fraction(0)) for name in spec}


def parse_resize(status: Raw) -> Resize | None:
    """The resize state in a pod's ``status``; None when it reports no resources."""
    states = {}
    for key in ("containerStatuses", "initContainerStatuses"):
        for path, item in objects(status, key, "status"):
            if item.get("resources") is not None:
                states[string(item, "name", path)] = _state(item, path)
    pod = _state(status, "status") if status.get("resources") is not None else None
    if not states and pod is None:
        return None
    return Resize(states, pod, _resize_infeasible(status))


def _state(raw: Raw, path: str) -> ResourceState:
    resources = mapping(raw, "resources", path)
    return ResourceState(
        parse_resource_list(resources, "requests", f"{path}.resources"),
        parse_resource_list(raw, "allocatedResources", path),
    )


def _resize_infeasible(status: Raw) -> bool:
    """IsPodResizeInfeasible: the first PodResizePending condition's reason decides."""
    for path, condition in objects(status, "conditions", "status"):
        if string(condition, "type", path) == RESIZE_PENDING:
            return string(condition, "reason", path) == INFEASIBLE
    return False


_CONTAINER_FIELDS = ("resources", "allocatedResources")


def drop_disabled(raw: Raw, containers: bool, pod_level: bool) -> Raw:
    """``raw`` (a Pod) without the status fields a release's API server does not keep:
    the containers' (``containers`` False) and the pod's own (``pod_level`` False)."""
    status = raw.get("status")
    if not isinstance(status, Mapping):
        return raw
    new: dict[str, Any] = dict(status)
    changed = False
    if not pod_level:
        for key in _CONTAINER_FIELDS:
            changed |= new.pop(key, None) is not None
    if not containers:
        for key in ("containerStatuses", "initContainerStatuses"):
            items = new.get(key)
            if isinstance(items, list) and any(
                isinstance(i, Mapping) and any(f in i for f in _CONTAINER_FIELDS) for i in items
            ):
                new[key] = [_without_fields(i) for i in items]
                changed = True
    return {**raw, "status": new} if changed else raw


def _without_fields(item: Any) -> Any:
    if not isinstance(item, Mapping):
        return item
    return {k: v for k, v in item.items() if k not in _CONTAINER_FIELDS}
