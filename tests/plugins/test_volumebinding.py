"""VolumeBinding PreFilter and Filter."""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.api.storage import PersistentVolume, PersistentVolumeClaim
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code, Status
from ksched_cli.framework.types import PreFilterResult
from ksched_cli.plugins.volumebinding import plugin as vb
from ksched_cli.plugins.volumebinding.binder import (
    ERR_REASON_BIND_CONFLICT,
    ERR_REASON_NODE_CONFLICT,
    ERR_REASON_PV_NOT_EXIST,
)
from tests.fakes import make_node
from tests.plugins.volume_helpers import (
    HOSTNAME,
    ZONE,
    affinity,
    bound_pvc,
    make_handle,
    make_pv,
    make_pvc,
    make_sc,
    pod_with,
    pod_with_claims,
)

Raw = dict[str, Any]
SKIP = Status(Code.SKIP)
BIND = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_BIND_CONFLICT)
NODE = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_NODE_CONFLICT)
PV_GONE = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_PV_NOT_EXIST)
NODES = [make_node("n1", labels={ZONE: "a"}), make_node("n2", labels={ZONE: "b"})]
CLASSES = [
    make_sc("wffc", mode="WaitForFirstConsumer"),
    make_sc("static", "kubernetes.io/no-provisioner", "WaitForFirstConsumer"),
    make_sc("zoned", mode="WaitForFirstConsumer", allowed_topologies=[{ZONE: ["b"]}]),
    make_sc("fast"),
]


def unresolvable(message: str) -> Status:
    return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, message)


def run(
    pod: Any, pvs: list[PersistentVolume], pvcs: list[PersistentVolumeClaim]
) -> tuple[vb.Plugin, CycleState, PreFilterResult | None, Status | None, dict[str, Status | None]]:
    handle = make_handle(NODES, pvs=pvs, pvcs=pvcs, classes=CLASSES)
    plugin = vb.Plugin(None, handle)
    state = CycleState()
    result, status = plugin.pre_filter(state, pod)
    filtered = {}
    if status is None:
        filtered = {ni.name: plugin.filter(state, pod, ni) for ni in handle.snapshot.list()}
    return plugin, state, result, status, filtered


# (name, claims, pre_filter status)
PRE_FILTER_CASES: list[tuple[str, list[PersistentVolumeClaim], Status | None]] = [
    ("missing claim", [], unresolvable('persistentvolumeclaim "data" not found')),
    ("lost claim", [make_pvc("data", "wffc", volume_name="pv", phase="Lost")],
     unresolvable('persistentvolumeclaim "data" bound to non-existent persistentvolume "pv"')),
    ("deleting claim", [make_pvc("data", "wffc", meta={"deletionTimestamp":
                                                       "2024-01-01T00:00:00Z"})],
     unresolvable('persistentvolumeclaim "data" is being deleted')),
    ("unbound immediate claim", [make_pvc("data", "fast")],
     unresolvable("pod has unbound immediate PersistentVolumeClaims")),
    ("unbound claim of a missing class is immediate", [make_pvc("data", "gone")],
     unresolvable("pod has unbound immediate PersistentVolumeClaims")),
    ("pre-bound claim waits for the PV controller", [make_pvc("data", "wffc", volume_name="pv")],
     unresolvable("pod has unbound immediate PersistentVolumeClaims")),
    ("unbound delayed claim", [make_pvc("data", "wffc")], None),
]


@pytest.mark.parametrize(("name", "pvcs", "want"), PRE_FILTER_CASES,
                         ids=[c[0] for c in PRE_FILTER_CASES])
def test_pre_filter(name: str, pvcs: list[PersistentVolumeClaim], want: Status | None) -> None:
    _, _, _, status, _ = run(pod_with_claims("p", "data"), [], pvcs)
    assert status == want


def test_pre_filter_skips_pods_without_claims_but_reserve_still_works() -> None:
    plugin, state, result, status, _ = run(pod_with("p", {"name": "e", "emptyDir": {}}), [], [])
    assert (result, status) == (None, SKIP)
    pod = pod_with("p")
    assert plugin.reserve(state, pod, "n1") is None
    assert plugin.pre_bind(state, pod, "n1") is None


