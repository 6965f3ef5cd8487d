"""NodeVolumeLimits: per-driver CSI attach limits from CSINode allocatable counts,
counting migrated in-tree volumes under their CSI driver (nodevolumelimits/csi.go, v1.30)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ...api.pod import Pod, Volume
from ...framework.cycle_state import CycleState
from ...framework.interface import Handle
from ...framework.nodeinfo import NodeInfo
from ...framework.status import SKIP, Code, Status, as_error
from ...framework.types import PreFilterResult
from ...versions.features import Features, features_of
from .csi_translation import (
    TranslationError,
    inline_volume_handle,
    plugin_by_name,
    plugin_for_inline,
    plugin_for_pv,
    pv_volume_handle,
)
from .utils import (
    ERR_REASON_MAX_VOLUME_COUNT,
    claim_for_limits,
    claim_of,
    cluster_of,
    csi_attach_limit_key,
    get_csi_node,
    get_pv,
    get_storage_class,
    is_csi_migration_on,
    is_ephemeral,
    node_volume_limits,
)

if TYPE_CHECKING:
    from ...api.storage import CSINode, PersistentVolumeClaim

NAME = "NodeVolumeLimits"
# Stands in for kube-scheduler's random prefix: ids of not-yet-bound claims must not
# collide with real volume handles.
UNBOUND_ID_PREFIX = "\x00ksched-unbound"

# unique volume name ("driver/handle") -> attach limit key
Attachable = dict[str, str]


class Plugin:
    name = NAME

    def __init__(self, args: object, handle: Handle) -> None:
        self._handle = handle

    def pre_filter(
        self, state: CycleState, pod: Pod
    ) -> tuple[PreFilterResult | None, Status | None]:
        for vol in pod.volumes:
            if vol.claim_name is not None or is_ephemeral(vol) or plugin_for_inline(vol):
                return None, None
        return None, SKIP

    def pre_filter_extensions(self) -> None:
        return None

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        if not pod.volumes:
            return None
        csi_node = get_csi_node(cluster_of(self._handle), node_info.name)
        new_volumes: Attachable = {}
        status = self._attachable_volumes(pod, csi_node, True, new_volumes)
        if status is not None or not new_volumes:
            return status
        limits = volume_limits(node_info, csi_node)
        if not limits:
            return None
        attached: Attachable = {}
        for existing in node_info.pods:
            status = self._attachable_volumes(existing.pod, csi_node, False, attached)
            if status is not None:
                return status  # only errors: missing claims of running pods are skipped
        attached_count: Counter[str] = Counter()
        for unique_name, key in attached.items():
            new_volumes.pop(unique_name, None)  # a volume shared with a running pod adds nothing
            attached_count[key] += 1
        for key, count in Counter(new_volumes.values()).items():
            if key in limits and attached_count[key] + count > limits[key]:
                return Status(Code.UNSCHEDULABLE, ERR_REASON_MAX_VOLUME_COUNT)
        return None

    # --- counting ---------------------------------------------------------------

    def _attachable_volumes(
        self, pod: Pod, csi_node: CSINode | None, new_pod: bool, result: Attachable
    ) -> Status | None:
        cluster = cluster_of(self._handle)
        for vol in pod.volumes:
            claim = claim_of(pod, vol)
            if claim is None:
                error = _inline_volume(vol, csi_node, result, features_of(self._handle))
                if error is not None:
                    return as_error(error)
                continue
            pvc, status = claim_for_limits(cluster, pod, vol, new_pod)
            if status is not None:
                return status
            if pvc is None:
                continue
            driver, handle = self._driver_info(csi_node, pvc)
            if driver and handle:
                result[f"{driver}/{handle}"] = csi_attach_limit_key(driver)
        return None

    def _driver_info(self, csi_node: CSINode | None, pvc: PersistentVolumeClaim) -> tuple[str, str]:
        """The CSI driver and volume handle behind a claim ("" when it does not count)."""
        pv = get_pv(cluster_of(self._handle), pvc.volume_name) if pvc.volume_name else None
        if pv is None:
            return self._driver_info_from_class(csi_node, pvc)
        if pv.source.kind == "csi":
            return pv.source.driver, pv.source.handle
        plugin = plugin_for_pv(pv)
        features = features_of(self._handle)
        if plugin is None or not is_csi_migration_on(csi_node, plugin.plugin, features):
            return "", ""
        try:
            return plugin.driver, pv_volume_handle(pv, plugin)
        except TranslationError:
            return "", ""

    def _driver_info_from_class(
        self, csi_node: CSINode | None, pvc: PersistentVolumeClaim
    ) -> tuple[str, str]:
        # Without a class the claim binds immediately, so it is bound before scheduling.
        if not pvc.class_name:
            return "", ""
        sc = get_storage_class(cluster_of(self._handle), pvc.class_name)
        if sc is None:
            return "", ""
        handle = f"{UNBOUND_ID_PREFIX}-{pvc.namespace}/{pvc.name}"
        plugin = plugin_by_name(sc.provisioner)
        if plugin is None:
            return sc.provisioner, handle
        if not is_csi_migration_on(csi_node, plugin.plugin, features_of(self._handle)):
            return "", ""
        return plugin.driver, handle


def _inline_volume(
    vol: Volume, csi_node: CSINode | None, result: Attachable, features: Features
) -> str | None:
    """Count a migrated inline volume under its CSI driver; returns an error text."""
    plugin = plugin_for_inline(vol)
    if plugin is None or not is_csi_migration_on(csi_node, plugin.plugin, features):
        return None  # not migrated: the in-tree limit plugins count it
    try:
        handle = inline_volume_handle(vol, plugin)
    except TranslationError as exc:
        return f"converting volume({vol.name}) from inline to csi: {exc}"
    result[f"{plugin.driver}/{handle}"] = csi_attach_limit_key(plugin.driver)
    return None


def volume_limits(node_info: NodeInfo, csi_node: CSINode | None) -> dict[str, int]:
    """Node allocatable attach limits, overridden by the CSINode drivers' counts."""
    limits = node_volume_limits(node_info)
    if csi_node is not None:
        for driver in csi_node.drivers:
            if driver.allocatable is not None:
                limits[csi_attach_limit_key(driver.name)] = driver.allocatable
    return limits
