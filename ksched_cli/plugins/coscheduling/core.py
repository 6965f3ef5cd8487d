"""PodGroupManager: the PodGroup bookkeeping behind Coscheduling (scheduler-plugins v0.30).

Pods come from the informer view (``handle.cluster.pods``: every pod the API server
knows), assigned members from the node snapshot, which includes assumed and waiting
pods. The two TTL caches expire on the simulated clock, checked when read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from typing import TYPE_CHECKING

from ...api.pod import Pod
from ...api.podgroup import POD_GROUP_LABEL, PodGroup
from ...api.resources import CPU, EPHEMERAL_STORAGE, MEMORY, PODS, is_scalar_resource
from ...framework.cycle_state import CycleState
from ...framework.interface import Handle
from ...framework.nodeinfo import NodeInfo, Resource
from ...framework.types import PODS_TO_ACTIVATE_KEY, PodsToActivate
from ...record import record
from .quantity import (
    BINARY_SI,
    DECIMAL_SI,
    GoQuantity,
    format_resource_list,
    new_quantity,
    parse_go_quantity,
)

if TYPE_CHECKING:
    from ...framework.cluster_view import ClusterView

PERMIT_STATE_KEY = "PermitCoscheduling"
# go-cache defaults of the two caches; a TTL of 0 means "use the default".
PERMITTED_DEFAULT_TTL = 3.0
BACKED_OFF_DEFAULT_TTL = 10.0


class PermitDecision(Enum):
    POD_GROUP_NOT_SPECIFIED = "PodGroup not specified"
    POD_GROUP_NOT_FOUND = "PodGroup not found"
    SUCCESS = "Success"
    WAIT = "Wait"


@record(slots=True)
class PermitState:
    """Written by Permit when the group's first member waits, so siblings get activated."""

    activate: bool = False

    def clone(self) -> PermitState:
        return PermitState(self.activate)


class TTLCache:
    """go-cache on the simulated clock: Add keeps a live entry; reads expire lazily."""

    def __init__(self, clock: Callable[[], float], default_ttl: float) -> None:
        self._clock = clock
        self._default_ttl = default_ttl
        self._expires: dict[str, float | None] = {}  # None: never expires

    def contains(self, key: str) -> bool:
        if key not in self._expires:
            return False
        expires = self._expires[key]
        # go-cache treats an item as expired only once now is strictly past its expiry.
        return expires is None or self._clock() <= expires

    def add(self, key: str, ttl: float) -> bool:
        if self.contains(key):
            return False
        if ttl == 0:
            ttl = self._default_ttl
        self._expires[key] = self._clock() + ttl if ttl > 0 else None
        return True

    def delete(self, key: str) -> None:
        self._expires.pop(key, None)


def pod_group_label(pod: Pod) -> str:
    return pod.labels.get(POD_GROUP_LABEL, "")


def pod_group_full_name(pod: Pod) -> str:
    label = pod_group_label(pod)
    return f"{pod.namespace}/{label}" if label else ""


def namespaced_name(pod: Pod) -> str:
    return f"{pod.namespace}/{pod.name}"


