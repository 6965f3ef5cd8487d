"""The v1.30 ``Validate*Args`` checks, on defaulted v1 args dicts, with kube-scheduler's wording.

``base`` is the path of the args object, e.g. ``profiles[0].pluginConfig[1].args``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .godur import parse_duration
from .names import is_extended_resource_name, validate_label_name
from .problems import (
    GoRepr,
    Problem,
    child,
    duplicate,
    forbidden,
    invalid,
    not_supported,
    plain,
    required,
    warning,
)
from .validation_affinity import validate_added_affinity

Validator = Callable[[str, dict[str, Any]], list[Problem]]

SCORING_STRATEGIES = ("LeastAllocated", "MostAllocated", "RequestedToCapacityRatio")
DEFAULTING_TYPES = ("System", "List")
SCHEDULE_ACTIONS = ("DoNotSchedule", "ScheduleAnyway")
MAX_CUSTOM_PRIORITY_SCORE = 10
_SCORED_NATIVE = ("cpu", "memory", "ephemeral-storage")


def validate_default_preemption(base: str, args: dict[str, Any]) -> list[Problem]:
    pct_path = child(base, "minCandidateNodesPercentage")
    abs_path = child(base, "minCandidateNodesAbsolute")
    pct, absolute = args["minCandidateNodesPercentage"], args["minCandidateNodesAbsolute"]
    problems = []
    if not 0 <= pct <= 100:
        problems.append(invalid(pct_path, pct, "not in valid range [0, 100]"))
    if absolute < 0:
        problems.append(invalid(abs_path, absolute, "not in valid range [0, inf)"))
    if pct == 0 and absolute == 0:
        problems.append(
            invalid(pct_path, pct, "cannot be zero at the same time as minCandidateNodesAbsolute")
        )
        problems.append(
            invalid(
                abs_path, absolute, "cannot be zero at the same time as minCandidateNodesPercentage"
            )
        )
    return problems


def validate_inter_pod_affinity(base: str, args: dict[str, Any]) -> list[Problem]:
    weight = args["hardPodAffinityWeight"]
    if not 0 <= weight <= 100:
        return [
            invalid(child(base, "hardPodAffinityWeight"), weight, "not in valid range [0, 100]")
        ]
    return []


def _defaulting_type(path: str, value: str, constraints: list[Any]) -> list[Problem]:
    if value not in DEFAULTING_TYPES:
        return [not_supported(path, value, DEFAULTING_TYPES)]
    if value == "System" and constraints:
        return [invalid(path, value, "when .defaultConstraints are not empty")]
    return []


def _topology_key(path: str, key: str) -> list[Problem]:
    if not key:
        return [required(path, "can not be empty")]
    return validate_label_name(key, path)


def _when_unsatisfiable(path: str, value: str) -> list[Problem]:
    if not value:
        return [required(path, "can not be empty")]
    if value not in SCHEDULE_ACTIONS:
        return [not_supported(path, value, SCHEDULE_ACTIONS)]
    return []


def _constraint(path: str, c: dict[str, Any]) -> list[Problem]:
    problems = []
    max_skew = c.get("maxSkew") or 0
    if max_skew <= 0:
        problems.append(invalid(child(path, "maxSkew"), max_skew, "not in valid range (0, inf)"))
    problems += _topology_key(child(path, "topologyKey"), c.get("topologyKey") or "")
    problems += _when_unsatisfiable(
        child(path, "whenUnsatisfiable"), c.get("whenUnsatisfiable") or ""
    )
    if c.get("labelSelector") is not None:
        detail = "constraint must not define a selector, as they deduced for each pod"
        problems.append(forbidden(child(path, "labelSelector"), detail))
    return problems


def validate_pod_topology_spread(base: str, args: dict[str, Any]) -> list[Problem]:
    constraints = [c or {} for c in args.get("defaultConstraints") or []]
    problems = _defaulting_type(child(base, "defaultingType"), args["defaultingType"], constraints)
    path = child(base, "defaultConstraints")
    seen: set[tuple[str, str]] = set()
    for i, c in enumerate(constraints):
        problems += _constraint(child(path, i), c)
        pair = (c.get("topologyKey") or "", c.get("whenUnsatisfiable") or "")
        if pair in seen:
            problems.append(duplicate(child(path, i), f"{{{pair[0]}, {pair[1]}}}"))
        seen.add(pair)
    return problems


def _shape_repr(shape: list[dict[str, Any]]) -> GoRepr:
    items = ", ".join(
        "config.UtilizationShapePoint{"
        f"Utilization:{p.get('utilization') or 0}, Score:{p.get('score') or 0}}}"
        for p in shape
    )
    return GoRepr(f"[]config.UtilizationShapePoint{{{items}}}")


def validate_function_shape(
    path: str, shape: list[dict[str, Any]], at: str | None = None, short_message: bool = False
) -> list[Problem]:
    """validateFunctionShape; ``short_message``: v1.34's wording."""
    at = at or path
    if not shape:
        return [required(path, "at least one point must be specified", at)]
    problems = []
    points = [(p.get("utilization") or 0, p.get("score") or 0) for p in shape]
    for i in range(1, len(points)):
        if points[i - 1][0] >= points[i][0]:
            detail = "values must be sorted in increasing order"
            if not short_message:
                detail = "utilization " + detail
            problems.append(
                invalid(
                    child(path, i, "utilization"), points[i][0], detail, child(at, i, "utilization")
                )
            )
            break
    for i, (utilization, score) in enumerate(points):
        if not 0 <= utilization <= 100:
            where = child(path, i, "utilization")
            problems.append(
                invalid(
                    where, utilization, "not in valid range [0, 100]", child(at, i, "utilization")
                )
            )
        if not 0 <= score <= MAX_CUSTOM_PRIORITY_SCORE:
            detail = f"not in valid range [0, {MAX_CUSTOM_PRIORITY_SCORE}]"
            problems.append(invalid(child(path, i, "score"), score, detail, child(at, i, "score")))
    return problems


