"""VolumeBinding: PVC binding and provisioning in the scheduling cycle
(volumebinding/volume_binding.go, v1.30).

PreFilter sorts the pod's claims, Filter finds per node the PVs to bind or the claims
to provision, Reserve assumes the chosen node's bindings, Unreserve reverts them and
PreBind writes them to the cluster. Score needs VolumeCapacityPriority (off in v1.30):
it runs only when ``shape`` is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...api.pod import Pod
from ...api.quantity import format_bytes
from ...api.selectors import NodeSelector
from ...config.args import VolumeBindingArgs
from ...framework.cycle_state import CycleState
from ...framework.interface import Handle
from ...framework.nodeinfo import NodeInfo
from ...framework.status import SKIP, Code, Status, as_error
from ...framework.types import PreFilterResult
from ...versions.features import features_of
from ..nodevolumelimits.utils import claim_of, cluster_of, ephemeral_owner_error, get_pvc

if TYPE_CHECKING:  # the binder and scorer load with the first pod that has claims
    from .binder import PodVolumeClaims, PodVolumes, VolumeBinder
    from .scorer import Scorer

NAME = "VolumeBinding"
STATE_KEY = NAME
ERR_UNBOUND_IMMEDIATE = "pod has unbound immediate PersistentVolumeClaims"
CLAIM_LOST = "Lost"


class StateData:
    """Shared by every clone of the cycle state, as kube-scheduler's pointer is."""

    __slots__ = ("all_bound", "claims", "has_static_bindings", "pod_volumes_by_node")

    def __init__(self, claims: PodVolumeClaims | None = None) -> None:
        self.all_bound = False
        self.claims = claims
        self.pod_volumes_by_node: dict[str, PodVolumes] = {}
        self.has_static_bindings = False

    def clone(self) -> StateData:
        return self


