"""Storage queueing hints of VolumeZone, VolumeRestrictions and NodeVolumeLimits, and the
deleted-pod hints of the last two (v1.32+), table-driven.

Rows follow upstream volume_zone_test.go (TestIsSchedulableAfterPersistentVolumeClaimAdded,
TestIsSchedulableAfterStorageClassAdded, TestIsSchedulableAfterPersistentVolumeChange),
volume_restrictions_test.go (TestVolumeRestrictionsIsSchedulableAfterPodDeleted,
Test_isSchedulableAfterPersistentVolumeClaimChange) and nodevolumelimits csi_test.go
(TestCSILimitsQHint, TestCSILimitsAddedPVCQHint, TestCSILimitsDeletedVolumeAttachmentQHint,
TestCSILimitsAfterCSINodeUpdatedQHint; the last two are v1.33+: ``csi_limits_hints_v2``),
read in stored copies of those files from v1.30-v1.33 (pre-1.34 framework imports; the
last table in a 1.37-development copy, natasha41575/kubernetes). Rows named "(source)"
are read from the v1.32.5 and v1.35.7 code, not from a test.
"""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.api.pod import Pod
from ksched_cli.engine.actions import CSI_NODE, PV, PVC, STORAGE_CLASS, VOLUME_ATTACHMENT
from ksched_cli.engine.queueing_hints import (
    AFTER_BACKOFF,
    DELETE,
    SKIP,
    PodEvent,
    ProfileHints,
    worth_requeuing,
)
from ksched_cli.engine.storage_hints import StorageEvent, VolumeAttachment
from ksched_cli.framework.types import QueuedPodInfo
from ksched_cli.versions.releases import release
from tests.fakes import make_pod
from tests.versions.storage_fixtures import (
    WAIT,
    added,
    csi_node,
    deleted,
    pv,
    pvc,
    says,
    storage_class,
    updated,
    volume_pod,
)

V130 = release("1.30").features
V132 = release("1.32").features
V136 = release("1.36").features
BOTH = pytest.mark.parametrize("features", [V132, V136], ids=["1.32", "1.36"])
BETA_ZONE = "failure-domain.beta.kubernetes.io/zone"
GA_ZONE = "topology.kubernetes.io/zone"


@BOTH
@pytest.mark.parametrize(
    ("name", "pod", "old", "new", "want"),
    [
        ("pvc-was-added-but-pod-refers-no-pvc", volume_pod("pod_1"), None,
         pvc("PVC_1", volume_name="Vol_1"), False),
        ("pvc-was-added-and-pod-was-bound-to-different-pvc", volume_pod("pod_1", claims=["PVC_2"]),
         None, pvc("PVC_1", volume_name="Vol_1"), False),
        ("pvc-was-added-and-pod-was-bound-to-pvc-but-different-ns",
         volume_pod("pod_1", claims=["PVC_1"]), None, pvc("PVC_1", "ns1", "Vol_1"), False),
        ("pvc-was-added-and-pod-was-bound-to-the-pvc", volume_pod("pod_1", claims=["PVC_1"]),
         None, pvc("PVC_1", volume_name="Vol_1"), True),
        ("pvc-was-updated-and-pod-was-bound-to-the-pvc", volume_pod("pod_1", claims=["PVC_1"]),
         pvc("PVC_1"), pvc("PVC_1", volume_name="Vol_1"), True),
        ("pvc-was-updated-but-pod-refers-no-pvc", volume_pod("pod_1"),
         pvc("PVC_1"), pvc("PVC_1", volume_name="Vol_1"), False),
    ],
)
def test_volume_zone_claim(
    name: str, pod: Pod, old: Any, new: Any, want: bool, features: Any
) -> None:
    event = added(PVC, new) if old is None else updated(PVC, old, new)
    assert says("VolumeZone", pod, event, features) is want, name


