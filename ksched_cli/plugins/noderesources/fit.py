"""NodeResourcesFit (noderesources/fit.go): does the node have room for the pod's requests?"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...api.pod import Pod
from ...api.resources import CPU, EPHEMERAL_STORAGE, MEMORY, PODS, is_scalar_resource
from ...config.args import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    NodeResourcesFitArgs,
)
from ...framework.columns import BoolArray, IntArray, NodeColumns
from ...framework.cycle_state import CycleState
from ...framework.interface import Handle, PreFilterExtensions, ScoreExtensions
from ...framework.nodeinfo import NodeInfo
from ...framework.status import Code, Status, as_error
from ...framework.types import PreFilterResult
from ...record import record
from ...versions.features import features_of
from .resource_allocation import ResourceAllocationScorer, ScorerFn
from .vector import fit_mask_at, fit_statuses, has_array_form, strategy_scores

NAME = "NodeResourcesFit"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME
PRE_SCORE_STATE_KEY = "PreScore" + NAME

# SidecarContainers is beta and on by default in v1.30, so the PreFilter rejection
# of restartable init containers never fires; kept so the switch is explicit.
ENABLE_SIDECAR_CONTAINERS = True
SIDECARS_DISABLED_MSG = (
    "Pod has a restartable init container and the SidecarContainers feature is disabled"
)

_QUALIFIED_NAME = re.compile(
    r"^(?:[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*/)?"
    r"[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?$"
)


def is_extended_resource_name(name: str) -> bool:
    """v1helper.IsExtendedResourceName: only these can be ignored by the args."""
    if "/" not in name or "kubernetes.io/" in name or name.startswith("requests."):
        return False
    quota_name = "requests." + name
    prefix, _, local = quota_name.rpartition("/")
    return len(prefix) <= 253 and len(local) <= 63 and bool(_QUALIFIED_NAME.match(quota_name))


@record(frozen=True, slots=True)
class InsufficientResource:
    """A resource the node lacks for the pod, with the numbers."""

    resource_name: str
    reason: str
    requested: int
    used: int
    capacity: int
    # From v1.34: the request exceeds the node's whole allocatable, so no preemption helps.
    unresolvable: bool = False


class PreFilterState:
    """The pod's request as the filter checks it (framework.Resource via SetMaxResource).

    ``scalars`` holds only the extended/scalar requests the filter must check:
    non-zero and not ignored by the plugin args, each with its failure reason.
    ``unresolvable_check``: the release marks a request over the node's allocatable
    UnschedulableAndUnresolvable (v1.34+).
    """

    __slots__ = (
        "empty",
        "ephemeral_storage",
        "memory",
        "milli_cpu",
        "scalars",
        "unresolvable_check",
    )

    def __init__(
        self,
        milli_cpu: int,
        memory: int,
        ephemeral_storage: int,
        scalars: tuple[tuple[str, int, str], ...],
        unresolvable_check: bool = False,
    ) -> None:
        self.milli_cpu = milli_cpu
        self.memory = memory
        self.ephemeral_storage = ephemeral_storage
        self.scalars = scalars
        self.unresolvable_check = unresolvable_check
        self.empty = not (milli_cpu or memory or ephemeral_storage or scalars)

    def clone(self) -> PreFilterState:
        return self  # never mutated after PreFilter

    def __repr__(self) -> str:
        return (
            f"PreFilterState(cpu={self.milli_cpu}, memory={self.memory}, "
            f"ephemeral={self.ephemeral_storage}, scalars={self.scalars})"
        )


def compute_pod_resource_request(
    pod: Pod,
    ignored: frozenset[str] = frozenset(),
    ignored_groups: frozenset[str] = frozenset(),
    unresolvable_check: bool = False,
) -> PreFilterState:
    """computePodResourceRequest, with the args' ignore lists applied up front."""
    requests = pod.requests
    scalars = []
    for name, amount in requests.items():
        if name in (CPU, MEMORY, EPHEMERAL_STORAGE, PODS) or not is_scalar_resource(name):
            continue
        if amount <= 0:
            continue
        if is_extended_resource_name(name) and (
            name in ignored or (ignored_groups and name.split("/", 1)[0] in ignored_groups)
        ):
            continue
        scalars.append((name, amount, f"Insufficient {name}"))
    return PreFilterState(
        max(requests.get(CPU, 0), 0),
        max(requests.get(MEMORY, 0), 0),
        max(requests.get(EPHEMERAL_STORAGE, 0), 0),
        tuple(scalars),
        unresolvable_check,
    )


