from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.podinfo import pod_info
from ksched_cli.framework.status import Code, Status
from ksched_cli.plugins import volumerestrictions as vr
from tests.fakes import make_node
from tests.plugins.volume_helpers import (
    make_handle,
    make_pvc,
    pod_with,
    pod_with_claims,
    run_filters,
)

Raw = dict[str, Any]
DISK = Status(Code.UNSCHEDULABLE, vr.ERR_REASON_DISK_CONFLICT)
RWOP = Status(Code.UNSCHEDULABLE, vr.ERR_REASON_RWOP_CONFLICT)
SKIP = Status(Code.SKIP)


def gce(pd: str, read_only: bool = False) -> Raw:
    return {"name": f"gce-{pd}", "gcePersistentDisk": {"pdName": pd, "readOnly": read_only}}


def ebs(vol_id: str) -> Raw:
    return {"name": f"ebs-{vol_id}", "awsElasticBlockStore": {"volumeID": vol_id}}


def iscsi(iqn: str, read_only: bool = False) -> Raw:
    return {"name": "iscsi", "iscsi": {"targetPortal": "p", "iqn": iqn, "lun": 0,
                                       "readOnly": read_only}}


def rbd(monitors: list[str], image: str, pool: str | None = None, read_only: bool = False) -> Raw:
    src: Raw = {"monitors": monitors, "image": image, "readOnly": read_only}
    if pool is not None:
        src["pool"] = pool
    return {"name": "rbd", "rbd": src}


# (name, new pod's volume, running pod's volume, filter status on the shared node)
DISK_CASES: list[tuple[str, Raw, Raw, Status | None]] = [
    ("gce same disk read-write", gce("a"), gce("a"), DISK),
    ("gce same disk one read-only", gce("a", True), gce("a"), DISK),
    ("gce same disk both read-only", gce("a", True), gce("a", True), None),
    ("gce other disk", gce("a"), gce("b"), None),
    ("ebs same id", ebs("vol-1"), ebs("vol-1"), DISK),
    ("ebs other id", ebs("vol-1"), ebs("vol-2"), None),
    ("iscsi same iqn", iscsi("iqn.a"), iscsi("iqn.a"), DISK),
    ("iscsi same iqn both read-only", iscsi("iqn.a", True), iscsi("iqn.a", True), None),
    ("iscsi other iqn", iscsi("iqn.a"), iscsi("iqn.b"), None),
    ("rbd shared monitor", rbd(["m1", "m2"], "img"), rbd(["m2"], "img"), DISK),
    ("rbd default pool is rbd", rbd(["m1"], "img"), rbd(["m1"], "img", pool="rbd"), DISK),
    ("rbd other pool", rbd(["m1"], "img"), rbd(["m1"], "img", pool="p2"), None),
    ("rbd no shared monitor", rbd(["m1"], "img"), rbd(["m2"], "img"), None),
    ("rbd both read-only", rbd(["m1"], "img", read_only=True),
     rbd(["m1"], "img", read_only=True), None),
    ("different kinds", gce("a"), ebs("a"), None),
]


@pytest.mark.parametrize(("name", "new", "old", "want"), DISK_CASES, ids=[c[0] for c in DISK_CASES])
def test_disk_conflicts(name: str, new: Raw, old: Raw, want: Status | None) -> None:
    nodes = [make_node("n1"), make_node("n2")]
    running = pod_with("running", old, node="n1")
    handle = make_handle(nodes, [running])
    pre, statuses = run_filters(vr.Plugin(None, handle), handle, pod_with("new", new))
    assert pre is None
    assert statuses == {"n1": want, "n2": None}


def test_pre_filter_skips_pods_without_restricted_volumes() -> None:
    handle = make_handle([make_node("n1")], pvcs=[make_pvc("c")])
    state = CycleState()
    pod = pod_with("p", {"name": "e", "emptyDir": {}}, {"name": "c", "persistentVolumeClaim":
                                                         {"claimName": "c"}})
    assert vr.Plugin(None, handle).pre_filter(state, pod) == (None, SKIP)
    assert state.get(vr.PRE_FILTER_STATE_KEY) is None


