"""VolumeBinding Reserve / Unreserve / PreBind, per-profile assume caches, CSI
migration of bound PVs, and the (feature-gated) capacity score."""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.api.pod import Pod
from ksched_cli.api.storage import ClaimRef
from ksched_cli.config.args import UtilizationShapePoint, VolumeBindingArgs
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code, Status
from ksched_cli.plugins.volumebinding import plugin as vb
from ksched_cli.plugins.volumebinding.binder import ERR_REASON_BIND_CONFLICT
from tests.fakes import FakeHandle, make_node
from tests.plugins.volume_helpers import (
    ZONE,
    affinity,
    bound_pvc,
    make_csi_node,
    make_handle,
    make_pv,
    make_pvc,
    make_sc,
    pod_with_claims,
)

BIND = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_BIND_CONFLICT)
NODES = [make_node("n1", labels={ZONE: "a"}), make_node("n2", labels={ZONE: "b"})]
STATIC = make_sc("static", "kubernetes.io/no-provisioner", "WaitForFirstConsumer")
WFFC = make_sc("wffc", mode="WaitForFirstConsumer")
SELECTED = "volume.kubernetes.io/selected-node"
AFFINITY = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) had volume node affinity conflict")


def static_cluster() -> FakeHandle:
    pvs = [make_pv(n, c, "static", node_affinity=affinity(ZONE, "a"))
           for n, c in (("pv-1", "10Gi"), ("pv-2", "20Gi"))]
    pvcs = [make_pvc(n, "static") for n in ("a", "b")]
    return make_handle(NODES, pvs=pvs, pvcs=pvcs, classes=[STATIC, WFFC])


def schedule(plugin: vb.Plugin, handle: FakeHandle, pod: Pod) -> tuple[CycleState, dict[str, Any]]:
    """PreFilter and Filter on every node; the filter statuses by node."""
    state = CycleState()
    _, status = plugin.pre_filter(state, pod)
    assert status is None
    return state, {ni.name: plugin.filter(state, pod, ni) for ni in handle.snapshot.list()}


def chosen_pv(state: CycleState, node: str) -> list[str]:
    volumes = state.read(vb.STATE_KEY).pod_volumes_by_node[node]
    return [b.pv.name for b in volumes.static_bindings]


def test_reserve_hides_the_pv_and_unreserve_returns_it() -> None:
    handle = static_cluster()
    plugin = vb.Plugin(None, handle)
    pod_a, pod_b = pod_with_claims("pa", "a"), pod_with_claims("pb", "b")
    state_a, _ = schedule(plugin, handle, pod_a)
    assert chosen_pv(state_a, "n1") == ["pv-1"]
    assert plugin.reserve(state_a, pod_a, "n1") is None
    assert handle.cluster.persistent_volumes["pv-1"].claim_ref is None  # only assumed
    assert plugin.binder.pv_cache.assumed_by(pod_a.uid) == ["pv-1"]
    # A later pod (e.g. while pa waits at Permit) sees pv-1 taken.
    state_b, filtered = schedule(plugin, handle, pod_b)
    assert filtered == {"n1": None, "n2": BIND}
    assert chosen_pv(state_b, "n1") == ["pv-2"]
    plugin.unreserve(state_a, pod_a, "n1")
    plugin.unreserve(state_a, pod_a, "n1")  # idempotent
    assert plugin.binder.pv_cache.assumed_by(pod_a.uid) == []
    state_b, _ = schedule(plugin, handle, pod_b)
    assert chosen_pv(state_b, "n1") == ["pv-1"]


