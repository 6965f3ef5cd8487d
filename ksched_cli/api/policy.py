"""PriorityClass and PodDisruptionBudget."""

from __future__ import annotations

from ..errors import ObjectError
from ..record import record
from .fields import Raw, boolean, integer, mapping, string
from .meta import ObjectMeta, parse_meta
from .selectors import LabelSelector, parse_label_selector


@record(frozen=True, slots=True)
class PriorityClass:
    """A PriorityClass (scheduling.k8s.io/v1)."""

    name: str
    value: int
    global_default: bool
    preemption_policy: str


def parse_priority_class(raw: Raw) -> PriorityClass:
    meta = parse_meta(raw, namespaced=False)
    value = integer(raw, "value", "")
    if value is None:
        raise ObjectError("value", "Required value")
    return PriorityClass(
        name=meta.name,
        value=value,
        global_default=boolean(raw, "globalDefault", ""),
        preemption_policy=string(raw, "preemptionPolicy", "") or "PreemptLowerPriority",
    )


IntOrPercent = int | str


@record(slots=True, eq=False)
class PodDisruptionBudget:
    """A PodDisruptionBudget (policy/v1), status included."""

    meta: ObjectMeta
    selector: LabelSelector | None
    min_available: IntOrPercent | None
    max_unavailable: IntOrPercent | None
    disruptions_allowed: int | None
    disrupted_pods: frozenset[str]
    has_status: bool
    # status.desiredHealthy / currentHealthy: the eviction API quotes them when it refuses.
    desired_healthy: int = 0
    current_healthy: int = 0
    # status.expectedPods, as far as ksched computed it.
    expected_pods: int = 0
    # The selected pods (ns/name@node) when the input's status was read: that status holds
    # until they change; then ksched computes it as the disruption controller would.
    written_for: frozenset[str] | None = None


def _int_or_percent(raw: Raw, key: str, path: str) -> IntOrPercent | None:
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ObjectError(f"{path}.{key}", "expected an integer or a percentage")
    if isinstance(value, str) and not (value.endswith("%") and value[:-1].isdigit()):
        if value.isdigit():
            return int(value)
        raise ObjectError(
            f"{path}.{key}", f"invalid value {value!r}: expected an integer or a percentage"
        )
    return value


def parse_pdb(raw: Raw) -> PodDisruptionBudget:
    meta = parse_meta(raw)
    spec = mapping(raw, "spec", "")
    status = raw.get("status")
    sel = spec.get("selector")
    disrupted: frozenset[str] = frozenset()
    allowed = None
    desired = current = 0
    if isinstance(status, dict) or status is not None:
        st = mapping(raw, "status", "")
        allowed = integer(st, "disruptionsAllowed", "status")
        disrupted = frozenset(str(k) for k in mapping(st, "disruptedPods", "status"))
        desired = integer(st, "desiredHealthy", "status", 0) or 0
        current = integer(st, "currentHealthy", "status", 0) or 0
    return PodDisruptionBudget(
        meta=meta,
        selector=parse_label_selector(sel, "spec.selector") if sel is not None else None,
        min_available=_int_or_percent(spec, "minAvailable", "spec"),
        max_unavailable=_int_or_percent(spec, "maxUnavailable", "spec"),
        disruptions_allowed=allowed,
        disrupted_pods=disrupted,
        has_status=allowed is not None,
        desired_healthy=desired,
        current_healthy=current,
    )