def _resource_weights(path: str, resources: list[dict[str, Any]]) -> list[Problem]:
    problems = []
    for i, resource in enumerate(resources):
        weight = resource.get("weight") or 0
        if not 0 < weight <= 100:
            detail = f"resource weight of {resource.get('name') or ''} not in valid range (0, 100]"
            problems.append(invalid(child(path, i, "weight"), weight, detail))
    return problems


def _is_scored_resource(name: str) -> bool:
    return (
        name in _SCORED_NATIVE
        or name.startswith(("hugepages-", "attachable-volumes-"))
        or "kubernetes.io/" in name
        or is_extended_resource_name(name)
    )


def resource_name_warnings(path: str, resources: list[dict[str, Any]]) -> list[Problem]:
    """Names no node can report: accepted by v1.30, silently skipped when scoring."""
    problems = []
    for i, resource in enumerate(resources):
        name = resource.get("name") or ""
        if not _is_scored_resource(name):
            message = (
                f'unknown resource "{name}": not cpu, memory, ephemeral-storage, hugepages-* '
                "or an extended resource (domain/name); kube-scheduler v1.30 accepts it "
                "but ignores it when scoring"
            )
            problems.append(warning(child(path, i, "name"), message))
    return problems


def validate_balanced_allocation(base: str, args: dict[str, Any]) -> list[Problem]:
    problems = []
    seen: set[str] = set()
    path = child(base, "resources")
    for i, resource in enumerate(args["resources"]):
        name, weight = resource.get("name") or "", resource.get("weight") or 0
        if name in seen:
            problems.append(duplicate(child(path, i, "name"), name))
        seen.add(name)
        if weight != 1:
            problems.append(invalid(child(path, i, "weight"), weight, "must be 1"))
    return problems + resource_name_warnings(path, args["resources"])


def validate_volume_binding(
    base: str, args: dict[str, Any], gate: str = "VolumeCapacityPriority"
) -> list[Problem]:
    """ValidateVolumeBindingArgs; ``gate``: the scoring gate the shape error names (v1.33
    renamed it StorageCapacityScoring; off by default in every release replayed)."""
    problems = []
    timeout = args["bindTimeoutSeconds"]
    if timeout < 0:
        detail = "invalid BindTimeoutSeconds, should not be a negative value"
        problems.append(invalid(child(base, "bindTimeoutSeconds"), timeout, detail))
    shape = args.get("shape")
    if shape is not None:
        detail = f"unexpected field `shape`, remove it or turn on the feature gate {gate}"
        problems.append(invalid(child(base, "shape"), _shape_repr(shape), detail))
    return problems


def validate_node_resources_fit(
    base: str, args: dict[str, Any], short_shape_message: bool = False, ratio_v136: bool = False
) -> list[Problem]:
    """ValidateNodeResourcesFitArgs; ``ratio_v136``: v1.36's requestedToCapacityRatio rules."""
    problems: list[Problem] = []
    for i, name in enumerate(args.get("ignoredResources") or []):
        problems += validate_label_name(name, child(base, "ignoredResources", i))
    for i, group in enumerate(args.get("ignoredResourceGroups") or []):
        path = child(base, "ignoredResourceGroups", i)
        if "/" in group:
            problems.append(invalid(path, group, "resource group name can't contain '/'"))
        problems += validate_label_name(group, path)
    strategy = args["scoringStrategy"]
    path = child(base, "scoringStrategy")
    kind = strategy.get("type") or ""
    if kind not in SCORING_STRATEGIES:
        problems.append(not_supported(child(path, "type"), kind, SCORING_STRATEGIES))
    problems += _resource_weights(child(path, "resources"), strategy["resources"])
    check_ratio = _ratio_v136 if ratio_v136 else _ratio_v130
    ratio = strategy.get("requestedToCapacityRatio")
    problems += check_ratio(path, kind, ratio, short_shape_message)
    return problems + resource_name_warnings(child(path, "resources"), strategy["resources"])