def test_ephemeral_claim_not_created_yet() -> None:
    pod = pod_with("p", {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {}}})
    _, _, _, status, _ = run(pod, [], [])
    assert status == unresolvable(
        'waiting for ephemeral volume controller to create the persistentvolumeclaim "p-scratch"')


def test_ephemeral_claim_of_another_owner() -> None:
    pod = pod_with("p", {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {}}})
    pvc = make_pvc("p-scratch", "wffc", meta={"ownerReferences": [
        {"kind": "Pod", "name": "other", "controller": True, "apiVersion": "v1", "uid": "u"}]})
    _, _, _, status, _ = run(pod, [], [pvc])
    assert status == unresolvable(
        "PVC default/p-scratch was not created for pod default/p (pod is not owner)")


def test_bound_local_pv_narrows_the_nodes() -> None:
    pv = make_pv("local", claim="data", phase="Bound", node_affinity=affinity(HOSTNAME, "n2"))
    _, _, result, status, filtered = run(pod_with_claims("p", "data"), [pv],
                                         [bound_pvc("data", "local")])
    assert status is None
    assert result == PreFilterResult(frozenset({"n2"}))
    assert filtered == {"n1": NODE, "n2": None}


def test_bound_zonal_pv_does_not_narrow_the_nodes() -> None:
    pv = make_pv("zonal", claim="data", phase="Bound", node_affinity=affinity(ZONE, "a"))
    _, _, result, _, filtered = run(pod_with_claims("p", "data"), [pv],
                                    [bound_pvc("data", "zonal")])
    assert result is None
    assert filtered == {"n1": None, "n2": NODE}


def test_claim_bound_to_missing_pv() -> None:
    _, _, result, _, filtered = run(pod_with_claims("p", "data"), [], [bound_pvc("data", "gone")])
    assert result is None  # the lookup error means no narrowing
    assert filtered == {"n1": PV_GONE, "n2": PV_GONE}


def zone_pv(name: str, zone: str, capacity: str = "10Gi", **kw: Any) -> PersistentVolume:
    return make_pv(name, capacity, "static", node_affinity=affinity(ZONE, zone), **kw)


# (name, claim(s), PVs, filter status per node)
FILTER_CASES: list[tuple[str, list[PersistentVolumeClaim], list[PersistentVolume],
                         dict[str, Status | None]]] = [
    ("static PV in one zone", [make_pvc("data", "static")], [zone_pv("pv-a", "a")],
     {"n1": None, "n2": BIND}),
    ("PV too small", [make_pvc("data", "static", "20Gi")], [zone_pv("pv-a", "a")],
     {"n1": BIND, "n2": BIND}),
    ("PV of another class", [make_pvc("data", "static")],
     [make_pv("pv", storage_class="other")], {"n1": BIND, "n2": BIND}),
    ("PV not available", [make_pvc("data", "static")], [zone_pv("pv-a", "a", phase="Released")],
     {"n1": BIND, "n2": BIND}),
    ("PV claimed by another claim", [make_pvc("data", "static")],
     [zone_pv("pv-a", "a", claim="other")], {"n1": BIND, "n2": BIND}),
    ("PV pre-bound to the claim, even if not Available",
     [make_pvc("data", "static")], [zone_pv("pv-a", "a", claim="data", phase="Released")],
     {"n1": None, "n2": BIND}),
    ("access modes must all be offered", [make_pvc("data", "static",
                                                   access_modes=("ReadWriteMany",))],
     [zone_pv("pv-a", "a")], {"n1": BIND, "n2": BIND}),
    ("volume mode must match", [make_pvc("data", "static")],
     [zone_pv("pv-a", "a", volume_mode="Block")], {"n1": BIND, "n2": BIND}),
    ("selector", [make_pvc("data", "static", selector={"matchLabels": {"tier": "gold"}})],
     [zone_pv("pv-a", "a"), zone_pv("pv-b", "b", labels={"tier": "gold"})],
     {"n1": BIND, "n2": None}),
    ("two claims need two PVs", [make_pvc("d1", "static"), make_pvc("d2", "static")],
     [zone_pv("pv-a", "a"), zone_pv("pv-b1", "b"), zone_pv("pv-b2", "b")],
     {"n1": BIND, "n2": None}),
    ("dynamic provisioning", [make_pvc("data", "wffc")], [], {"n1": None, "n2": None}),
    ("no provisioner", [make_pvc("data", "static")], [], {"n1": BIND, "n2": BIND}),
    ("allowed topologies", [make_pvc("data", "zoned")], [], {"n1": BIND, "n2": None}),
    ("static PV preferred, provisioning elsewhere", [make_pvc("data", "zoned")],
     [make_pv("pv-a", storage_class="zoned", node_affinity=affinity(ZONE, "a"))],
     {"n1": None, "n2": None}),
    ("selected node", [make_pvc("data", "wffc", annotations={
        "volume.kubernetes.io/selected-node": "n2"})], [], {"n1": BIND, "n2": None}),
]


