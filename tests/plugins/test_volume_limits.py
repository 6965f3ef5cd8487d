"""NodeVolumeLimits (CSI) and the in-tree EBS / GCE PD / Azure Disk / Cinder limits."""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code, Status
from ksched_cli.plugins.nodevolumelimits import (
    csi,
    non_csi,
    non_csi_azure,
    non_csi_cinder,
    non_csi_ebs,
    non_csi_gce,
)
from ksched_cli.plugins.nodevolumelimits.utils import csi_attach_limit_key
from ksched_cli.plugins.registry import build_plugin
from tests.fakes import make_node
from tests.plugins.volume_helpers import (
    bound_pvc,
    claim_volume,
    make_csi_node,
    make_handle,
    make_pv,
    make_pvc,
    make_sc,
    pod_with,
    pod_with_claims,
    run_filters,
)

Raw = dict[str, Any]
EXCEED = Status(Code.UNSCHEDULABLE, "node(s) exceed max volume count")
SKIP = Status(Code.SKIP)
DRIVER = "csi.example.com"


def ebs(vol_id: str) -> Raw:
    return {"name": f"ebs-{vol_id}", "awsElasticBlockStore": {"volumeID": vol_id}}


def gce(pd: str) -> Raw:
    return {"name": f"gce-{pd}", "gcePersistentDisk": {"pdName": pd}}


def csi_pv(name: str, driver: str = DRIVER) -> Any:
    return make_pv(name, claim=f"c-{name}", phase="Bound",
                   source={"csi": {"driver": driver, "volumeHandle": f"h-{name}"}})


# --- NodeVolumeLimits -----------------------------------------------------------------

# (name, running pod's claims, new pod's claims, CSINode count, filter status)
CSI_CASES: list[tuple[str, tuple[str, ...], tuple[str, ...], int | None, Status | None]] = [
    ("under the limit", ("a",), ("b",), 2, None),
    ("over the limit", ("a",), ("b",), 1, EXCEED),
    ("new pod alone over the limit", (), ("a", "b"), 1, EXCEED),
    ("a shared volume counts once", ("a",), ("a",), 1, None),
    ("no allocatable count: no limit", ("a", "b"), ("c",), None, None),
    ("unbound claim counted through its class", ("a",), ("dyn",), 1, EXCEED),
    ("unbound claim of another driver", ("a",), ("other",), 1, None),
]


@pytest.mark.parametrize(("name", "running", "new", "count", "want"), CSI_CASES,
                         ids=[c[0] for c in CSI_CASES])
def test_csi_limits(name: str, running: tuple[str, ...], new: tuple[str, ...],
                    count: int | None, want: Status | None) -> None:
    pvs = [csi_pv(n) for n in ("a", "b", "c")]
    pvcs = [bound_pvc(f"c-{n}", n) for n in ("a", "b", "c")]
    pvcs += [make_pvc("c-dyn", "sc"), make_pvc("c-other", "sc-other")]
    classes = [make_sc("sc", DRIVER, "WaitForFirstConsumer"), make_sc("sc-other", "other.csi")]
    pods = [pod_with_claims("run", *(f"c-{c}" for c in running), node="n1")] if running else []
    handle = make_handle([make_node("n1")], pods, pvs, pvcs, classes,
                         [make_csi_node("n1", {DRIVER: count})])
    pod = pod_with_claims("p", *(f"c-{c}" for c in new))
    pre, statuses = run_filters(csi.Plugin(None, handle), handle, pod)
    assert pre is None
    assert statuses == {"n1": want}


def test_csi_limit_from_node_allocatable_without_csi_node() -> None:
    node = make_node("n1", extra={csi_attach_limit_key(DRIVER): "1"})
    run = pod_with_claims("run", "c-a", node="n1")
    handle = make_handle([node], [run], [csi_pv("a"), csi_pv("b")],
                         [bound_pvc("c-a", "a"), bound_pvc("c-b", "b")])
    _, statuses = run_filters(csi.Plugin(None, handle), handle, pod_with_claims("p", "c-b"))
    assert statuses == {"n1": EXCEED}


def test_csi_pre_filter_and_missing_claim() -> None:
    handle = make_handle([make_node("n1")], csi_nodes=[make_csi_node("n1", {DRIVER: 1})])
    plugin = csi.Plugin(None, handle)
    assert plugin.pre_filter(CycleState(), pod_with("p", {"name": "e", "emptyDir": {}})) == (
        None, SKIP)
    # Inline EBS is migratable, so the pod is not skipped (the count depends on the node).
    assert plugin.pre_filter(CycleState(), pod_with("p", ebs("vol-1"))) == (None, None)
    status = plugin.filter(CycleState(), pod_with_claims("p", "nope"), handle.node("n1"))
    assert status == Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                            'looking up PVC default/nope: persistentvolumeclaim "nope" not found')