def fits_request(request: PreFilterState, node_info: NodeInfo) -> list[InsufficientResource]:
    """fitsRequest: every shortfall, in kube-scheduler's order."""
    out: list[InsufficientResource] = []
    alloc = node_info.allocatable
    pod_count = len(node_info.pods)
    if pod_count + 1 > alloc.allowed_pod_number:
        out.append(
            InsufficientResource(PODS, "Too many pods", 1, pod_count, alloc.allowed_pod_number)
        )
    if request.empty:
        return out
    used = node_info.requested
    check = request.unresolvable_check  # v1.34+ marks requests over the allocatable
    cpu = request.milli_cpu
    if cpu > 0 and cpu > alloc.milli_cpu - used.milli_cpu:
        out.append(
            InsufficientResource(
                CPU,
                "Insufficient cpu",
                cpu,
                used.milli_cpu,
                alloc.milli_cpu,
                check and cpu > alloc.milli_cpu,
            )
        )
    mem = request.memory
    if mem > 0 and mem > alloc.memory - used.memory:
        out.append(
            InsufficientResource(
                MEMORY,
                "Insufficient memory",
                mem,
                used.memory,
                alloc.memory,
                check and mem > alloc.memory,
            )
        )
    eph = request.ephemeral_storage
    if eph > 0 and eph > alloc.ephemeral_storage - used.ephemeral_storage:
        out.append(
            InsufficientResource(
                EPHEMERAL_STORAGE,
                "Insufficient ephemeral-storage",
                eph,
                used.ephemeral_storage,
                alloc.ephemeral_storage,
                check and eph > alloc.ephemeral_storage,
            )
        )
    if request.scalars:
        capacities = alloc.scalar_resources
        usages = used.scalar_resources
        for name, amount, reason in request.scalars:
            capacity = capacities.get(name, 0)
            usage = usages.get(name, 0)
            if amount > capacity - usage:
                out.append(
                    InsufficientResource(
                        name, reason, amount, usage, capacity, check and amount > capacity
                    )
                )
    return out


def fits(pod: Pod, node_info: NodeInfo) -> list[InsufficientResource]:
    """Fits: the check without any ignored resources (used outside the filter)."""
    return fits_request(compute_pod_resource_request(pod), node_info)


def _strategy_scorer(args: NodeResourcesFitArgs) -> ScorerFn:
    # Only the profile's strategy is imported (start-up).
    strategy = args.scoring_strategy
    if strategy.type == LEAST_ALLOCATED:
        from .least_allocated import least_resource_scorer

        return least_resource_scorer(strategy.resources)
    if strategy.type == MOST_ALLOCATED:
        from .most_allocated import most_resource_scorer

        return most_resource_scorer(strategy.resources)
    if strategy.type == REQUESTED_TO_CAPACITY_RATIO:
        from .requested_to_capacity_ratio import requested_to_capacity_ratio_scorer

        return requested_to_capacity_ratio_scorer(strategy.resources, strategy.shape)
    raise ValueError(f"scoring strategy {strategy.type} is not supported")


