"""VolumeBinding's storage queueing hints (v1.32+), table-driven.

Rows follow upstream volume_binding_test.go (TestIsSchedulableAfterCSINodeChange,
TestIsSchedulableAfterPersistentVolumeClaimChange, TestIsSchedulableAfterStorageClassChange,
TestIsSchedulableAfterCSIStorageCapacityChange, TestIsSchedulableAfterCSIDriverChange) as
read in a 1.37 development tree (natasha41575/kubernetes@9829b8d7); the hint functions
they test are the same in v1.32.5 and v1.35.7.
The "type conversion error" rows have no counterpart (events carry typed objects).
"""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.api.pod import Pod
from ksched_cli.engine.actions import CSI_CAPACITY, CSI_DRIVER, CSI_NODE, PV, PVC, STORAGE_CLASS
from ksched_cli.engine.storage_hints import CSIDriver, CSIStorageCapacity, StorageEvent
from ksched_cli.versions.releases import release
from tests.versions.storage_fixtures import (
    added,
    csi_node,
    hostnames,
    pv,
    pvc,
    says,
    storage_class,
    updated,
    volume_pod,
)

V132 = release("1.32").features
V136 = release("1.36").features
BOTH = pytest.mark.parametrize("features", [V132, V136], ids=["1.32", "1.36"])


def _binding(pod: Pod, event: StorageEvent, features: Any) -> bool | None:
    return says("VolumeBinding", pod, event, features)


@BOTH
@pytest.mark.parametrize(
    ("name", "event", "want"),
    [
        ("CSINode is newly created", added(CSI_NODE, csi_node()), True),
        ("migrated-plugins annotation is added", updated(
            CSI_NODE, csi_node(migrated="test1"), csi_node(migrated="test1, test2")), True),
        ("migrated-plugins annotation is updated", updated(
            CSI_NODE, csi_node(migrated="test1"), csi_node(migrated="test2")), True),
        ("updated but migrated-plugins annotation unchanged", updated(
            CSI_NODE, csi_node(migrated="test1"), csi_node(migrated="test1")), False),
    ],
)
def test_csi_node_change(name: str, event: StorageEvent, want: bool, features: Any) -> None:
    assert _binding(volume_pod(), event, features) is want, name


@BOTH
@pytest.mark.parametrize(
    ("name", "pod", "old", "new", "want"),
    [
        ("pod has no pvc or ephemeral volumes",
         volume_pod(raw=[{"name": "e", "emptyDir": {}}]), pvc("pvc-b"), pvc("pvc-b"), False),
        ("same-named pvc in a different namespace is modified",
         volume_pod(namespace="ns-a", claims=["pvc-a", "pvc-b"]), None, pvc("pvc-b"), False),
        ("pod has no pvc that is being modified",
         volume_pod(claims=["pvc-a", "pvc-c"]), pvc("pvc-b"), pvc("pvc-b"), False),
        ("pod has no generic ephemeral volume that is being modified",
         volume_pod(ephemeral=["ephemeral-a", "ephemeral-c"]),
         pvc("pod-a-ephemeral-b"), pvc("pod-a-ephemeral-b"), False),
        ("pod has the pvc that is being modified",
         volume_pod(claims=["pvc-a", "pvc-b"]), pvc("pvc-b"), pvc("pvc-b"), True),
        ("pod has the generic ephemeral volume that is being modified",
         volume_pod(ephemeral=["ephemeral-a", "ephemeral-b"]),
         pvc("pod-a-ephemeral-b"), pvc("pod-a-ephemeral-b"), True),
    ],
)
def test_claim_change(name: str, pod: Pod, old: Any, new: Any, want: bool, features: Any) -> None:
    event = added(PVC, new) if old is None else updated(PVC, old, new)
    assert _binding(pod, event, features) is want, name


@BOTH
@pytest.mark.parametrize(
    ("name", "event", "want"),
    [
        ("a new StorageClass is created", added(STORAGE_CLASS, storage_class("sc-a")), True),
        ("AllowedTopologies are changed", updated(
            STORAGE_CLASS, storage_class("sc-a"),
            storage_class("sc-a", topologies=hostnames("node-a"))), True),
        ("no changes to the StorageClass", updated(
            STORAGE_CLASS, storage_class("sc-a"), storage_class("sc-a")), False),
    ],
)
def test_storage_class_change(name: str, event: StorageEvent, want: bool, features: Any) -> None:
    assert _binding(volume_pod(), event, features) is want, name


def _cap(capacity: int | None = None, maximum: int | None = None) -> CSIStorageCapacity:
    return CSIStorageCapacity(capacity, maximum)


@BOTH
@pytest.mark.parametrize(
    ("name", "old", "new", "want"),
    [
        ("a new CSIStorageCapacity is created", None, _cap(), True),
        ("volume limit increase (Capacity set)", _cap(), _cap(100), True),
        ("volume limit increase (MaximumVolumeSize set)", _cap(), _cap(None, 100), True),
        ("volume limit increase (Capacity increase)", _cap(50), _cap(100), True),
        ("volume limit increase (MaximumVolumeSize unset)", _cap(100, 50), _cap(100), True),
        ("volume limit increase (MaximumVolumeSize increase)", _cap(100, 50), _cap(100, 60), True),
        ("no changes", _cap(100, 50), _cap(100, 50), False),
        ("volume limit equal (Capacity)", _cap(100), _cap(100), False),
        ("volume limit equal (MaximumVolumeSize unset)", _cap(100, 50), _cap(50), False),
        ("volume limit decrease (Capacity)", _cap(100), _cap(90), False),
        ("volume limit decrease (MaximumVolumeSize)", _cap(None, 100), _cap(None, 90), False),
    ],
)
def test_capacity_change(name: str, old: Any, new: Any, want: bool, features: Any) -> None:
    event = added(CSI_CAPACITY, new) if old is None else updated(CSI_CAPACITY, old, new)
    assert _binding(volume_pod(), event, features) is want, name


@BOTH
@pytest.mark.parametrize(
    ("name", "pod", "old", "new", "want"),
    [
        ("pod has no CSIDriver", volume_pod(), CSIDriver("test1"), CSIDriver("test1", True),
         False),
        ("driver name in pod and csidriver name are different", volume_pod(csi=["test1"]),
         CSIDriver("test2", True), CSIDriver("test2", False), False),
        ("original StorageCapacity is nil", volume_pod(csi=["test1"]),
         CSIDriver("test1"), CSIDriver("test1"), False),
        ("original StorageCapacity is false", volume_pod(csi=["test1"]),
         CSIDriver("test1", False), CSIDriver("test1", False), False),
        ("modified StorageCapacity is nil", volume_pod(csi=["test1"]),
         CSIDriver("test1", True), CSIDriver("test1"), True),
        ("modified StorageCapacity is true", volume_pod(csi=["test1"]),
         CSIDriver("test1", True), CSIDriver("test1", True), False),
        ("modified StorageCapacity is false", volume_pod(csi=["test1"]),
         CSIDriver("test1", True), CSIDriver("test1", False), True),
    ],
)
def test_csi_driver_change(
    name: str, pod: Pod, old: CSIDriver, new: CSIDriver, want: bool, features: Any
) -> None:
    assert _binding(pod, updated(CSI_DRIVER, old, new), features) is want, name


@BOTH
def test_registrations(features: Any) -> None:
    """PV events queue without a hint; a CSIDriver is registered for updates only."""
    assert _binding(volume_pod(), added(PV, pv("pv-a")), features) is True
    assert _binding(volume_pod(csi=["d"]), added(CSI_DRIVER, CSIDriver("d")), features) is None
