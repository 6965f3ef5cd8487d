"""The storage models and PodGroup, parsed from decoded manifests."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from ksched_cli.api.meta import DEFAULT_TIME, parse_time
from ksched_cli.api.podgroup import parse_pod_group
from ksched_cli.api.selectors import Requirement
from ksched_cli.api.storage import (
    ClaimRef,
    TopologySelectorTerm,
    VolumeSource,
    match_topology_terms,
    parse_csi_node,
    parse_persistent_volume,
    parse_persistent_volume_claim,
    parse_storage_class,
)
from ksched_cli.errors import ObjectError


def raw(text: str) -> Any:
    return yaml.safe_load(text)


PV = """
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-b
  labels: {topology.kubernetes.io/zone: zone-b}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce, ReadOnlyMany]
  storageClassName: standard
  csi: {driver: csi.example.com, volumeHandle: vol-b}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: [zone-b]}
  claimRef: {kind: PersistentVolumeClaim, namespace: web, name: data, uid: u1}
status: {phase: Bound}
"""


def test_persistent_volume() -> None:
    pv = parse_persistent_volume(raw(PV))
    assert (pv.name, pv.capacity, pv.access_modes) == ("pv-b", 10 * 2**30,
                                                       ("ReadWriteOnce", "ReadOnlyMany"))
    assert (pv.storage_class_name, pv.phase, pv.volume_mode, pv.reclaim_policy) == (
        "standard", "Bound", "Filesystem", "Retain")
    assert pv.claim_ref == ClaimRef("web", "data", "u1") and pv.claim_ref.key == "web/data"
    assert pv.source.kind == "csi" and pv.source.driver == "csi.example.com"
    assert pv.source.handle == "vol-b"
    assert pv.labels == {"topology.kubernetes.io/zone": "zone-b"}
    assert pv.node_affinity is not None
    assert pv.node_affinity.matches({"topology.kubernetes.io/zone": "zone-b"}, "n1")
    assert not pv.node_affinity.matches({"topology.kubernetes.io/zone": "zone-a"}, "n1")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("awsElasticBlockStore: {volumeID: v1}", VolumeSource("awsElasticBlockStore", "", "v1")),
        ("gcePersistentDisk: {pdName: pd-1}", VolumeSource("gcePersistentDisk", "", "pd-1")),
        ("azureDisk: {diskName: d1, diskURI: uri}", VolumeSource("azureDisk", "", "d1")),
        ("local: {path: /mnt/d}", VolumeSource("local", "", "/mnt/d")),
        ("hostPath: {path: /tmp}", VolumeSource("hostPath", "", "/tmp")),
        ("", VolumeSource()),
    ],
)
def test_volume_source(source: str, expected: VolumeSource) -> None:
    pv = parse_persistent_volume(raw(f"metadata: {{name: p}}\nspec:\n  capacity: {{storage: 1}}\n"
                                     f"  {source}\n"))
    assert (pv.source.kind, pv.source.driver, pv.source.handle) == (
        expected.kind, expected.driver, expected.handle)
    assert pv.phase == "Pending" and pv.claim_ref is None and pv.node_affinity is None


def test_pv_beta_class_annotation_wins() -> None:
    pv = parse_persistent_volume(raw(
        "metadata: {name: p, annotations: {volume.beta.kubernetes.io/storage-class: beta}}\n"
        "spec: {capacity: {storage: 1Gi}, storageClassName: field}\n"))
    assert pv.storage_class_name == "beta"


@pytest.mark.parametrize(
    ("spec", "expected_class"),
    [("", None), ("storageClassName: ''", ""), ("storageClassName: fast", "fast")],
)
def test_claim_storage_class_none_vs_empty(spec: str, expected_class: str | None) -> None:
    claim = parse_persistent_volume_claim(raw(
        f"metadata: {{name: c, namespace: web}}\n"
        f"spec: {{resources: {{requests: {{storage: 500Mi}}}}, {spec}}}\n"))
    assert claim.storage_class_name == expected_class
    assert claim.class_name == (expected_class or "")


def test_claim() -> None:
    claim = parse_persistent_volume_claim(raw("""
metadata:
  name: data
  annotations:
    volume.kubernetes.io/selected-node: node-1
    pv.kubernetes.io/bind-completed: "yes"
spec:
  accessModes: [ReadWriteOncePod]
  resources: {requests: {storage: 1.5Gi}}
  volumeName: pv-1
  volumeMode: Block
  selector: {matchLabels: {tier: gold}}
status: {phase: Bound}
"""))
    assert (claim.key, claim.requested, claim.volume_name, claim.phase) == (
        "default/data", 3 * 2**29, "pv-1", "Bound")
    assert (claim.access_modes, claim.volume_mode) == (("ReadWriteOncePod",), "Block")
    assert (claim.selected_node, claim.bind_completed) == ("node-1", True)
    assert claim.selector is not None and claim.selector.matches({"tier": "gold"})


def test_storage_class() -> None:
    sc = parse_storage_class(raw("""
