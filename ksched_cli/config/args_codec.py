"""Defaulted v1 args dicts -> the typed args objects of ``args.py`` the engine reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..api.pod import parse_spread_constraint
from ..api.selectors import parse_node_affinity
from ..errors import ObjectError
from .args import (
    CoschedulingArgs,
    DefaultPreemptionArgs,
    DynamicResourcesArgs,
    InterPodAffinityArgs,
    NodeAffinityArgs,
    NodeResourcesBalancedAllocationArgs,
    NodeResourcesFitArgs,
    PodTopologySpreadArgs,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
    VolumeBindingArgs,
)
from .godur import parse_duration
from .problems import Problem, child, plain


def _resources(raw: list[dict[str, Any]]) -> list[ResourceSpec]:
    return [ResourceSpec(r.get("name") or "", r.get("weight") or 1) for r in raw]


def _shape(raw: list[dict[str, Any]] | None) -> list[UtilizationShapePoint]:
    return [
        UtilizationShapePoint(p.get("utilization") or 0, p.get("score") or 0) for p in raw or []
    ]


def _fit(args: dict[str, Any], _path: str) -> NodeResourcesFitArgs:
    strategy = args["scoringStrategy"]
    ratio = strategy.get("requestedToCapacityRatio") or {}
    return NodeResourcesFitArgs(
        ignored_resources=list(args.get("ignoredResources") or []),
        ignored_resource_groups=list(args.get("ignoredResourceGroups") or []),
        scoring_strategy=ScoringStrategy(
            type=strategy.get("type") or "",
            resources=_resources(strategy["resources"]),
            shape=_shape(ratio.get("shape")),
        ),
    )


def _spread(args: dict[str, Any], path: str) -> PodTopologySpreadArgs:
    base = child(path, "defaultConstraints")
    constraints = [
        parse_spread_constraint(c or {}, child(base, i))
        for i, c in enumerate(args.get("defaultConstraints") or [])
    ]
    return PodTopologySpreadArgs(
        default_constraints=constraints, defaulting_type=args["defaultingType"]
    )


def _node_affinity(args: dict[str, Any], path: str) -> NodeAffinityArgs:
    raw = args.get("addedAffinity")
    return NodeAffinityArgs(added_affinity=parse_node_affinity(raw, child(path, "addedAffinity")))


_DECODERS: dict[str, Callable[[dict[str, Any], str], Any]] = {
    "DynamicResourcesArgs": lambda a, _p: DynamicResourcesArgs(
        parse_duration(str(a["filterTimeout"])) / 1e9
    ),
    "DefaultPreemptionArgs": lambda a, _p: DefaultPreemptionArgs(
        a["minCandidateNodesPercentage"], a["minCandidateNodesAbsolute"]
    ),
    "InterPodAffinityArgs": lambda a, _p: InterPodAffinityArgs(
        a["hardPodAffinityWeight"], bool(a.get("ignorePreferredTermsOfExistingPods"))
    ),
    "NodeResourcesFitArgs": _fit,
    "PodTopologySpreadArgs": _spread,
    "NodeResourcesBalancedAllocationArgs": lambda a, _p: NodeResourcesBalancedAllocationArgs(
        _resources(a["resources"])
    ),
    "VolumeBindingArgs": lambda a, _p: VolumeBindingArgs(
        a["bindTimeoutSeconds"], _shape(a.get("shape"))
    ),
    "NodeAffinityArgs": _node_affinity,
    "CoschedulingArgs": lambda a, _p: CoschedulingArgs(
        a["permitWaitingTimeSeconds"], a["podGroupBackoffSeconds"]
    ),
}


def decode_args(kind: str, args: dict[str, Any], path: str) -> tuple[Any, Problem | None]:
    """The typed args of ``kind``; ``path`` is where the args are, for error messages."""
    try:
        return _DECODERS[kind](args, path), None
    except ObjectError as exc:
        return None, plain(exc.field, exc.message)