def test_pre_bind_completes_a_static_binding_for_every_profile() -> None:
    handle = static_cluster()
    plugin, other_profile = vb.Plugin(None, handle), vb.Plugin(None, handle)
    pod_a, pod_b = pod_with_claims("pa", "a"), pod_with_claims("pb", "b")
    old_pv = handle.cluster.persistent_volumes["pv-1"]
    state_a, _ = schedule(plugin, handle, pod_a)
    assert plugin.reserve(state_a, pod_a, "n1") is None
    # Assume caches are per profile: the other one does not see the assumption...
    state_b, _ = schedule(other_profile, handle, pod_b)
    assert chosen_pv(state_b, "n1") == ["pv-1"]
    assert plugin.pre_bind(state_a, pod_a, "n1") is None
    pv = handle.cluster.persistent_volumes["pv-1"]
    pvc = handle.cluster.persistent_volume_claims["default/a"]
    assert (pv.claim_ref, pv.phase) == (ClaimRef("default", "a", ""), "Bound")
    assert pv.meta.annotations == {"pv.kubernetes.io/bound-by-controller": "yes"}
    assert (pvc.volume_name, pvc.phase) == ("pv-1", "Bound")
    assert pvc.annotations == {"pv.kubernetes.io/bind-completed": "yes",
                               "pv.kubernetes.io/bound-by-controller": "yes"}
    assert old_pv.claim_ref is None  # objects are replaced, not changed in place
    # ...but every profile sees the completed binding.
    for profile in (plugin, other_profile):
        state_b, _ = schedule(profile, handle, pod_b)
        assert chosen_pv(state_b, "n1") == ["pv-2"]
    # The bound claim now makes pa's own volumes all bound.
    state_again, _ = schedule(plugin, handle, pod_a)
    assert plugin.reserve(state_again, pod_a, "n1") is None
    assert state_again.read(vb.STATE_KEY).all_bound


def test_dynamic_provisioning_binds_a_volume_of_the_node_zone() -> None:
    handle = make_handle(NODES, pvcs=[make_pvc("data", "wffc")], classes=[WFFC])
    plugin = vb.Plugin(None, handle)
    pod, twin = pod_with_claims("p", "data"), pod_with_claims("twin", "data")
    state, filtered = schedule(plugin, handle, pod)
    assert filtered == {"n1": None, "n2": None}
    assert plugin.reserve(state, pod, "n2") is None
    assert not state.read(vb.STATE_KEY).all_bound
    assert SELECTED not in handle.cluster.persistent_volume_claims["default/data"].annotations
    # Another pod of the claim now goes only where it is being provisioned.
    assert schedule(plugin, handle, twin)[1] == {"n1": BIND, "n2": None}
    plugin.unreserve(state, pod, "n2")
    assert schedule(plugin, handle, twin)[1] == {"n1": None, "n2": None}
    state, _ = schedule(plugin, handle, pod)
    assert plugin.reserve(state, pod, "n2") is None
    assert plugin.pre_bind(state, pod, "n2") is None
    # PreBind waits for the provisioner: the claim is bound to a new PV whose node
    # affinity is n2's zone (no CSINode for the driver: the zone label, provision.py).
    claim = handle.cluster.persistent_volume_claims["default/data"]
    assert claim.annotations[SELECTED] == "n2"
    (pv,) = handle.cluster.persistent_volumes.values()
    assert (claim.volume_name, claim.phase) == (pv.name, "Bound")
    assert pv.node_affinity is not None and pv.node_affinity.matches({ZONE: "b"}, "n3")
    assert schedule(vb.Plugin(None, handle), handle, twin)[1] == {"n1": AFFINITY, "n2": None}


def test_pod_with_bound_claims_needs_no_binding() -> None:
    pv = make_pv("pv", claim="data", phase="Bound")
    handle = make_handle(NODES, pvs=[pv], pvcs=[bound_pvc("data", "pv")])
    plugin = vb.Plugin(None, handle)
    pod = pod_with_claims("p", "data")
    state, filtered = schedule(plugin, handle, pod)
    assert filtered == {"n1": None, "n2": None}
    assert plugin.reserve(state, pod, "n1") is None
    assert state.read(vb.STATE_KEY).all_bound
    assert plugin.pre_bind(state, pod, "n1") is None
    assert handle.cluster.persistent_volumes["pv"] is pv


def test_reserve_on_a_node_without_filter_result_counts_as_bound() -> None:
    handle = static_cluster()
    plugin = vb.Plugin(None, handle)
    pod = pod_with_claims("pa", "a")
    state, _ = schedule(plugin, handle, pod)
    assert plugin.reserve(state, pod, "n2") is None  # n2 failed Filter: nothing recorded
    assert state.read(vb.STATE_KEY).all_bound  # as kube-scheduler's missing map entry
    assert plugin.pre_bind(state, pod, "n2") is None