@BOTH
@pytest.mark.parametrize(
    ("name", "event", "want"),
    [
        ("sc-doesn't-have-volume-binding-mode", added(STORAGE_CLASS, storage_class("SC_1")), False),
        ("new-sc-is-wait-for-first-consumer-mode",
         added(STORAGE_CLASS, storage_class("SC_1", WAIT)), True),
        ("new-pv-was-added", added(PV, pv("Vol_1", {BETA_ZONE: "us-west1-b"})), True),
        ("pv-was-updated-and-changed-topology", updated(
            PV, pv("Vol_1", {BETA_ZONE: "us-west1-a"}), pv("Vol_1", {BETA_ZONE: "us-west1-b"})),
         True),
        ("pv-was-updated-and-added-topology-label", updated(
            PV, pv("Vol_1", {BETA_ZONE: "us-west1-a"}),
            pv("Vol_1", {BETA_ZONE: "us-west1-a", GA_ZONE: "zone"})), True),
        ("pv-was-updated-but-no-topology-is-changed", updated(
            PV, pv("Vol_1", {BETA_ZONE: "us-west1-a", GA_ZONE: "zone"}),
            pv("Vol_1", {BETA_ZONE: "us-west1-a", GA_ZONE: "zone"})), False),
        # An updated class is not registered (volumeBindingMode is immutable).
        ("(source) class update", updated(
            STORAGE_CLASS, storage_class("SC_1"), storage_class("SC_1", WAIT)), None),
    ],
)
def test_volume_zone_class_and_volume(
    name: str, event: StorageEvent, want: bool | None, features: Any
) -> None:
    pod = volume_pod("pod_1", claims=["PVC_1"])
    assert says("VolumeZone", pod, event, features) is want, name


def _two_claims(namespace: str = "default") -> Pod:
    claims = ["claim-with-rwx-1", "claim-with-rwx-2"]
    return volume_pod("pod-with-two-pvcs", namespace, claims=claims)


@BOTH
@pytest.mark.parametrize(
    ("name", "pod", "new", "want"),
    [
        ("queue-new-object-pvc-belong-pod", _two_claims(), pvc("claim-with-rwx-1"), True),
        ("skip-new-object-unused", volume_pod(claims=["claim-with-rwx-1"]),
         pvc("claim-with-rwx-2"), False),
        ("skip-new-object-namespace-not-equal-pod",
         volume_pod(namespace="kube-system", claims=["claim-with-rwx-1"]),
         pvc("claim-with-rwx-1"), False),
        ("(source) an updated claim is not registered", _two_claims(), None, None),
    ],
)
def test_volume_restrictions_claim(
    name: str, pod: Pod, new: Any, want: bool | None, features: Any
) -> None:
    event = added(PVC, new) if new is not None else updated(PVC, pvc("x"), pvc("x"))
    assert says("VolumeRestrictions", pod, event, features) is want, name


_GCE = {"gcePersistentDisk": {"pdName": "foo"}}
_AWS = {"awsElasticBlockStore": {"volumeID": "foo"}}
_RBD = {"rbd": {"monitors": ["a", "b"], "pool": "foo", "image": "bar", "fsType": "ext4"}}
_ISCSI = {"iscsi": {"targetPortal": "127.0.0.1:3260", "iqn": "iqn.2016-12.server:storage.target01",
                    "fsType": "ext4", "lun": 0}}


def _vol(source: dict[str, Any], **change: Any) -> dict[str, Any]:
    (kind, member), = source.items()
    return {"name": "v", kind: {**member, **change}}


def _claim(name: str) -> dict[str, Any]:
    return {"name": "v", "persistentVolumeClaim": {"claimName": name}}


def _worth(plugin: str, pod: Pod, event: Any, features: Any) -> str:
    info = QueuedPodInfo(pod=pod)
    info.unschedulable_plugins = {plugin}
    return worth_requeuing(info, event, {}, features)


