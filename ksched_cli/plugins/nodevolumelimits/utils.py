"""Helpers the volume plugins share: listers over the cluster, claim names of pod
volumes, attach-limit keys and the per-node CSI migration switch
(nodevolumelimits/utils.go, volume/util, component-helpers' ephemeral package)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from ...api.pod import Pod, Volume
from ...framework.nodeinfo import NodeInfo
from ...framework.status import Code, Status, as_error

if TYPE_CHECKING:
    from ...api.storage import CSINode, PersistentVolume, PersistentVolumeClaim, StorageClass
    from ...framework.cluster_view import ClusterView
    from ...versions.features import Features

ERR_REASON_MAX_VOLUME_COUNT = "node(s) exceed max volume count"

MIGRATED_PLUGINS_ANNOTATION = "storage.alpha.kubernetes.io/migrated-plugins"
AWS_EBS_PLUGIN = "kubernetes.io/aws-ebs"
GCE_PD_PLUGIN = "kubernetes.io/gce-pd"
AZURE_DISK_PLUGIN = "kubernetes.io/azure-disk"
CINDER_PLUGIN = "kubernetes.io/cinder"
PORTWORX_PLUGIN = "kubernetes.io/portworx-volume"
# CSIMigration is GA (always on) for these from v1.30; Portworx follows its own gate
# (see is_csi_migration_on), and the other in-tree plugins are never migrated here.
_MIGRATION_GA = frozenset((AWS_EBS_PLUGIN, GCE_PD_PLUGIN, AZURE_DISK_PLUGIN, CINDER_PLUGIN))

ATTACHABLE_VOLUMES_PREFIX = "attachable-volumes-"
CSI_ATTACH_LIMIT_PREFIX = "attachable-volumes-csi-"
_RESOURCE_NAME_LENGTH_LIMIT = 63


def cluster_of(handle: Any) -> ClusterView:
    return cast("ClusterView", handle.cluster)


def get_pvc(cluster: ClusterView, namespace: str, name: str) -> PersistentVolumeClaim | None:
    return cluster.persistent_volume_claims.get(f"{namespace}/{name}")


def get_pv(cluster: ClusterView, name: str) -> PersistentVolume | None:
    return cluster.persistent_volumes.get(name)


def get_storage_class(cluster: ClusterView, name: str) -> StorageClass | None:
    return cluster.storage_classes.get(name)


def get_csi_node(cluster: ClusterView, name: str) -> CSINode | None:
    return cluster.csi_nodes.get(name)


def pvc_not_found(name: str) -> str:
    """The NotFound error text of a claim lister."""
    return f'persistentvolumeclaim "{name}" not found'


def pv_not_found(name: str) -> str:
    return f'persistentvolume "{name}" not found'


def storage_class_not_found(name: str) -> str:
    return f'storageclass.storage.k8s.io "{name}" not found'


def volume_member(volume: Volume, kind: str) -> Mapping[str, Any] | None:
    """The volume's source member ``kind`` (e.g. "gcePersistentDisk"), if set."""
    member = volume.source.get(kind)
    return member if isinstance(member, Mapping) else None


def is_ephemeral(volume: Volume) -> bool:
    return volume_member(volume, "ephemeral") is not None


def claim_of(pod: Pod, volume: Volume) -> tuple[str, bool] | None:
    """The claim name behind a volume and whether it is a generic ephemeral one."""
    if volume.claim_name is not None:
        return volume.claim_name, False
    if is_ephemeral(volume):
        return f"{pod.name}-{volume.name}", True
    return None


def ephemeral_owner_error(pod: Pod, pvc: PersistentVolumeClaim) -> str | None:
    """ephemeral.VolumeIsForPod; ownership is checked by kind and name (uids are not kept)."""
    ref = pvc.meta.controller_ref()
    owned = ref is not None and ref.kind == "Pod" and ref.name == pod.name
    if pvc.namespace != pod.namespace or not owned:
        return (
            f"PVC {pvc.namespace}/{pvc.name} was not created for pod "
            f"{pod.namespace}/{pod.name} (pod is not owner)"
        )
    return None


def csi_attach_limit_key(driver: str) -> str:
    """GetCSIAttachLimitKey: long driver names are cut and suffixed with a hash."""
    if len(CSI_ATTACH_LIMIT_PREFIX) + len(driver) >= _RESOURCE_NAME_LENGTH_LIMIT:
        import hashlib  # loads OpenSSL: only for the rare long driver name (start-up)

        digest = hashlib.sha1(driver.encode()).hexdigest()[:16]
        return CSI_ATTACH_LIMIT_PREFIX + driver[:23] + digest
    return CSI_ATTACH_LIMIT_PREFIX + driver


def node_volume_limits(node_info: NodeInfo) -> dict[str, int]:
    """The node's allocatable attachable-volumes-* resources."""
    return {
        name: value
        for name, value in node_info.allocatable.scalar_resources.items()
        if name.startswith(ATTACHABLE_VOLUMES_PREFIX)
    }


def migrated_plugins(csi_node: CSINode) -> set[str]:
    value = csi_node.meta.annotations.get(MIGRATED_PLUGINS_ANNOTATION, "")
    return set(value.split(",")) if value else set()


def is_migration_enabled(plugin: str, features: Features) -> bool:
    """VolumeBinding's isCSIMigrationOnForPlugin: whether the gates migrate ``plugin``."""
    if plugin == PORTWORX_PLUGIN:
        return features.portworx_migration_default_on
    return plugin in _MIGRATION_GA


def is_plugin_migrated_on_node(csi_node: CSINode | None, plugin: str, features: Features) -> bool:
    """VolumeBinding's check: migration allowed and the node's CSINode lists the plugin."""
    if csi_node is None or not is_migration_enabled(plugin, features):
        return False
    return plugin in migrated_plugins(csi_node)


def is_csi_migration_on(csi_node: CSINode | None, plugin: str, features: Features) -> bool:
    """The volume-limit plugins' isCSIMigrationOn: the GA plugins count as migrated on any
    node with a CSINode, annotation or not; only Portworx (v1.31-v1.35) needs the node's
    migrated-plugins annotation, and from v1.36 it is GA too."""
    if csi_node is None or not plugin:
        return False
    if plugin in _MIGRATION_GA:
        return True
    if plugin != PORTWORX_PLUGIN or not features.portworx_migration_default_on:
        return False
    if features.portworx_migration_ga:
        return True
    return plugin in migrated_plugins(csi_node)


def claim_for_limits(
    cluster: ClusterView, pod: Pod, volume: Volume, new_pod: bool
) -> tuple[PersistentVolumeClaim | None, Status | None]:
    """The claim behind ``volume`` as the limit plugins count it.

    (None, None): no claim to count (not a claim volume, or a missing claim of a pod
    already on a node); (None, status): the filter fails with ``status``.
    """
    claim = claim_of(pod, volume)
    if claim is None:
        return None, None
    name, ephemeral = claim
    if not name:
        return None, as_error("PersistentVolumeClaim had no name")
    pvc = get_pvc(cluster, pod.namespace, name)
    if pvc is None:
        if new_pod:  # the pod cannot run before its claim exists
            return None, Status(
                Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                f"looking up PVC {pod.namespace}/{name}: {pvc_not_found(name)}",
            )
        return None, None
    if ephemeral and (error := ephemeral_owner_error(pod, pvc)) is not None:
        return None, as_error(error)
    return pvc, None