# --- CSI migration of bound in-tree PVs -----------------------------------------------

GKE_ZONE = "topology.gke.io/zone"
BETA_ZONE = "failure-domain.beta.kubernetes.io/zone"

# (name, node labels, CSINode migrated-plugins, filter status)
MIGRATION_CASES: list[tuple[str, dict[str, str], str | None, Status | None]] = [
    ("not migrated: PV has no affinity", {ZONE: "us-central1-b"}, None, None),
    ("migrated: zone label becomes the driver's key", {GKE_ZONE: "us-central1-a"},
     "kubernetes.io/gce-pd", None),
    ("migrated: node lacks the driver's key", {ZONE: "us-central1-a"}, "kubernetes.io/gce-pd",
     Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) had volume node affinity conflict")),
]


@pytest.mark.parametrize(("name", "labels", "migrated", "want"), MIGRATION_CASES,
                         ids=[c[0] for c in MIGRATION_CASES])
def test_migrated_gce_pv(name: str, labels: dict[str, str], migrated: str | None,
                         want: Status | None) -> None:
    node = make_node("n1", labels=labels)
    pv = make_pv("pd", claim="data", phase="Bound", labels={BETA_ZONE: "us-central1-a"},
                 source={"gcePersistentDisk": {"pdName": "disk-1"}})
    csi_nodes = [make_csi_node("n1", {"pd.csi.storage.gke.io": None}, migrated)]
    handle = make_handle([node], pvs=[pv], pvcs=[bound_pvc("data", "pd")], csi_nodes=csi_nodes)
    assert schedule(vb.Plugin(None, handle), handle, pod_with_claims("p", "data"))[1] == {
        "n1": want}


def test_untranslatable_migrated_pv_is_an_error() -> None:
    pv = make_pv("ebs", claim="data", phase="Bound",
                 source={"awsElasticBlockStore": {"volumeID": "aws://zone/bad"}})
    csi_nodes = [make_csi_node("n1", {}, "kubernetes.io/aws-ebs")]
    handle = make_handle(NODES[:1], pvs=[pv], pvcs=[bound_pvc("data", "ebs")],
                         csi_nodes=csi_nodes)
    status = schedule(vb.Plugin(None, handle), handle, pod_with_claims("p", "data"))[1]["n1"]
    assert status is not None and status.code == Code.ERROR
    assert status.message() == (
        "could not translate pv: failed to translate Kubernetes ID to EBS Volume ID "
        "Invalid format for AWS volume (aws://zone/bad)"
    )


# --- Score (VolumeCapacityPriority) -----------------------------------------------------

def test_capacity_score_with_a_shape() -> None:
    shape = [UtilizationShapePoint(0, 0), UtilizationShapePoint(100, 10)]
    handle = static_cluster()
    plugin = vb.Plugin(VolumeBindingArgs(shape=shape), handle)
    pod = pod_with_claims("pb", "b")
    handle.cluster.persistent_volume_claims["default/b"] = make_pvc("b", "static", "15Gi")
    state, _ = schedule(plugin, handle, pod)
    assert plugin.pre_score(state, pod, handle.snapshot.list()) is None
    # 15Gi of the 20Gi pv-2: 75 % utilization on a 0..100 line.
    assert plugin.score(state, pod, handle.node("n1")) == (75, None)
    assert plugin.score(state, pod, handle.node("n2")) == (0, None)


def test_capacity_score_skips_without_static_bindings() -> None:
    shape = [UtilizationShapePoint(0, 0), UtilizationShapePoint(100, 10)]
    handle = make_handle(NODES, pvcs=[make_pvc("data", "wffc")], classes=[WFFC])
    plugin = vb.Plugin(VolumeBindingArgs(shape=shape), handle)
    pod = pod_with_claims("p", "data")
    state, _ = schedule(plugin, handle, pod)
    assert plugin.pre_score(state, pod, handle.snapshot.list()) == Status(Code.SKIP)