@BOTH
@pytest.mark.parametrize(
    ("name", "mine", "theirs", "want"),
    [
        ("queue-new-object-gcedisk-conflict", _vol(_GCE), _vol(_GCE), AFTER_BACKOFF),
        ("skip-new-object-gcedisk-no-conflict", _vol(_GCE), _vol(_GCE, pdName="bar"), SKIP),
        ("queue-new-object-awsdisk-conflict", _vol(_AWS), _vol(_AWS), AFTER_BACKOFF),
        ("skip-new-object-awsdisk-no-conflict", _vol(_AWS), _vol(_AWS, volumeID="bar"), SKIP),
        ("queue-new-object-rbddisk-conflict", _vol(_RBD), _vol(_RBD), AFTER_BACKOFF),
        ("skip-new-object-rbddisk-no-conflict", _vol(_RBD), _vol(_RBD, monitors=["c", "d"]), SKIP),
        ("queue-new-object-iscsidisk-conflict", _vol(_ISCSI), _vol(_ISCSI), AFTER_BACKOFF),
        ("skip-new-object-iscsidisk-no-conflict", _vol(_ISCSI),
         _vol(_ISCSI, iqn="iqn.2017-12.server:storage.target01"), SKIP),
        ("queue-has-same-claim", _claim("claim-rwop"), _claim("claim-rwop"), AFTER_BACKOFF),
        ("skip-no-same-claim", _claim("claim-1-rwop"), _claim("claim-2-rwop"), SKIP),
    ],
)
def test_volume_restrictions_pod_deleted(
    name: str, mine: dict[str, Any], theirs: dict[str, Any], want: str, features: Any
) -> None:
    gone = make_pod("pod2", spec={"volumes": [theirs]})
    event = PodEvent(DELETE, gone, "")
    assert _worth("VolumeRestrictions", volume_pod("pod1", raw=[mine]), event, features) == want


_EBS_CLAIM = volume_pod(claims=["csi-ebs.csi.aws.com-2"])


def _deleted_pod(volumes: list[dict[str, Any]], node: str, nominated: str = "") -> PodEvent:
    spec: dict[str, Any] = {"volumes": volumes}
    pod = make_pod("deleted", node=node, spec=spec)
    pod.nominated_node_name = nominated
    return PodEvent(DELETE, pod, node)


_CLAIM = {"name": "v", "persistentVolumeClaim": {"claimName": "placeholder"}}


@pytest.mark.parametrize(
    ("name", "event", "features", "want"),
    [
        ("Queue when a deleted pod has a PVC", _deleted_pod([_CLAIM], "n1"), V132, AFTER_BACKOFF),
        ("Queue when a deleted pod has a inline migratable volume",
         _deleted_pod([_vol(_AWS)], "n1"), V132, AFTER_BACKOFF),
        ("QueueSkip when a deleted pod doesn't have any volume", _deleted_pod([], "n1"), V132,
         SKIP),
        ("QueueSkip when a deleted pod is not scheduled", _deleted_pod([_CLAIM], ""), V132, SKIP),
        ("(source) 1.32: a nominated pod is not counted",
         _deleted_pod([_CLAIM], "", "n1"), V132, SKIP),
        ("(source) 1.33+: a nominated pod is counted",
         _deleted_pod([_CLAIM], "", "n1"), V136, AFTER_BACKOFF),
    ],
)
def test_csi_limits_pod_deleted(name: str, event: PodEvent, features: Any, want: str) -> None:
    assert _worth("NodeVolumeLimits", _EBS_CLAIM, event, features) == want, name


@BOTH
@pytest.mark.parametrize(
    ("name", "pod", "new", "want"),
    [
        ("a pod isn't in the same namespace as an added PVC", volume_pod(namespace="ns1"),
         pvc("pvc", "ns2"), False),
        ("a pod is in the same namespace as an added PVC", volume_pod(namespace="ns1",
         claims=["pvc1"]), pvc("pvc1", "ns1"), True),
        ("a pod has an ephemeral volume related to an added PVC",
         volume_pod("pod1", "ns1", ephemeral=["ephemeral"]), pvc("pod1-ephemeral", "ns1"), True),
        ("a pod doesn't have the same PVC as an added PVC",
         volume_pod(namespace="ns1", claims=["pvc1"]), pvc("pvc2", "ns1"), False),
        ("a pod doesn't have any PVC attached", volume_pod(namespace="ns1"), pvc("pvc2", "ns1"),
         False),
    ],
)
def test_csi_limits_claim_added(
    name: str, pod: Pod, new: Any, want: bool, features: Any
) -> None:
    assert says("NodeVolumeLimits", pod, added(PVC, new), features) is want, name