metadata: {name: zonal}
provisioner: csi.example.com
volumeBindingMode: WaitForFirstConsumer
parameters: {type: gp3, iops: 3000}
allowedTopologies:
- matchLabelExpressions:
  - {key: topology.kubernetes.io/zone, values: [zone-a, zone-b]}
"""))
    assert (sc.name, sc.provisioner, sc.volume_binding_mode) == (
        "zonal", "csi.example.com", "WaitForFirstConsumer")
    assert sc.parameters == {"type": "gp3", "iops": "3000"} and not sc.is_default
    assert sc.allowed_topologies == (TopologySelectorTerm(
        (Requirement("topology.kubernetes.io/zone", "In", ("zone-a", "zone-b")),)),)
    assert parse_storage_class(raw("metadata: {name: s}\nprovisioner: p\n")).volume_binding_mode \
        == "Immediate"


def test_match_topology_terms() -> None:
    zone_a = TopologySelectorTerm((Requirement("zone", "In", ("a",)),))
    assert match_topology_terms((), {})
    assert match_topology_terms((zone_a,), {"zone": "a"})
    assert not match_topology_terms((zone_a,), {"zone": "b"})
    assert not match_topology_terms((TopologySelectorTerm(),), {"zone": "a"})


def test_csi_node() -> None:
    csi = parse_csi_node(raw("""
metadata: {name: node-0}
spec:
  drivers:
  - {name: a.csi, nodeID: n0, topologyKeys: [zone], allocatable: {count: 3}}
  - {name: b.csi, nodeID: n0-b}
"""))
    assert csi.name == "node-0"
    a, b = csi.drivers
    assert (a.name, a.node_id, a.allocatable, a.topology_keys) == ("a.csi", "n0", 3, ("zone",))
    assert (b.allocatable, csi.driver("b.csi"), csi.driver("c.csi")) == (None, b, None)


def test_pod_group() -> None:
    group = parse_pod_group(raw("""
metadata: {name: job, namespace: team-a, creationTimestamp: '2024-01-01T00:00:30Z'}
spec:
  minMember: 3
  minResources: {cpu: 1500m, memory: 4Gi, nvidia.com/gpu: 2}
  scheduleTimeoutSeconds: 20
"""))
    assert (group.key, group.min_member, group.schedule_timeout_seconds) == ("team-a/job", 3, 20)
    assert group.min_resources == {"cpu": 1500, "memory": 4 * 2**30, "nvidia.com/gpu": 2}
    assert group.creation_timestamp == parse_time("2024-01-01T00:00:30Z", "")
    bare = parse_pod_group(raw("metadata: {name: g}\nspec: {minMember: 1}\n"))
    assert (bare.schedule_timeout_seconds, bare.creation_timestamp, bare.min_resources) == (
        None, DEFAULT_TIME, {})


@pytest.mark.parametrize(
    ("parse", "text", "field", "message"),
    [
        (parse_persistent_volume, "metadata: {name: p}\nspec: {}\n", "spec.capacity.storage",
         "Required value"),
        (parse_persistent_volume, "metadata: {name: p}\nspec: {capacity: {storage: 1}, "
         "accessModes: [RWO]}\n", "spec.accessModes[0]", 'Unsupported value: "RWO": supported '
         'values: "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"'),
        (parse_persistent_volume_claim, "metadata: {name: c}\nspec: {resources: {requests: "
         "{storage: 1}}, volumeMode: Raw}\n", "spec.volumeMode",
         'Unsupported value: "Raw": supported values: "Filesystem", "Block"'),
        (parse_storage_class, "metadata: {name: s}\n", "provisioner", "Required value"),
        (parse_storage_class, "metadata: {name: s}\nprovisioner: p\nallowedTopologies:\n"
         "- matchLabelExpressions: [{key: z}]\n", ".allowedTopologies[0].matchLabelExpressions[0]"
         ".values", "Required value: must specify as least one value"),
        (parse_csi_node, "metadata: {name: n}\nspec: {drivers: [{name: d, allocatable: "
         "{count: many}}]}\n", "spec.drivers[0].allocatable.count",
         "expected an integer, got string"),
        (parse_pod_group, "metadata: {name: g}\nspec: {minMember: -1}\n", "spec.minMember",
         "Invalid value: -1: must be non-negative"),
    ],
)
def test_model_errors(parse: Any, text: str, field: str, message: str) -> None:
    with pytest.raises(ObjectError) as info:
        parse(raw(text))
    assert (info.value.field, info.value.message) == (field, message)