# (name, has a CSINode, its migrated-plugins annotation, filter status of NodeVolumeLimits,
# of EBSLimits). v1.30.6's isCSIMigrationOn returns true for aws-ebs on any node with a
# CSINode without reading the annotation (nodevolumelimits/utils.go): NodeVolumeLimits
# counts the volume there and EBSLimits leaves the node to it. Upstream's own row agrees:
# v1.36.2 csi_test.go "should count in-tree volumes if migration is enabled" builds its
# CSINode without the annotation and expects the max-volume-count rejection.
MIGRATION_CASES: list[tuple[str, bool, str | None, Status | None, Status | None]] = [
    ("no CSINode: EBSLimits counts", False, None, None, EXCEED),
    ("CSINode without the annotation: NodeVolumeLimits counts", True, None, EXCEED, None),
    ("migrated: NodeVolumeLimits counts", True, "kubernetes.io/aws-ebs", EXCEED, None),
    ("other plugin listed: NodeVolumeLimits counts", True, "kubernetes.io/gce-pd", EXCEED, None),
]


@pytest.mark.parametrize(("name", "has_csi_node", "migrated", "want_csi", "want_ebs"),
                         MIGRATION_CASES, ids=[c[0] for c in MIGRATION_CASES])
def test_ebs_migration(name: str, has_csi_node: bool, migrated: str | None,
                       want_csi: Status | None, want_ebs: Status | None) -> None:
    node = make_node("n1", extra={"attachable-volumes-aws-ebs": "1"})
    csi_node = make_csi_node("n1", {"ebs.csi.aws.com": 1}, migrated=migrated)
    # Translation normalises aws://<zone>/<id> to the bare id: see the `same` pod below.
    run = pod_with("run", ebs("aws://us-east-1a/vol-1"), node="n1")
    handle = make_handle([node], [run], csi_nodes=[csi_node] if has_csi_node else [])
    pod = pod_with("p", ebs("vol-2"))
    assert run_filters(csi.Plugin(None, handle), handle, pod)[1] == {"n1": want_csi}
    assert run_filters(non_csi_ebs.Plugin(None, handle), handle, pod)[1] == {"n1": want_ebs}
    same = pod_with("same", ebs("vol-1"))
    assert run_filters(csi.Plugin(None, handle), handle, same)[1] == {"n1": None}


def test_migrated_pv_and_translation_errors() -> None:
    csi_node = make_csi_node("n1", {"disk.csi.azure.com": 1},
                             migrated="kubernetes.io/azure-disk")
    managed = make_pv("managed", source={"azureDisk": {"diskName": "d1", "diskURI": "uri-1",
                                                       "kind": "Managed"}})
    shared = make_pv("shared", source={"azureDisk": {"diskName": "d2", "diskURI": "uri-2"}})
    run = pod_with_claims("run", "c-managed", node="n1")
    pvcs = [bound_pvc("c-managed", "managed"), bound_pvc("c-shared", "shared")]
    handle = make_handle([make_node("n1")], [run], [managed, shared], pvcs, csi_nodes=[csi_node])
    plugin = csi.Plugin(None, handle)
    # An Azure disk of the default kind (Shared) cannot be translated: it is not counted.
    assert run_filters(plugin, handle, pod_with_claims("p", "c-shared"))[1] == {"n1": None}
    inline = pod_with("q", {"name": "az", "azureDisk": {"diskName": "d3", "diskURI": "uri-3"}})
    status = run_filters(plugin, handle, inline)[1]["n1"]
    assert status is not None and status.code == Code.ERROR
    assert status.message() == (
        "converting volume(az) from inline to csi: kind(Shared) is not supported in csi migration"
    )


def test_attach_limit_key() -> None:
    assert csi_attach_limit_key("csi.example.com") == "attachable-volumes-csi-csi.example.com"
    long_name = "a-very-long-csi-driver-name.storage.example.com"
    key = csi_attach_limit_key(long_name)
    assert key.startswith("attachable-volumes-csi-a-very-long-csi-driver")
    assert len(key) == len("attachable-volumes-csi-") + 23 + 16


# --- in-tree limits ---------------------------------------------------------------------

