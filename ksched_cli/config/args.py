"""Typed plugin args (v1.30 types_pluginargs.go, plus scheduler-plugins' CoschedulingArgs)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..api.pod import TopologySpreadConstraint
from ..api.selectors import NodeAffinity

LEAST_ALLOCATED = "LeastAllocated"
MOST_ALLOCATED = "MostAllocated"
REQUESTED_TO_CAPACITY_RATIO = "RequestedToCapacityRatio"
SYSTEM_DEFAULTING = "System"
LIST_DEFAULTING = "List"


@dataclass(frozen=True)
class ResourceSpec:
    name: str
    weight: int = 1


@dataclass(frozen=True)
class UtilizationShapePoint:
    utilization: int
    score: int


def default_resources() -> list[ResourceSpec]:
    return [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]


@dataclass
class ScoringStrategy:
    type: str = LEAST_ALLOCATED
    resources: list[ResourceSpec] = field(default_factory=default_resources)
    shape: list[UtilizationShapePoint] = field(default_factory=list)  # RequestedToCapacityRatio


@dataclass
class DefaultPreemptionArgs:
    min_candidate_nodes_percentage: int = 10
    min_candidate_nodes_absolute: int = 100


@dataclass
class InterPodAffinityArgs:
    hard_pod_affinity_weight: int = 1
    ignore_preferred_terms_of_existing_pods: bool = False


@dataclass
class NodeResourcesFitArgs:
    ignored_resources: list[str] = field(default_factory=list)
    ignored_resource_groups: list[str] = field(default_factory=list)
    scoring_strategy: ScoringStrategy = field(default_factory=ScoringStrategy)


@dataclass
class PodTopologySpreadArgs:
    default_constraints: list[TopologySpreadConstraint] = field(default_factory=list)
    defaulting_type: str = SYSTEM_DEFAULTING


@dataclass
class NodeResourcesBalancedAllocationArgs:
    resources: list[ResourceSpec] = field(default_factory=default_resources)


@dataclass
class VolumeBindingArgs:
    bind_timeout_seconds: int = 600
    # VolumeCapacityPriority is alpha (off) in v1.30, so no default shape.
    shape: list[UtilizationShapePoint] = field(default_factory=list)


@dataclass
class NodeAffinityArgs:
    added_affinity: NodeAffinity | None = None


@dataclass
class CoschedulingArgs:
    permit_waiting_time_seconds: int = 60
    pod_group_backoff_seconds: int = 0


@dataclass
class DynamicResourcesArgs:
    """DynamicResourcesArgs (v1.34+); ksched plans no claims, so the timeout is informative."""

    filter_timeout_seconds: float = 10.0