class PodGroupManager:
    def __init__(self, handle: Handle, schedule_timeout: float) -> None:
        self.handle = handle
        # permitWaitingTimeSeconds: the default wait and the permitted-group TTL.
        self.schedule_timeout = schedule_timeout
        self.permitted = TTLCache(handle.now, PERMITTED_DEFAULT_TTL)
        self.backed_off = TTLCache(handle.now, BACKED_OFF_DEFAULT_TTL)

    @property
    def _cluster(self) -> ClusterView:
        return self.handle.cluster

    # --- lookups --------------------------------------------------------------------
    def get_pod_group(self, pod: Pod) -> tuple[str, PodGroup | None]:
        label = pod_group_label(pod)
        if not label:
            return "", None
        full_name = f"{pod.namespace}/{label}"
        return full_name, self._cluster.pod_groups.get(full_name)

    def creation_timestamp(self, pod: Pod, fallback: float) -> float:
        """The group's creation time for gang pods, ``fallback`` for the others."""
        _, pg = self.get_pod_group(pod)
        return fallback if pg is None else pg.creation_timestamp

    def group_pods(self, namespace: str, label: str) -> list[Pod]:
        """The pod lister's view: every pod labelled with the group, in any state."""
        return [
            p for p in self._cluster.pods
            if p.namespace == namespace and p.labels.get(POD_GROUP_LABEL) == label
        ]

    def calculate_assigned_pods(self, name: str, namespace: str, exclude_uid: str = "") -> int:
        """Members on a node in the snapshot: bound, assumed or waiting."""
        count = 0
        for info in self.handle.snapshot.list():
            for pi in info.pods:
                pod = pi.pod
                if (
                    pod.node_name
                    and pod.namespace == namespace
                    and pod_group_label(pod) == name
                    and pod.uid != exclude_uid
                ):
                    count += 1
        return count

    # --- PreFilter ------------------------------------------------------------------
    def pre_filter(self, pod: Pod) -> str | None:
        """None when the pod may go on, else the reason (UnschedulableAndUnresolvable)."""
        full_name, pg = self.get_pod_group(pod)
        if pg is None:
            return None
        if self.backed_off.contains(full_name):
            return f"podGroup {full_name} failed recently"
        members = len(self.group_pods(pod.namespace, pod_group_label(pod)))
        if members < pg.min_member:
            return (
                f"pre-filter pod {pod.name} cannot find enough sibling pods, "
                f"current pods number: {members}, minMember of group: {pg.min_member}"
            )
        request = min_resources_request(pg)
        if request is None or self.permitted.contains(full_name):
            return None
        gap = check_cluster_resource(self.handle.snapshot.list(), request, full_name)
        if gap is not None:
            return gap
        self.permitted.add(full_name, self.schedule_timeout)
        return None

    # --- Permit ---------------------------------------------------------------------
    def permit(self, state: CycleState, pod: Pod) -> PermitDecision:
        full_name, pg = self.get_pod_group(pod)
        if not full_name:
            return PermitDecision.POD_GROUP_NOT_SPECIFIED
        if pg is None:
            return PermitDecision.POD_GROUP_NOT_FOUND
        # kube-scheduler's snapshot does not hold the pod being permitted yet; ksched's
        # live snapshot already has it assumed, so it is left out and added back as "+1".
        assigned = self.calculate_assigned_pods(pg.name, pg.namespace, exclude_uid=pod.uid)
        if assigned + 1 >= pg.min_member:
            return PermitDecision.SUCCESS
        if assigned == 0:
            # Only the group's first waiting member activates its siblings.
            state.write(PERMIT_STATE_KEY, PermitState(activate=True))
        return PermitDecision.WAIT

    def activate_siblings(self, pod: Pod, state: CycleState) -> None:
        label = pod_group_label(pod)
        if not label:
            return
        permit_state = state.get(PERMIT_STATE_KEY)
        if not isinstance(permit_state, PermitState) or not permit_state.activate:
            return
        target = state.get(PODS_TO_ACTIVATE_KEY)
        if not isinstance(target, PodsToActivate):
            return
        # Every sibling is listed; the queue only moves those waiting in a queue.
        for sibling in self.group_pods(pod.namespace, label):
            if sibling.uid != pod.uid:
                target.pods[sibling.uid] = sibling

    # --- group caches -----------------------------------------------------------------
    def backoff_pod_group(self, full_name: str, seconds: float) -> None:
        if seconds != 0:
            self.backed_off.add(full_name, seconds)

    def delete_permitted_pod_group(self, full_name: str) -> None:
        self.permitted.delete(full_name)


# --- minResources -------------------------------------------------------------------------
def min_resources_request(pg: PodGroup) -> dict[str, GoQuantity] | None:
    """spec.minResources plus ``pods: minMember``; None when the spec has no minResources."""
    texts = pg.min_resources_text
    if texts is None:
        if not pg.min_resources:
            return None
        texts = {name: _units_text(name, amount) for name, amount in pg.min_resources.items()}
    request = {name: parse_go_quantity(text) for name, text in texts.items()}
    request[PODS] = new_quantity(pg.min_member, DECIMAL_SI)
    return request


def _units_text(name: str, amount: int) -> str:
    """Quantity text for a PodGroup built without its manifest text (scheduler units)."""
    return f"{amount}m" if name == CPU else str(amount)


def check_cluster_resource(
    nodes: Sequence[NodeInfo], request: dict[str, GoQuantity], group: str
) -> str | None:
    """Subtract each node's free resources until nothing is missing; else the gap."""
    for info in nodes:
        free = node_free_resources(info, group)
        for name in list(request):
            quantity = request[name]
            quantity.sub(free.get(name, GoQuantity()))
            if quantity.sign() <= 0:
                del request[name]
        if not request:
            return None
    return f"resource gap: {format_resource_list(request)}"


def node_free_resources(info: NodeInfo, group: str) -> dict[str, GoQuantity]:
    """Allocatable minus requested, as if the group's own pods were not on the node."""
    requested = info.requested.clone()
    members = [pi.pod for pi in info.pods if pod_group_full_name(pi.pod) == group]
    _release(requested, members)
    alloc = info.allocatable
    free = {
        CPU: new_quantity(alloc.milli_cpu - requested.milli_cpu, DECIMAL_SI, scale=-3),
        MEMORY: new_quantity(alloc.memory - requested.memory, BINARY_SI),
        PODS: new_quantity(alloc.allowed_pod_number - (len(info.pods) - len(members)), BINARY_SI),
        EPHEMERAL_STORAGE: new_quantity(
            alloc.ephemeral_storage - requested.ephemeral_storage, BINARY_SI
        ),
    }
    for name, amount in alloc.scalar_resources.items():
        fmt = BINARY_SI if name.startswith("hugepages-") else DECIMAL_SI
        free[name] = new_quantity(amount - requested.scalar_resources.get(name, 0), fmt)
    return free


def _release(requested: Resource, pods: Iterable[Pod]) -> None:
    """NodeInfo.RemovePod's effect on Requested, for each of ``pods``."""
    scalars = requested.scalar_resources
    for pod in pods:
        for name, value in pod.requests.items():
            if name == CPU:
                requested.milli_cpu -= value
            elif name == MEMORY:
                requested.memory -= value
            elif name == EPHEMERAL_STORAGE:
                requested.ephemeral_storage -= value
            elif name != PODS and is_scalar_resource(name):
                scalars[name] = scalars.get(name, 0) - value