_PVC1 = {"name": "c", "persistentVolumeClaim": {"claimName": "pvc1"}}
_GCE_TEST = _vol(_GCE, pdName="test")
_AWS_TEST = _vol(_AWS, volumeID="test")


@pytest.mark.parametrize(
    ("name", "volumes", "attacher", "want"),
    [
        ("a pod has PVC when VolumeAttachment is deleting", [_PVC1], "test.storage.gke.io", True),
        ("Inline Migratable volume (AWSEBSDriver), VolumeAttachment (AWSEBSDriver) (match)",
         [_AWS_TEST], "ebs.csi.aws.com", True),
        ("Inline Migratable volume (GCEPDDriver), VolumeAttachment (AWSEBSDriver) (no match)",
         [_GCE_TEST], "ebs.csi.aws.com", False),
        ("Inline Migratable volume (AWSEBSDriver) and PVC, VolumeAttachment (AWSEBSDriver)",
         [_AWS_TEST, _PVC1], "ebs.csi.aws.com", True),
        ("Inline Migratable volume (AWSEBSDriver) and PVC, VolumeAttachment (other)",
         [_AWS_TEST, _PVC1], "test.storage.gke.io", True),
        ("a pod has no PVC when VolumeAttachment is deleting", [], "test.storage.gke.io", False),
    ],
)
def test_csi_limits_attachment_deleted(
    name: str, volumes: list[dict[str, Any]], attacher: str, want: bool
) -> None:
    pod = volume_pod(namespace="ns1", raw=volumes)
    event = deleted(VOLUME_ATTACHMENT, VolumeAttachment(attacher))
    assert says("NodeVolumeLimits", pod, event, V136) is want, name
    # v1.32 registers the deletion without a hint: it always queues.
    assert says("NodeVolumeLimits", pod, event, V132) is True, name


@pytest.mark.parametrize(
    ("name", "old", "new", "want"),
    [
        ("limit raised, queue", 1, 2, True),
        ("limit decreased, skip queueing", 2, 1, False),
        ("limit unchanged, skip queueing", 1, 1, False),
    ],
)
def test_csi_limits_csi_node_updated(name: str, old: int, new: int, want: bool) -> None:
    pod = volume_pod("test-pod", "ns1", claims=["csi-ebs.csi.aws.com-0"])
    event = updated(CSI_NODE, csi_node(drivers={"ebs.csi.aws.com": old}),
                    csi_node(drivers={"ebs.csi.aws.com": new}))
    assert says("NodeVolumeLimits", pod, event, V136) is want, name
    assert says("NodeVolumeLimits", pod, event, V132) is None, name  # not registered in v1.32


@BOTH
def test_unregistered_plugins(features: Any) -> None:
    """Plugins with EnqueueExtensions but no storage events are not asked; an unknown
    plugin (or an extender) takes every event (defaultEnqueueExtension)."""
    event = added(PVC, pvc("data"))
    pod = volume_pod(claims=["data"])
    assert says("NodeResourcesFit", pod, event, features) is None
    assert says("TaintToleration", pod, event, features) is None
    assert says("OutOfTreePlugin", pod, event, features) is True
    assert _worth("NodeResourcesFit", pod, event, features) == SKIP


def test_of_interest() -> None:
    hints = ProfileHints({}, extenders=False, namespace_labels=lambda _: {}, features=V136)
    hints._enabled = {"NodeResourcesFit", "VolumeZone"}
    assert hints.of_interest(added(STORAGE_CLASS, storage_class("s")))
    assert not hints.of_interest(added(CSI_NODE, csi_node()))
    hints._enabled = {"NodeResourcesFit", "NodeVolumeLimits"}
    assert hints.of_interest(added(CSI_NODE, csi_node()))
    assert V130.csi_limits_hints_v2 is False and V136.csi_limits_hints_v2 is True