class Fit:
    """PreFilter, Filter, PreScore and Score of NodeResourcesFit."""

    name = NAME

    def __init__(self, args: NodeResourcesFitArgs | None, handle: Handle | None = None) -> None:
        args = args if args is not None else NodeResourcesFitArgs()
        self.handle = handle
        self.ignored_resources = frozenset(args.ignored_resources)
        self.ignored_resource_groups = frozenset(args.ignored_resource_groups)
        self.unresolvable_check = features_of(handle).fit_unresolvable_over_allocatable
        self.strategy = args.scoring_strategy.type
        self.weights = tuple(r.weight for r in args.scoring_strategy.resources)
        self.scorer = ResourceAllocationScorer(
            args.scoring_strategy.type,
            _strategy_scorer(args),
            args.scoring_strategy.resources,
            use_requested=False,
            pod_level=False,
        )

    def pre_filter(
        self, state: CycleState, pod: Pod
    ) -> tuple[PreFilterResult | None, Status | None]:
        if not ENABLE_SIDECAR_CONTAINERS and any(
            c.restart_policy == "Always" for c in pod.init_containers
        ):
            return None, Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, SIDECARS_DISABLED_MSG)
        request = compute_pod_resource_request(
            pod, self.ignored_resources, self.ignored_resource_groups, self.unresolvable_check
        )
        state.write(PRE_FILTER_STATE_KEY, request)
        return None, None

    def pre_filter_extensions(self) -> PreFilterExtensions | None:
        return None

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        request = state.get(PRE_FILTER_STATE_KEY)
        if not isinstance(request, PreFilterState):
            return as_error(f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: not found')
        insufficient = fits_request(request, node_info)
        if not insufficient:
            return None
        # Before v1.34 every shortfall is Unschedulable, even a request larger than
        # the node's whole allocatable, so preemption still considers the node.
        code = Code.UNSCHEDULABLE
        if request.unresolvable_check and any(r.unresolvable for r in insufficient):
            code = Code.UNSCHEDULABLE_AND_UNRESOLVABLE
        return Status(code, *(r.reason for r in insufficient))

    def filter_mask(self, state: CycleState, pod: Pod, columns: NodeColumns) -> BoolArray | None:
        request = state.get(PRE_FILTER_STATE_KEY)
        if not isinstance(request, PreFilterState):
            return None
        # The mask depends on the pod only through its request: a derived column per
        # request, brought up to date by fitsRequest itself on the nodes that changed.
        key = (
            NAME,
            request.milli_cpu,
            request.memory,
            request.ephemeral_storage,
            tuple((name, amount) for name, amount, _ in request.scalars),
        )
        return columns.derived(
            key,
            lambda at: fit_mask_at(request, columns, at),
            lambda ni: not fits_request(request, ni),
        )

    def filter_statuses(
        self, state: CycleState, pod: Pod, columns: NodeColumns, positions: IntArray
    ) -> list[Status | None] | None:
        """Filter's status for many live nodes at once (same reasons, same order)."""
        request = state.get(PRE_FILTER_STATE_KEY)
        if not isinstance(request, PreFilterState):
            return None
        return fit_statuses(request, columns, positions)

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        self.scorer.pre_score(state, PRE_SCORE_STATE_KEY, pod)
        return None

    def score_array(
        self, state: CycleState, pod: Pod, columns: NodeColumns, index: IntArray
    ) -> IntArray | None:
        requests = self.scorer.requests(state, PRE_SCORE_STATE_KEY, pod)
        if not self.scorer.resources or not has_array_form(self.strategy):
            return None
        # A node's score depends on the pod only through its requests: one live column
        # per request list, recomputed only where pods were bound or removed.
        weights, scorer, strategy = self.weights, self.scorer, self.strategy

        def compute(positions: IntArray) -> IntArray:
            scores = strategy_scores(strategy, weights, scorer, requests, columns, positions)
            assert scores is not None
            return scores

        def compute_one(node_info: NodeInfo) -> int:
            return scorer.score(node_info, requests)[0]

        return columns.derived((NAME, self, tuple(requests)), compute, compute_one)[index]

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status | None]:
        return self.scorer.score(node_info, self.scorer.requests(state, PRE_SCORE_STATE_KEY, pod))

    def score_extensions(self) -> ScoreExtensions | None:
        return None


Plugin = Fit
