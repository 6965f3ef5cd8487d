"""The scheduler's volume binder (volumebinding/binder.go, v1.30): sorts a pod's
claims, matches unbound claims to PVs or provisioning per node, assumes the choice
at Reserve and writes it to the cluster at PreBind.

ksched has no CSIDriver / CSIStorageCapacity objects, so every provisioner counts
as having enough capacity and "did not have enough free storage" never arises.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any

from ...api.node import Node
from ...api.pod import Pod, Volume
from ...api.storage import (
    ANN_SELECTED_NODE,
    BINDING_WAIT,
    PersistentVolume,
    PersistentVolumeClaim,
    match_topology_terms,
)
from ...record import record
from ...versions.features import features_of
from ..nodevolumelimits.csi_translation import TranslationError, plugin_for_pv, translate_pv
from ..nodevolumelimits.utils import (
    claim_of,
    cluster_of,
    ephemeral_owner_error,
    get_csi_node,
    get_storage_class,
    is_plugin_migrated_on_node,
)
from .assume_cache import PVAssumeCache, PVCAssumeCache
from .provision import provisioned
from .pv_helpers import (
    NOT_SUPPORTED_PROVISIONER,
    bind_volume_to_claim,
    check_node_affinity,
    completed_binding,
    find_matching_volume,
    is_pvc_fully_bound,
    local_pv_node_names,
    with_selected_node,
)

if TYPE_CHECKING:
    from ...framework.cluster_view import ClusterView

ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind"
ERR_REASON_NODE_CONFLICT = "node(s) had volume node affinity conflict"
# v1.33+ wording of the same conflict (features.pv_affinity_message_v2).
ERR_REASON_NODE_CONFLICT_V2 = "node(s) didn't match PersistentVolume's node affinity"
ERR_REASON_NOT_ENOUGH_SPACE = "node(s) did not have enough free storage"
ERR_REASON_PV_NOT_EXIST = (
    "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
)


class BinderError(Exception):
    """An error (not a node misfit) in volume binding; the status is Error."""


@record(slots=True)
class BindingInfo:
    pvc: PersistentVolumeClaim
    pv: PersistentVolume


@record(slots=True)
class PodVolumes:
    """What binding a pod's volumes on one node takes."""

    static_bindings: list[BindingInfo] = field(default_factory=list)
    dynamic_provisions: list[PersistentVolumeClaim] = field(default_factory=list)


@record(slots=True)
class PodVolumeClaims:
    bound: list[PersistentVolumeClaim] = field(default_factory=list)
    unbound_delay_binding: list[PersistentVolumeClaim] = field(default_factory=list)
    unbound_immediate: list[PersistentVolumeClaim] = field(default_factory=list)
    # storage class -> its PVs as listed when the pod's attempt started
    unbound_volumes_delay_binding: dict[str, list[PersistentVolume]] = field(default_factory=dict)


@record(slots=True)
class _Fit:
    """FindPodVolumes' per-node verdicts, turned into reasons at the end."""

    bound_satisfied: bool = True
    unbound_satisfied: bool = True
    sufficient_storage: bool = True
    bound_pvs_found: bool = True

    def reasons(self, conflict: str = ERR_REASON_NODE_CONFLICT) -> list[str]:
        pairs = (
            (self.bound_satisfied, conflict),
            (self.unbound_satisfied, ERR_REASON_BIND_CONFLICT),
            (self.sufficient_storage, ERR_REASON_NOT_ENOUGH_SPACE),
            (self.bound_pvs_found, ERR_REASON_PV_NOT_EXIST),
        )
        return [reason for ok, reason in pairs if not ok]


