"""Typed plugin args (v1.30 types_pluginargs.go, plus scheduler-plugins' CoschedulingArgs)."""

from __future__ import annotations

from dataclasses import field

from ..api.pod import TopologySpreadConstraint
from ..api.selectors import NodeAffinity
from ..record import record

LEAST_ALLOCATED = "LeastAllocated"
MOST_ALLOCATED = "MostAllocated"
REQUESTED_TO_CAPACITY_RATIO = "RequestedToCapacityRatio"
SYSTEM_DEFAULTING = "System"
LIST_DEFAULTING = "List"


@record(frozen=True)
class ResourceSpec:
    """A resource and its weight in a scoring strategy."""

    name: str
    weight: int = 1


@record(frozen=True)
class UtilizationShapePoint:
    """One point of a utilization -> score shape."""

    utilization: int
    score: int


def default_resources() -> list[ResourceSpec]:
    return [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]


@record
class ScoringStrategy:
    """NodeResourcesFit's scoring strategy."""

    type: str = LEAST_ALLOCATED
    resources: list[ResourceSpec] = field(default_factory=default_resources)
    shape: list[UtilizationShapePoint] = field(default_factory=list)  # RequestedToCapacityRatio


@record
class DefaultPreemptionArgs:
    """DefaultPreemption's args, defaulted."""

    min_candidate_nodes_percentage: int = 10
    min_candidate_nodes_absolute: int = 100


@record
class InterPodAffinityArgs:
    """InterPodAffinity's args, defaulted."""

    hard_pod_affinity_weight: int = 1
    ignore_preferred_terms_of_existing_pods: bool = False


@record
class NodeResourcesFitArgs:
    """NodeResourcesFit's args, defaulted."""

    ignored_resources: list[str] = field(default_factory=list)
    ignored_resource_groups: list[str] = field(default_factory=list)
    scoring_strategy: ScoringStrategy = field(default_factory=ScoringStrategy)


@record
class PodTopologySpreadArgs:
    """PodTopologySpread's args, defaulted."""

    default_constraints: list[TopologySpreadConstraint] = field(default_factory=list)
    defaulting_type: str = SYSTEM_DEFAULTING


@record
class NodeResourcesBalancedAllocationArgs:
    """NodeResourcesBalancedAllocation's args, defaulted."""

    resources: list[ResourceSpec] = field(default_factory=default_resources)


@record
class VolumeBindingArgs:
    """VolumeBinding's args, defaulted."""

    bind_timeout_seconds: int = 600
    # VolumeCapacityPriority is alpha (off) in v1.30, so no default shape.
    shape: list[UtilizationShapePoint] = field(default_factory=list)


@record
class NodeAffinityArgs:
    """NodeAffinity's args, defaulted."""

    added_affinity: NodeAffinity | None = None


@record
class CoschedulingArgs:
    """Coscheduling's args (scheduler-plugins), defaulted."""

    permit_waiting_time_seconds: int = 60
    pod_group_backoff_seconds: int = 0


@record
class DynamicResourcesArgs:
    """DynamicResourcesArgs (v1.34+); ksched plans no claims, so the timeout is informative."""

    filter_timeout_seconds: float = 10.0