class Plugin:
    name = NAME

    def __init__(self, args: VolumeBindingArgs | None, handle: Handle) -> None:
        self._handle = handle
        self._binder: VolumeBinder | None = None
        shape = args.shape if args is not None else []
        self._scorer: Scorer | None = None
        if shape:
            from .scorer import build_scorer

            self._scorer = build_scorer(shape)

    @property
    def binder(self) -> VolumeBinder:
        if self._binder is None:
            from .binder import VolumeBinder

            self._binder = VolumeBinder(self._handle)
        return self._binder

    # --- PreFilter / Filter -----------------------------------------------------------

    def pre_filter(
        self, state: CycleState, pod: Pod
    ) -> tuple[PreFilterResult | None, Status | None]:
        has_pvc, error = self._pod_has_pvcs(pod)
        if error is not None:
            return None, Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, error)
        if not has_pvc:
            state.write(STATE_KEY, StateData())
            return None, SKIP
        from .binder import BinderError

        try:
            claims = self.binder.get_pod_volume_claims(pod)
        except BinderError as exc:
            return None, as_error(str(exc))
        if claims.unbound_immediate:
            # The PV controller binds these; the pod waits for it.
            return None, Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_UNBOUND_IMMEDIATE)
        state.write(STATE_KEY, StateData(claims))
        if features_of(self._handle).volume_binding_all_nodes:
            return None, None
        eligible = self.binder.get_eligible_nodes(claims.bound)
        return (PreFilterResult(eligible) if eligible is not None else None), None

    def pre_filter_extensions(self) -> None:
        return None

    def _pod_has_pvcs(self, pod: Pod) -> tuple[bool, str | None]:
        """Whether the pod uses claims, and why it cannot use them yet."""
        cluster = cluster_of(self._handle)
        has_pvc = False
        for vol in pod.volumes:
            claim = claim_of(pod, vol)
            if claim is None:
                continue
            has_pvc = True
            name, ephemeral = claim
            pvc = get_pvc(cluster, pod.namespace, name)
            if pvc is None:
                if ephemeral:  # normal right after the pod is created
                    return True, (
                        "waiting for ephemeral volume controller to create the "
                        f'persistentvolumeclaim "{name}"'
                    )
                return True, f'persistentvolumeclaim "{name}" not found'
            if pvc.phase == CLAIM_LOST:
                return True, (
                    f'persistentvolumeclaim "{pvc.name}" bound to non-existent '
                    f'persistentvolume "{pvc.volume_name}"'
                )
            if pvc.meta.deletion_timestamp is not None:
                return True, f'persistentvolumeclaim "{pvc.name}" is being deleted'
            if ephemeral and (error := ephemeral_owner_error(pod, pvc)) is not None:
                return True, error
        return has_pvc, None

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        data = state.get(STATE_KEY)
        if not isinstance(data, StateData):
            return as_error("not found")
        if data.claims is None:
            return None  # no claims
        from .binder import BinderError

        try:
            volumes, reasons = self.binder.find_pod_volumes(data.claims, node_info.node)
        except BinderError as exc:
            return as_error(str(exc))
        if reasons:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, *reasons)
        data.pod_volumes_by_node[node_info.name] = volumes
        data.has_static_bindings = data.has_static_bindings or bool(volumes.static_bindings)
        return None

    # --- PreScore / Score -------------------------------------------------------------

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        if self._scorer is None:
            return SKIP
        data = state.get(STATE_KEY)
        if not isinstance(data, StateData):
            return as_error("not found")
        return None if data.has_static_bindings else SKIP

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status | None]:
        if self._scorer is None:
            return 0, None
        data = state.get(STATE_KEY)
        if not isinstance(data, StateData):
            return 0, as_error("not found")
        volumes = data.pod_volumes_by_node.get(node_info.name)
        if volumes is None:
            return 0, None
        from .scorer import StorageResource

        by_class: dict[str, StorageResource] = {}
        for binding in volumes.static_bindings:
            resource = by_class.setdefault(binding.pv.storage_class_name, StorageResource())
            resource.requested += binding.pvc.requested
            resource.capacity += binding.pv.capacity
        return self._scorer(by_class), None

    def score_extensions(self) -> None:
        return None

    # --- Reserve / Unreserve / PreBind --------------------------------------------

    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        data = state.get(STATE_KEY)
        if not isinstance(data, StateData):
            return as_error("not found")
        volumes = data.pod_volumes_by_node.get(node_name)
        if volumes is None:
            data.all_bound = True  # the pod has no claims
            return None
        from .binder import BinderError

        try:
            data.all_bound = self.binder.assume_pod_volumes(pod, node_name, volumes)
        except BinderError as exc:
            return as_error(str(exc))
        return None

    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        data = state.get(STATE_KEY)
        if not isinstance(data, StateData):
            return
        volumes = data.pod_volumes_by_node.get(node_name)
        if volumes is not None:
            self.binder.revert_assumed_pod_volumes(volumes)

    def explain(self, state: CycleState, pod: Pod, node_name: str) -> list[str]:
        """What Reserve decided for the pod's claims on ``node_name`` (for --explain)."""
        data = state.get(STATE_KEY)
        if not isinstance(data, StateData) or data.claims is None:
            return []
        lines = [f"claim {c.key} already bound to PV {c.volume_name}" for c in data.claims.bound]
        volumes = data.pod_volumes_by_node.get(node_name)
        if volumes is not None:
            lines += [
                f"claim {b.pvc.key} binds to PV {b.pv.name} ({format_bytes(b.pv.capacity)})"
                for b in volumes.static_bindings
            ]
            lines += [
                f"claim {c.key} provisioned by StorageClass {c.class_name} for node {node_name}"
                + self._topology_text(c.class_name, node_name)
                for c in volumes.dynamic_provisions
            ]
        return lines

    def explain_rejection(self, state: CycleState, pod: Pod) -> list[str]:
        """Where the pod's claims tie it to: a bound claim's volume affinity, a claim
        being provisioned for one node."""
        from ...api.storage import ANN_SELECTED_NODE  # storage is loaded only with claims

        data = state.get(STATE_KEY)
        if not isinstance(data, StateData) or data.claims is None:
            return []
        lines = []
        for claim in data.claims.bound:
            pv = self.binder.pv_cache.get(claim.volume_name)
            if pv is not None and pv.node_affinity is not None:
                lines.append(f"claim {claim.key} is bound to PV {pv.name}, reachable only from "
                             f"{node_selector_text(pv.node_affinity)}")
        for claim in data.claims.unbound_delay_binding:
            selected = claim.annotations.get(ANN_SELECTED_NODE)
            if selected:
                lines.append(f"claim {claim.key} is being provisioned for node {selected}")
        return lines

    def _topology_text(self, class_name: str, node_name: str) -> str:
        """``: volume in zone=..., rule`` as provision.py will create the volume."""
        from .provision import volume_topology

        cluster = cluster_of(self._handle)
        sc = cluster.storage_classes.get(class_name)
        node = next((n for n in cluster.nodes if n.name == node_name), None)
        if sc is None or node is None:
            return ""
        topology = volume_topology(sc.provisioner, node, cluster.csi_nodes.get(node_name))
        return f"; its volume is reachable from {topology.text()} ({topology.rule})"

    def pre_bind_pre_flight(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        """Work for PreBind when some claim of the pod is still to be bound (v1.35+)."""
        volumes, status = _to_bind(state, node_name)
        if status is not None:
            return status
        return SKIP if volumes is None else None

    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        volumes, status = _to_bind(state, node_name)
        if volumes is not None:
            self.binder.bind_pod_volumes(volumes)
        return status


def _to_bind(state: CycleState, node_name: str) -> tuple[PodVolumes | None, Status | None]:
    """The pod's volumes to bind on ``node_name`` (None once all are bound), or the error
    that PreBind and its pre-flight report."""
    data = state.get(STATE_KEY)
    if not isinstance(data, StateData):
        return None, as_error("not found")
    if data.all_bound:
        return None, None
    volumes = data.pod_volumes_by_node.get(node_name)
    if volumes is None:
        return None, as_error(f'no pod volumes found for node "{node_name}"')
    return volumes, None


def node_selector_text(selector: NodeSelector) -> str:
    """``k in [v]`` per requirement, ``and`` within a term, ``or`` between terms."""
    terms = [
        " and ".join(f"{r.key} {r.operator.lower()} [{', '.join(r.values)}]"
                     for r in (*t.match_expressions, *t.match_fields))
        for t in selector.terms
    ]
    return " or ".join(terms)