@pytest.mark.parametrize(("name", "pvcs", "pvs", "want"), FILTER_CASES,
                         ids=[c[0] for c in FILTER_CASES])
def test_filter(name: str, pvcs: list[PersistentVolumeClaim], pvs: list[PersistentVolume],
                want: dict[str, Status | None]) -> None:
    pod = pod_with_claims("p", *(c.name for c in pvcs))
    _, _, _, status, filtered = run(pod, pvs, pvcs)
    assert status is None
    assert filtered == want


def test_reasons_are_listed_in_kube_scheduler_order() -> None:
    pv = make_pv("bound-pv", claim="b", phase="Bound", node_affinity=affinity(ZONE, "b"))
    pvcs = [bound_pvc("b", "bound-pv"), make_pvc("u", "static")]
    _, _, _, _, filtered = run(pod_with_claims("p", "b", "u"), [pv], pvcs)
    both = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_NODE_CONFLICT,
                  ERR_REASON_BIND_CONFLICT)
    assert filtered == {"n1": both, "n2": BIND}


def test_smallest_pv_wins_and_ties_go_to_the_lowest_name() -> None:
    pvs = [zone_pv("pv-c", "a", "20Gi"), zone_pv("pv-b", "a", "15Gi"),
           zone_pv("pv-a2", "a", "15Gi"), zone_pv("pv-z", "a", "5Gi")]
    _, state, _, _, _ = run(pod_with_claims("p", "data"), pvs,
                            [make_pvc("data", "static", "12Gi")])
    data = state.read(vb.STATE_KEY)
    chosen = data.pod_volumes_by_node["n1"].static_bindings
    assert [b.pv.name for b in chosen] == ["pv-a2"]
    assert data.has_static_bindings


def test_smaller_claims_choose_first() -> None:
    pvs = [zone_pv("small", "a", "10Gi"), zone_pv("big", "a", "50Gi")]
    pvcs = [make_pvc("large", "static", "30Gi"), make_pvc("little", "static", "5Gi")]
    _, state, _, _, _ = run(pod_with_claims("p", "large", "little"), pvs, pvcs)
    chosen = state.read(vb.STATE_KEY).pod_volumes_by_node["n1"].static_bindings
    assert [(b.pvc.name, b.pv.name) for b in chosen] == [("little", "small"), ("large", "big")]


def test_provisioning_errors() -> None:
    """Classes that vanish after PreFilter make Filter fail with an error."""
    handle = make_handle(NODES, pvcs=[make_pvc("data", "wffc")], classes=CLASSES)
    plugin = vb.Plugin(None, handle)
    state = CycleState()
    pod = pod_with_claims("p", "data")
    assert plugin.pre_filter(state, pod) == (None, None)
    del handle.cluster.storage_classes["wffc"]
    status = plugin.filter(state, pod, handle.node("n1"))
    assert status is not None and status.code == Code.ERROR
    assert status.message() == 'failed to find storage class "wffc"'


def test_pre_score_skips_without_shape() -> None:
    plugin, state, _, _, _ = run(pod_with_claims("p", "data"), [zone_pv("pv-a", "a")],
                                 [make_pvc("data", "static")])
    assert plugin.pre_score(state, pod_with_claims("p", "data"), []) == SKIP
    assert plugin.score(state, pod_with_claims("p", "data"), plugin_node("n1")) == (0, None)


def plugin_node(name: str) -> Any:
    return make_handle(NODES).node(name)
