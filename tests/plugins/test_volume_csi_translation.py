from __future__ import annotations

import pytest

from ksched_cli.api.selectors import NodeSelector, NodeSelectorTerm, Requirement
from ksched_cli.plugins.nodevolumelimits import csi_translation as ct
from tests.plugins.volume_helpers import affinity, make_pv

GCE = ct.plugin_by_name("kubernetes.io/gce-pd")
EBS = ct.plugin_by_name("kubernetes.io/aws-ebs")
AZURE = ct.plugin_by_name("kubernetes.io/azure-disk")
GKE_ZONE = "topology.gke.io/zone"


@pytest.mark.parametrize(("given", "want"), [
    ("vol-123", "vol-123"),
    ("aws://us-east-1a/vol-123", "vol-123"),
    ("aws:///vol-123", "vol-123"),
    ("something-else", "something-else"),
])
def test_ebs_volume_id(given: str, want: str) -> None:
    assert ct.ebs_volume_id(given) == want


def test_ebs_volume_id_rejects_odd_ids() -> None:
    with pytest.raises(ct.TranslationError, match=r"Invalid format for AWS volume \(aws://z/x\)"):
        ct.ebs_volume_id("aws://z/x")


@pytest.mark.parametrize(("labels", "want"), [
    ({}, "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/pd"),
    ({"topology.kubernetes.io/zone": "us-central1-a"},
     "projects/UNSPECIFIED/zones/us-central1-a/disks/pd"),
    ({"failure-domain.beta.kubernetes.io/zone": "us-central1-a__us-central1-b"},
     "projects/UNSPECIFIED/regions/us-central1/disks/pd"),
])
def test_gce_pv_handle(labels: dict[str, str], want: str) -> None:
    assert GCE is not None
    pv = make_pv("pv", labels=labels, source={"gcePersistentDisk": {"pdName": "pd"}})
    assert ct.pv_volume_handle(pv, GCE) == want


def test_gce_regional_pv_across_regions() -> None:
    assert GCE is not None
    pv = make_pv("pv", labels={"topology.kubernetes.io/zone": "us-east1-a__us-west1-b"},
                 source={"gcePersistentDisk": {"pdName": "pd"}})
    with pytest.raises(ct.TranslationError) as err:
        ct.pv_volume_handle(pv, GCE)
    assert str(err.value) == ("failed to get region from zones: multiple or no regions "
                              "gotten from zones, got: map[us-east1:{} us-west1:{}]")


def term(*reqs: Requirement) -> NodeSelectorTerm:
    return NodeSelectorTerm(tuple(reqs))


def test_affinity_zone_key_is_renamed() -> None:
    assert GCE is not None
    pv = make_pv("pv", node_affinity=affinity("topology.kubernetes.io/zone", "z1"),
                 source={"gcePersistentDisk": {"pdName": "pd"}})
    assert ct.translate_pv_affinity(pv, GCE) == NodeSelector((term(
        Requirement(GKE_ZONE, "In", ("z1",))),))


def test_zone_labels_become_affinity_and_beta_region_goes_ga() -> None:
    assert EBS is not None
    beta_region = "failure-domain.beta.kubernetes.io/region"
    pv = make_pv("pv", labels={"failure-domain.beta.kubernetes.io/zone": "b__a"},
                 node_affinity=affinity(beta_region, "r"),
                 source={"awsElasticBlockStore": {"volumeID": "vol-1"}})
    assert ct.translate_pv_affinity(pv, EBS) == NodeSelector((term(
        Requirement("topology.kubernetes.io/region", "In", ("r",)),
        Requirement("topology.ebs.csi.aws.com/zone", "In", ("a", "b")),
    ),))


def test_azure_disk_keeps_its_affinity() -> None:
    assert AZURE is not None
    pv = make_pv("pv", labels={"topology.kubernetes.io/zone": "z"},
                 source={"azureDisk": {"diskName": "d", "diskURI": "uri", "kind": "managed"}})
    assert ct.translate_pv(pv, AZURE) == ("uri", None)
