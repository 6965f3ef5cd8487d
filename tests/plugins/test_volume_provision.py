"""The volume a provisioner creates for the node the scheduler picked: its topology
(external-provisioner's rule and ksched's fallbacks, docs/semantics.md §6)."""

from __future__ import annotations

import pytest

from ksched_cli.api.meta import ObjectMeta
from ksched_cli.api.storage import CSINode, CSINodeDriver, PersistentVolumeClaim, StorageClass
from ksched_cli.plugins.volumebinding.provision import provisioned, volume_topology
from tests.fakes import make_node

EBS = "ebs.csi.aws.com"
ZONE = "topology.kubernetes.io/zone"
REGION = "topology.kubernetes.io/region"
EBS_ZONE = "topology.ebs.csi.aws.com/zone"
LABELS = {ZONE: "z1", REGION: "r1", EBS_ZONE: "z1", "kubernetes.io/hostname": "n1"}


def _csi(*drivers: CSINodeDriver) -> CSINode:
    return CSINode(ObjectMeta(name="n1"), drivers)


@pytest.mark.parametrize(
    ("provisioner", "labels", "csi", "segment", "rule"),
    [
        (EBS, LABELS, _csi(CSINodeDriver(EBS, "i-1", None, (EBS_ZONE,))),
         ((EBS_ZONE, "z1"),), "CSINode n1 topologyKeys of ebs.csi.aws.com"),
        (EBS, LABELS, _csi(CSINodeDriver(EBS, "i-1", None, ())),
         (), "CSINode n1: ebs.csi.aws.com reports no topology keys"),
        (EBS, LABELS, None, ((REGION, "r1"), (ZONE, "z1")),
         "no CSINode entry for ebs.csi.aws.com on n1: the node's region/zone labels"),
        (EBS, {ZONE: "z1"}, _csi(CSINodeDriver("other", "x", None, (ZONE,))),
         ((ZONE, "z1"),),
         "no CSINode entry for ebs.csi.aws.com on n1: the node's region/zone labels"),
        (EBS, {}, None, (("kubernetes.io/hostname", "n1"),),
         "no CSINode entry for ebs.csi.aws.com on n1, no region/zone labels: the node"),
        (EBS, {ZONE: "z1"}, _csi(CSINodeDriver(EBS, "i-1", None, (EBS_ZONE,))),
         ((ZONE, "z1"),),
         "node n1 lacks a topology key CSINode names for ebs.csi.aws.com: the node's "
         "region/zone labels"),
        ("rancher.io/local-path", LABELS, None, (("kubernetes.io/hostname", "n1"),),
         "node-local provisioner rancher.io/local-path"),
    ],
    ids=["csinode-keys", "csinode-no-keys", "zone-labels", "other-driver-only", "hostname",
         "missing-key", "node-local"],
)
def test_volume_topology(provisioner: str, labels: dict[str, str], csi: CSINode | None,
                         segment: tuple[tuple[str, str], ...], rule: str) -> None:
    topology = volume_topology(provisioner, make_node("n1", labels=labels), csi)
    assert (topology.segment, topology.rule) == (segment, rule)


def test_provisioned_volume_is_bound_with_the_topology_as_node_affinity() -> None:
    claim = PersistentVolumeClaim(ObjectMeta(name="data", namespace="shop", uid="u-1"), "gp3",
                                  "", ("ReadWriteOnce",), 50 * 2**30, None)
    sc = StorageClass(ObjectMeta(name="gp3"), EBS)
    node = make_node("n1", labels=LABELS)
    pv, bound, _ = provisioned(claim, sc, node, _csi(CSINodeDriver(EBS, "i", None, (EBS_ZONE,))))
    assert (pv.name, pv.capacity, pv.storage_class_name, pv.phase) == (
        "pvc-u-1", 50 * 2**30, "gp3", "Bound")
    assert pv.claim_ref is not None and pv.claim_ref.key == "shop/data"
    assert pv.node_affinity is not None
    assert pv.node_affinity.matches({EBS_ZONE: "z1"}, "n2")
    assert not pv.node_affinity.matches({EBS_ZONE: "z2"}, "n1")
    assert (bound.volume_name, bound.phase) == ("pvc-u-1", "Bound")