# (name, plugin module, node allocatable/labels, running volumes, new volumes, status)
NON_CSI_CASES: list[tuple[str, Any, dict[str, str], dict[str, str], list[Raw], list[Raw],
                          Status | None]] = [
    ("ebs allocatable limit", non_csi_ebs, {"attachable-volumes-aws-ebs": "1"}, {},
     [ebs("vol-1")], [ebs("vol-2")], EXCEED),
    ("ebs same volume", non_csi_ebs, {"attachable-volumes-aws-ebs": "1"}, {},
     [ebs("vol-1")], [ebs("vol-1")], None),
    ("ebs default limit 39", non_csi_ebs, {}, {},
     [ebs(f"v{i}") for i in range(38)], [ebs("x")], None),
    ("ebs default limit 39 exceeded", non_csi_ebs, {}, {},
     [ebs(f"v{i}") for i in range(39)], [ebs("x")], EXCEED),
    ("ebs nitro limit 25", non_csi_ebs, {}, {"node.kubernetes.io/instance-type": "m5.large"},
     [ebs(f"v{i}") for i in range(25)], [ebs("x")], EXCEED),
    ("ebs t3 matches anywhere", non_csi_ebs, {}, {"beta.kubernetes.io/instance-type": "xt3y"},
     [ebs(f"v{i}") for i in range(24)], [ebs("x")], None),
    ("gce default limit 16", non_csi_gce, {}, {},
     [gce(f"d{i}") for i in range(16)], [gce("x")], EXCEED),
    ("gce ignores ebs volumes", non_csi_gce, {"attachable-volumes-gce-pd": "1"}, {},
     [ebs("vol-1")], [gce("x")], None),
    ("azure allocatable limit", non_csi_azure, {"attachable-volumes-azure-disk": "1"}, {},
     [{"name": "a", "azureDisk": {"diskName": "d1", "diskURI": "u1"}}],
     [{"name": "b", "azureDisk": {"diskName": "d2", "diskURI": "u2"}}], EXCEED),
    ("cinder allocatable limit", non_csi_cinder, {"attachable-volumes-cinder": "1"}, {},
     [{"name": "a", "cinder": {"volumeID": "c1"}}], [{"name": "b", "cinder": {"volumeID": "c2"}}],
     EXCEED),
]


@pytest.mark.parametrize(("name", "module", "extra", "labels", "running", "new", "want"),
                         NON_CSI_CASES, ids=[c[0] for c in NON_CSI_CASES])
def test_non_csi_limits(name: str, module: Any, extra: dict[str, str], labels: dict[str, str],
                        running: list[Raw], new: list[Raw], want: Status | None) -> None:
    node = make_node("n1", extra=extra, labels=labels)
    handle = make_handle([node], [pod_with("run", *running, node="n1")])
    pre, statuses = run_filters(module.Plugin(None, handle), handle, pod_with("p", *new))
    assert pre is None
    assert statuses == {"n1": want}


def test_non_csi_claims() -> None:
    """Bound claims count their PV's disk; unbound ones their class' in-tree provisioner."""
    node = make_node("n1", extra={"attachable-volumes-aws-ebs": "2"})
    pv = make_pv("pv-ebs", source={"awsElasticBlockStore": {"volumeID": "vol-9"}})
    pvcs = [bound_pvc("bound", "pv-ebs"), make_pvc("unbound", "ebs-sc"),
            make_pvc("unbound-csi", "csi-sc"), bound_pvc("dangling", "ghost", "ebs-sc")]
    classes = [make_sc("ebs-sc", "kubernetes.io/aws-ebs"), make_sc("csi-sc", DRIVER)]
    run = pod_with("run", claim_volume("bound"), claim_volume("unbound"), node="n1")
    handle = make_handle([node], [run], [pv], pvcs, classes)
    plugin = non_csi_ebs.Plugin(None, handle)
    assert run_filters(plugin, handle, pod_with("p", ebs("vol-9")))[1] == {"n1": None}
    assert run_filters(plugin, handle, pod_with("p", ebs("vol-8")))[1] == {"n1": EXCEED}
    assert run_filters(plugin, handle, pod_with_claims("p", "unbound"))[1] == {"n1": None}
    assert run_filters(plugin, handle, pod_with_claims("p", "unbound-csi"))[1] == {"n1": None}
    assert run_filters(plugin, handle, pod_with_claims("p", "dangling"))[1] == {"n1": EXCEED}
    missing = run_filters(plugin, handle, pod_with_claims("p", "nope"))[1]["n1"]
    assert missing == Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                             'looking up PVC default/nope: persistentvolumeclaim "nope" not found')


def test_non_csi_pre_filter_skip() -> None:
    handle = make_handle([make_node("n1")])
    plugin = non_csi_gce.Plugin(None, handle)
    assert plugin.pre_filter(CycleState(), pod_with("p", ebs("v"))) == (None, SKIP)
    assert plugin.pre_filter(CycleState(), pod_with("p", gce("d"))) == (None, None)
    assert plugin.pre_filter(CycleState(), pod_with_claims("p", "c")) == (None, None)


def test_max_ebs_volumes() -> None:
    assert non_csi.max_ebs_volumes(make_node("n")) == 39
    nitro = make_node("n", labels={"node.kubernetes.io/instance-type": "c5.xlarge"})
    assert non_csi.max_ebs_volumes(nitro) == 25


@pytest.mark.parametrize("name", ["EBSLimits", "GCEPDLimits", "AzureDiskLimits", "CinderLimits",
                                  "NodeVolumeLimits"])
def test_registry_builds_limit_plugins(name: str) -> None:
    handle = make_handle([make_node("n1")])
    assert build_plugin(name, None, handle).name == name