def test_pre_filter_missing_claim() -> None:
    handle = make_handle([make_node("n1")])
    _, status = vr.Plugin(None, handle).pre_filter(CycleState(), pod_with_claims("p", "nope"))
    assert status == Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                            'persistentvolumeclaim "nope" not found')


# (name, claim access modes, claim used by a running pod, pre_filter, filter on each node)
RWOP_CASES: list[tuple[str, tuple[str, ...], bool, Status | None, Status | None]] = [
    ("rwop claim in use", ("ReadWriteOncePod",), True, None, RWOP),
    ("rwop claim unused", ("ReadWriteOncePod",), False, SKIP, None),
    ("rwo claim in use", ("ReadWriteOnce",), True, SKIP, None),
]


@pytest.mark.parametrize(("name", "modes", "used", "pre", "want"), RWOP_CASES,
                         ids=[c[0] for c in RWOP_CASES])
def test_read_write_once_pod(
    name: str, modes: tuple[str, ...], used: bool, pre: Status | None, want: Status | None
) -> None:
    nodes = [make_node("n1"), make_node("n2")]
    running = [pod_with_claims("user", "data", node="n1")] if used else []
    handle = make_handle(nodes, running, pvcs=[make_pvc("data", access_modes=modes)])
    status, statuses = run_filters(vr.Plugin(None, handle), handle, pod_with_claims("p", "data"))
    assert status == pre
    if pre is None:
        # The claim is in use somewhere: every node is rejected, preemption may help.
        assert statuses == {"n1": want, "n2": want}


def test_rwop_claim_in_other_namespace_does_not_conflict() -> None:
    nodes = [make_node("n1")]
    other = pod_with("user", {"name": "v", "persistentVolumeClaim": {"claimName": "data"}},
                     node="n1", namespace="other")
    pvc = make_pvc("data", access_modes=("ReadWriteOncePod",))
    handle = make_handle(nodes, [other], pvcs=[pvc])
    status, _ = run_filters(vr.Plugin(None, handle), handle, pod_with_claims("p", "data"))
    assert status == SKIP


def test_add_and_remove_pod_update_the_conflict_count() -> None:
    node = make_node("n1")
    user = pod_with_claims("user", "data", node="n1")
    disk_pod = pod_with("d", gce("x"))
    rwop = make_pvc("data", access_modes=("ReadWriteOncePod",))
    handle = make_handle([node], [user], pvcs=[rwop])
    plugin = vr.Plugin(None, handle)
    pod = pod_with("p", gce("y"), {"name": "v", "persistentVolumeClaim": {"claimName": "data"}})
    state = CycleState()
    assert plugin.pre_filter(state, pod) == (None, None)
    info = handle.node("n1")
    assert plugin.filter(state, pod, info) == RWOP
    # Preemption's dry run removes the user: the claim is free on a clone of the state.
    dry = state.clone()
    ext = plugin.pre_filter_extensions()
    assert ext.remove_pod(dry, pod, pod_info(user), info) is None
    assert plugin.filter(dry, pod, info) is None
    assert plugin.filter(state, pod, info) == RWOP
    assert ext.add_pod(dry, pod, pod_info(user), info) is None
    assert plugin.filter(dry, pod, info) == RWOP
    # A pod without the claim changes nothing.
    assert ext.add_pod(state, pod, pod_info(disk_pod), info) is None
    assert state.read(vr.PRE_FILTER_STATE_KEY).conflicting_pvc_ref_count == 1


def test_filter_without_pre_filter_state_is_an_error() -> None:
    handle = make_handle([make_node("n1")])
    status = vr.Plugin(None, handle).filter(CycleState(), pod_with("p", gce("a")),
                                            handle.node("n1"))
    assert status is not None and status.code == Code.ERROR
    assert status.message() == 'cannot read "PreFilterVolumeRestrictions" from cycleState'