def _ratio_v130(
    path: str, kind: str, ratio: dict[str, Any] | None, short_message: bool
) -> list[Problem]:
    if ratio is None:
        if kind == "RequestedToCapacityRatio":
            return [_missing_ratio(child(path, "requestedToCapacityRatio"))]
        return []
    # v1.30-1.35 report this at scoringStrategy.shape, skipping requestedToCapacityRatio,
    # and check it whatever the type.
    at = child(path, "requestedToCapacityRatio", "shape")
    shape = ratio.get("shape") or []
    return validate_function_shape(child(path, "shape"), shape, at, short_message)


def _ratio_v136(
    path: str, kind: str, ratio: dict[str, Any] | None, short_message: bool
) -> list[Problem]:
    ratio_path = child(path, "requestedToCapacityRatio")
    if kind == "RequestedToCapacityRatio":
        if ratio is None:
            return [required(ratio_path, "must be specified when type is RequestedToCapacityRatio")]
        shape_path = child(ratio_path, "shape")
        return validate_function_shape(shape_path, ratio.get("shape") or [], None, short_message)
    if ratio is not None:
        return [forbidden(ratio_path, "must be nil when type is not RequestedToCapacityRatio")]
    return []


def _missing_ratio(path: str) -> Problem:
    # v1.30-1.35 neither default nor validate it: NewFit dereferences the missing shape and
    # kube-scheduler crashes at start-up. ksched refuses the configuration instead.
    return required(
        path,
        "type RequestedToCapacityRatio needs requestedToCapacityRatio.shape (v1.30 has no "
        "default: kube-scheduler crashes at start-up without it)",
    )


def validate_coscheduling(base: str, args: dict[str, Any]) -> list[Problem]:
    backoff = args["podGroupBackoffSeconds"]
    if backoff < 0:
        return [
            invalid(
                child(base, "podGroupBackoffSeconds"),
                backoff,
                "PodGroupBackoffSeconds cannot be negative",
            )
        ]
    return []


def validate_coscheduling_v032(base: str, args: dict[str, Any]) -> list[Problem]:
    """ValidateCoschedulingArgs of scheduler-plugins v0.32.7: both fields, every problem."""
    return [
        invalid(child(base, key), args[key], "must be greater than 0")
        for key in ("permitWaitingTimeSeconds", "podGroupBackoffSeconds")
        if args[key] < 0
    ]


# validatePluginConfig's table. NodeResourcesFit is missing on purpose: v1.30 keys it
# as "NodeResourcesFitArgs", so its args are only checked when the plugin starts.
def validate_dynamic_resources(base: str, args: dict[str, Any]) -> list[Problem]:
    """ValidateDynamicResourcesArgs of v1.35.7 and its strict decoding."""
    problems = [
        plain(child(base, key), f'unknown field "{key}"')
        for key in args
        if key not in ("apiVersion", "kind", "filterTimeout", "bindingTimeout")
    ]
    timeout = args.get("filterTimeout")
    path = child(base, "filterTimeout")
    try:
        if parse_duration(str(timeout)) < 0:
            problems.append(invalid(path, timeout, "must be zero or positive"))
    except ValueError as exc:
        problems.append(invalid(path, timeout, str(exc)))
    if args.get("bindingTimeout") is not None:
        problems.append(
            forbidden(
                child(base, "bindingTimeout"),
                "DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate is "
                "disabled",
            )
        )
    return problems


CONFIG_VALIDATORS: dict[str, Validator] = {
    "DefaultPreemption": validate_default_preemption,
    "InterPodAffinity": validate_inter_pod_affinity,
    "NodeAffinity": validate_added_affinity,
    "NodeResourcesBalancedAllocation": validate_balanced_allocation,
    "PodTopologySpread": validate_pod_topology_spread,
    "VolumeBinding": validate_volume_binding,
}

# Checks a plugin's constructor makes beyond the table above (only for enabled plugins).
INIT_VALIDATORS: dict[str, Validator] = {
    "NodeResourcesFit": validate_node_resources_fit,
    "Coscheduling": validate_coscheduling,
}