class VolumeBinder:
    def __init__(self, handle: Any) -> None:
        self._handle = handle
        # The caches read the cluster at each use: it is the informer view.
        self.pv_cache = PVAssumeCache(
            "v1.PersistentVolume", lambda: cluster_of(handle).persistent_volumes
        )
        self.pvc_cache = PVCAssumeCache(
            "v1.PersistentVolumeClaim", lambda: cluster_of(handle).persistent_volume_claims
        )

    # --- PreFilter ---------------------------------------------------------------

    def get_pod_volume_claims(self, pod: Pod) -> PodVolumeClaims:
        claims = PodVolumeClaims()
        for vol in pod.volumes:
            if claim_of(pod, vol) is None:
                continue
            bound, pvc = self._volume_bound(pod, vol)
            if bound:
                claims.bound.append(pvc)
            elif self._delay_binding(pvc) and not pvc.volume_name:
                claims.unbound_delay_binding.append(pvc)
            else:  # immediate binding (or pre-bound): the PV controller binds it
                claims.unbound_immediate.append(pvc)
        for pvc in claims.unbound_delay_binding:
            claims.unbound_volumes_delay_binding[pvc.class_name] = self.pv_cache.list_pvs(
                pvc.class_name
            )
        return claims

    def _volume_bound(self, pod: Pod, vol: Volume) -> tuple[bool, PersistentVolumeClaim]:
        """Whether the claim behind ``vol`` (a claim-backed volume) is fully bound."""
        claim = claim_of(pod, vol)
        assert claim is not None
        key = f"{pod.namespace}/{claim[0]}"
        pvc = self.pvc_cache.get(key)
        if pvc is None:
            raise BinderError(
                f'error getting PVC "{key}": could not find v1.PersistentVolumeClaim "{key}"'
            )
        if claim[1] and (error := ephemeral_owner_error(pod, pvc)) is not None:
            raise BinderError(error)
        return is_pvc_fully_bound(pvc), pvc

    def _delay_binding(self, pvc: PersistentVolumeClaim) -> bool:
        """IsDelayBindingMode: an unknown class counts as immediate binding."""
        if not pvc.class_name:
            return False
        sc = get_storage_class(cluster_of(self._handle), pvc.class_name)
        return sc is not None and sc.volume_binding_mode == BINDING_WAIT

    def get_eligible_nodes(self, bound: list[PersistentVolumeClaim]) -> frozenset[str] | None:
        """The nodes local PVs of bound claims pin the pod to; None means all nodes."""
        eligible: set[str] | None = None
        for pvc in bound:
            pv = self.pv_cache.get(pvc.volume_name)
            if pv is None:
                return None  # a lookup error: no reduction
            names = local_pv_node_names(pv)
            if names:
                eligible = names if eligible is None else eligible & names
        return None if eligible is None else frozenset(eligible)

    # --- Filter ------------------------------------------------------------------

    def find_pod_volumes(
        self, claims: PodVolumeClaims, node: Node
    ) -> tuple[PodVolumes, list[str]]:
        """The volumes binding takes on ``node``, or the reasons it cannot host them.

        Raises BinderError for errors (the Filter status is then Error).
        """
        volumes = PodVolumes()
        fit = _Fit()
        if claims.bound:
            fit.bound_satisfied, fit.bound_pvs_found = self._check_bound_claims(claims.bound, node)
        if claims.unbound_delay_binding:
            self._find_unbound(claims, node, fit, volumes)
        conflict = ERR_REASON_NODE_CONFLICT
        if features_of(self._handle).pv_affinity_message_v2:
            conflict = ERR_REASON_NODE_CONFLICT_V2
        return volumes, fit.reasons(conflict)

    def _find_unbound(
        self, claims: PodVolumeClaims, node: Node, fit: _Fit, volumes: PodVolumes
    ) -> None:
        to_match: list[PersistentVolumeClaim] = []
        to_provision: list[PersistentVolumeClaim] = []
        for pvc in claims.unbound_delay_binding:
            selected = pvc.annotations.get(ANN_SELECTED_NODE)
            if selected is None:
                to_match.append(pvc)
            elif selected != node.name:
                fit.unbound_satisfied = False  # already being provisioned for another node
                return
            else:
                to_provision.append(pvc)
        if to_match:
            fit.unbound_satisfied, volumes.static_bindings, unmatched = self._find_matching(
                to_match, claims.unbound_volumes_delay_binding, node
            )
            to_provision.extend(unmatched)
        if to_provision:
            fit.unbound_satisfied, fit.sufficient_storage, volumes.dynamic_provisions = (
                self._check_provisions(to_provision, node)
            )

    def _check_bound_claims(
        self, claims: list[PersistentVolumeClaim], node: Node
    ) -> tuple[bool, bool]:
        """(node affinity satisfied, every PV found)."""
        csi_node = get_csi_node(cluster_of(self._handle), node.name)
        for pvc in claims:
            pv = self.pv_cache.get(pvc.volume_name)
            if pv is None:
                return True, False
            affinity = pv.node_affinity
            plugin = plugin_for_pv(pv)
            # An in-tree PV migrated on this node is checked as its CSI translation.
            if plugin is not None and is_plugin_migrated_on_node(
                csi_node, plugin.plugin, features_of(self._handle)
            ):
                try:
                    affinity = translate_pv(pv, plugin)[1]
                except TranslationError as exc:
                    raise BinderError(f"could not translate pv: {exc}") from None
            if not check_node_affinity(affinity, node.labels):
                return False, True
        return True, True

    def _find_matching(
        self,
        claims: list[PersistentVolumeClaim],
        pvs_by_class: dict[str, list[PersistentVolume]],
        node: Node,
    ) -> tuple[bool, list[BindingInfo], list[PersistentVolumeClaim]]:
        """Smallest claims first, each to the smallest fitting PV not chosen yet."""
        chosen: set[str] = set()
        bindings: list[BindingInfo] = []
        unmatched: list[PersistentVolumeClaim] = []
        vac = features_of(self._handle).volume_attributes_class
        for pvc in sorted(claims, key=lambda c: c.requested):
            pvs = pvs_by_class.get(pvc.class_name, [])
            pv = find_matching_volume(pvc, pvs, node.labels, chosen, vac)
            if pv is None:
                unmatched.append(pvc)
                continue
            chosen.add(pv.name)
            bindings.append(BindingInfo(pvc, pv))
        return not unmatched, bindings, unmatched

    def _check_provisions(
        self, claims: list[PersistentVolumeClaim], node: Node
    ) -> tuple[bool, bool, list[PersistentVolumeClaim]]:
        """(provisionable, enough capacity, claims to provision) on ``node``."""
        cluster = cluster_of(self._handle)
        for pvc in claims:
            if not pvc.class_name:
                raise BinderError(f'no class for claim "{pvc.key}"')
            sc = get_storage_class(cluster, pvc.class_name)
            if sc is None:
                raise BinderError(f'failed to find storage class "{pvc.class_name}"')
            if sc.provisioner in ("", NOT_SUPPORTED_PROVISIONER):
                return False, True, []
            if not match_topology_terms(sc.allowed_topologies, node.labels):
                return False, True, []
        return True, True, list(claims)

    # --- Reserve / Unreserve / PreBind ---------------------------------------------

    def assume_pod_volumes(self, pod: Pod, node_name: str, volumes: PodVolumes) -> bool:
        """Assume the node's bindings in the caches; True when all volumes were bound."""
        if self._all_bound(pod):
            return True
        bindings: list[BindingInfo] = []
        for binding in volumes.static_bindings:
            pv, dirty = bind_volume_to_claim(binding.pv, binding.pvc)
            if dirty and (error := self.pv_cache.assume(pv.name, pv, pod.uid)) is not None:
                self._revert(bindings, [])
                raise BinderError(error)
            bindings.append(BindingInfo(binding.pvc, pv))
        provisions: list[PersistentVolumeClaim] = []
        for claim in volumes.dynamic_provisions:
            clone = with_selected_node(claim, node_name)
            if (error := self.pvc_cache.assume(clone.key, clone, pod.uid)) is not None:
                self._revert(bindings, provisions)
                raise BinderError(error)
            provisions.append(clone)
        volumes.static_bindings, volumes.dynamic_provisions = bindings, provisions
        return False

    def _all_bound(self, pod: Pod) -> bool:
        for vol in pod.volumes:
            if claim_of(pod, vol) is None:
                continue
            try:
                bound, _ = self._volume_bound(pod, vol)
            except BinderError:
                return False
            if not bound:
                return False
        return True

    def revert_assumed_pod_volumes(self, volumes: PodVolumes) -> None:
        self._revert(volumes.static_bindings, volumes.dynamic_provisions)

    def _revert(self, bindings: list[BindingInfo], claims: list[PersistentVolumeClaim]) -> None:
        for binding in bindings:
            self.pv_cache.restore(binding.pv.name)
        for claim in claims:
            self.pvc_cache.restore(claim.key)

    def bind_pod_volumes(self, volumes: PodVolumes) -> None:
        """Write the assumed bindings to the cluster as the PV controller completes them:
        a static binding ends Bound both ways, and so does a provisioned claim with the
        volume its provisioner created."""
        cluster = cluster_of(self._handle)
        for binding in volumes.static_bindings:
            claim = cluster.persistent_volume_claims.get(binding.pvc.key, binding.pvc)
            old_pv = cluster.persistent_volumes.get(binding.pv.name, binding.pv)
            pv, pvc = completed_binding(binding.pv, claim)
            cluster.persistent_volumes[pv.name] = pv
            cluster.persistent_volume_claims[pvc.key] = pvc
            # The two writes are cluster events (semantics.md §12): the volume, then the claim.
            notify = cluster.on_storage_update
            if notify is not None:
                notify(old_pv, pv)
                notify(claim, pvc)
        for claim in volumes.dynamic_provisions:
            self._provision(cluster, claim)
        self._revert(volumes.static_bindings, volumes.dynamic_provisions)

    def _provision(self, cluster: ClusterView, claim: PersistentVolumeClaim) -> None:
        """PreBind waits until the provisioner's volume is bound to the claim: the PV
        exists, with its driver's topology, before the pod binds (provision.py)."""
        sc = get_storage_class(cluster, claim.class_name)
        node_name = claim.annotations.get(ANN_SELECTED_NODE, "")
        node = next((n for n in cluster.nodes if n.name == node_name), None)
        if sc is None or node is None:
            cluster.persistent_volume_claims[claim.key] = claim
            return
        pv, bound, _ = provisioned(claim, sc, node, get_csi_node(cluster, node_name))
        cluster.persistent_volumes[pv.name] = pv
        cluster.persistent_volume_claims[bound.key] = bound
