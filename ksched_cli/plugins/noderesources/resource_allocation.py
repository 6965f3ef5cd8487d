"""The resource scorer shared by NodeResourcesFit's strategies and BalancedAllocation.

Mirrors resourceAllocationScorer (resource_allocation.go): for each configured
resource it pairs the node's allocatable amount with what the node would have
requested once the pod is placed, then hands both lists to a strategy function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...api.pod import Pod, container_requests
from ...api.resources import CPU, EPHEMERAL_STORAGE, MEMORY, is_scalar_resource
from ...config.args import ResourceSpec
from ...framework.cycle_state import CycleState
from ...framework.nodeinfo import NodeInfo, Resource
from ...framework.status import Code, Status

# requested, allocatable (same order as the configured resources) -> node score.
ScorerFn = Callable[[Sequence[int], Sequence[int]], int]

# How a configured resource name is looked up; resolved once per plugin.
_CPU, _MEMORY, _EPHEMERAL, _SCALAR, _OTHER = range(5)


def _kind(name: str) -> int:
    if name == CPU:
        return _CPU
    if name == MEMORY:
        return _MEMORY
    if name == EPHEMERAL_STORAGE:
        return _EPHEMERAL
    # Anything else is only scored when the node lists it as a scalar resource
    # ("pods", "storage" and other non-scalar names never are).
    return _SCALAR if is_scalar_resource(name) else _OTHER


class PreScoreState:
    """The pod's request list, as PreScore stores it for Score (never mutated after)."""

    __slots__ = ("pod_requests",)

    def __init__(self, pod_requests: list[int]) -> None:
        self.pod_requests = pod_requests

    def clone(self) -> PreScoreState:
        return self


class ResourceAllocationScorer:
    """Scores a node from its allocatable and requested amounts of ``resources``."""

    __slots__ = (
        "_kinds",
        "_lookups",
        "_names",
        "name",
        "pod_level",
        "resources",
        "scorer",
        "use_requested",
    )

    def __init__(
        self,
        name: str,
        scorer: ScorerFn,
        resources: Sequence[ResourceSpec],
        use_requested: bool,
        pod_level: bool = True,
    ) -> None:
        self.name = name
        self.scorer = scorer
        self.resources = tuple(resources)
        # Fit's strategies score against the non-zero defaults (100m cpu, 200Mi
        # memory per container without a request) so that request-less pods still
        # spread; BalancedAllocation uses the real requests.
        self.use_requested = use_requested
        # NodeResourcesFit's strategy scorers are built without the PodLevelResources
        # option (v1.34-v1.36 nodeResourceStrategyTypeMap), so they sum containers.
        self.pod_level = pod_level
        self._names = tuple(r.name for r in self.resources)
        self._kinds = tuple(_kind(r.name) for r in self.resources)
        self._lookups = tuple(zip(self._kinds, self._names, strict=True))

    def pre_score(self, state: CycleState, key: str, pod: Pod) -> None:
        """Store the pod's request list under the plugin's PreScore ``key``."""
        state.write(key, PreScoreState(self.pod_request_list(pod)))

    def requests(self, state: CycleState, key: str, pod: Pod) -> list[int]:
        """The pod's requests PreScore stored, or computed again if it did not run."""
        pre = state.get(key)
        if isinstance(pre, PreScoreState):
            return pre.pod_requests
        return self.pod_request_list(pod)

    def pod_request_list(self, pod: Pod) -> list[int]:
        """calculatePodResourceRequestList: the pod's request of each resource, in order."""
        if not self.pod_level and pod.pod_resources is not None:
            requests = container_requests(pod, non_zero=not self.use_requested)
        else:
            requests = pod.requests if self.use_requested else pod.non_zero_requests
        return [requests.get(name, 0) for name in self._names]

    def allocatable_requested(
        self, node_info: NodeInfo, index: int, pod_request: int
    ) -> tuple[int, int]:
        """calculateResourceAllocatableRequest for the ``index``-th resource.

        (0, 0) means "leave this resource out": an extended resource the pod does
        not request, or a resource the node does not have.
        """
        used = node_info.requested if self.use_requested else node_info.non_zero_requested
        return _allocatable_requested(
            self._kinds[index], self._names[index], node_info, used, pod_request
        )

    def score(self, node_info: NodeInfo, pod_requests: Sequence[int]) -> tuple[int, Status | None]:
        if not self._kinds:
            return 0, Status(Code.ERROR, "resources not found")
        used = node_info.requested if self.use_requested else node_info.non_zero_requested
        node_alloc = node_info.allocatable
        requested: list[int] = []
        allocatable: list[int] = []
        for i, (kind, name) in enumerate(self._lookups):
            pod_request = pod_requests[i]
            # cpu and memory inline: this loop runs for every scored node.
            if kind == _CPU:
                alloc, req = node_alloc.milli_cpu, used.milli_cpu + pod_request
            elif kind == _MEMORY:
                alloc, req = node_alloc.memory, used.memory + pod_request
            else:
                alloc, req = _allocatable_requested(kind, name, node_info, used, pod_request)
            # A resource left out shows as (0, 0) to the strategy function.
            allocatable.append(alloc)
            requested.append(req if alloc else 0)
        return self.scorer(requested, allocatable), None


    def requested_scalars(self, pod_requests: Sequence[int]) -> tuple[bool, ...]:
        """Per configured resource, whether it is an extended resource the pod requests
        (the only way the pod decides whether a resource is left out)."""
        return tuple(
            kind == _SCALAR and request != 0
            for kind, request in zip(self._kinds, pod_requests, strict=True)
        )

    def lists(
        self, node_info: NodeInfo, pod_requests: Sequence[int]
    ) -> tuple[list[int], list[int], list[int]]:
        """(requested, allocated, allocatable) as v1.36's calculateNodeAllocatableRequest
        builds them: ``allocated`` is the node's use before the pod, ``requested`` after it,
        and a resource left out is zero in all three."""
        requested: list[int] = []
        allocated: list[int] = []
        allocatable: list[int] = []
        for i in range(len(self._kinds)):
            alloc, req = self.allocatable_requested(node_info, i, pod_requests[i])
            allocatable.append(alloc)
            requested.append(req if alloc else 0)
            allocated.append(req - pod_requests[i] if alloc else 0)
        return requested, allocated, allocatable


def _allocatable_requested(
    kind: int, name: str, node_info: NodeInfo, used: Resource, pod_request: int
) -> tuple[int, int]:
    """``used`` is the aggregate cpu and memory come from (real or non-zero requests)."""
    if kind == _CPU:
        return node_info.allocatable.milli_cpu, used.milli_cpu + pod_request
    if kind == _MEMORY:
        return node_info.allocatable.memory, used.memory + pod_request
    if kind == _EPHEMERAL:
        # The non-zero aggregate tracks cpu and memory only.
        return (
            node_info.allocatable.ephemeral_storage,
            node_info.requested.ephemeral_storage + pod_request,
        )
    if kind == _SCALAR and pod_request != 0:
        allocatable = node_info.allocatable.scalar_resources.get(name, 0)
        if allocatable:
            return allocatable, node_info.requested.scalar_resources.get(name, 0) + pod_request
    return 0, 0
