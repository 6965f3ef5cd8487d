from __future__ import annotations

import pytest

from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code, Status
from ksched_cli.plugins import volumezone as vz
from tests.fakes import make_node
from tests.plugins.volume_helpers import (
    REGION,
    ZONE,
    bound_pvc,
    make_handle,
    make_pv,
    make_pvc,
    make_sc,
    pod_with,
    pod_with_claims,
    run_filters,
)

CONFLICT = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, vz.ERR_REASON_CONFLICT)
SKIP = Status(Code.SKIP)
BETA_ZONE = "failure-domain.beta.kubernetes.io/zone"
BETA_REGION = "failure-domain.beta.kubernetes.io/region"

# (name, PV labels, node labels, filter status)
FILTER_CASES: list[tuple[str, dict[str, str], dict[str, str], Status | None]] = [
    ("same zone", {ZONE: "a"}, {ZONE: "a"}, None),
    ("other zone", {ZONE: "a"}, {ZONE: "b"}, CONFLICT),
    ("node without topology labels", {ZONE: "a"}, {}, None),
    ("node with only a region", {ZONE: "a"}, {REGION: "r"}, CONFLICT),
    ("multi-zone PV", {ZONE: "a__b"}, {ZONE: "b"}, None),
    ("a zone label with a blank zone is ignored", {ZONE: "a__", REGION: "r"},
     {ZONE: "b", REGION: "r"}, None),
    ("beta PV label, GA node label", {BETA_ZONE: "a"}, {ZONE: "a"}, None),
    ("beta PV label, GA node label differs", {BETA_ZONE: "a"}, {ZONE: "b"}, CONFLICT),
    ("GA PV label, beta node label", {ZONE: "a"}, {BETA_ZONE: "a"}, CONFLICT),
    ("region mismatch", {ZONE: "a", REGION: "r1"}, {ZONE: "a", REGION: "r2"}, CONFLICT),
    ("region and zone match", {ZONE: "a", REGION: "r1"}, {ZONE: "a", REGION: "r1"}, None),
    ("beta region", {BETA_REGION: "r1"}, {REGION: "r1", ZONE: "x"}, None),
]


@pytest.mark.parametrize(("name", "pv_labels", "node_labels", "want"), FILTER_CASES,
                         ids=[c[0] for c in FILTER_CASES])
def test_filter(name: str, pv_labels: dict[str, str], node_labels: dict[str, str],
                want: Status | None) -> None:
    node = make_node("n1", labels=node_labels)
    handle = make_handle([node], pvs=[make_pv("pv", labels=pv_labels, claim="data",
                                              phase="Bound")],
                         pvcs=[bound_pvc("data", "pv")])
    pre, statuses = run_filters(vz.Plugin(None, handle), handle, pod_with_claims("p", "data"))
    assert pre is None
    assert statuses == {"n1": want}


WFFC = make_sc("wffc", mode="WaitForFirstConsumer")
IMMEDIATE = make_sc("fast")

# (name, claim, pre_filter status)
PRE_FILTER_CASES: list[tuple[str, str, Status | None]] = [
    ("no claims", "", SKIP),
    ("PV without topology labels", "plain", SKIP),
    ("unbound WaitForFirstConsumer claim", "late", SKIP),
    ("unbound immediate claim", "early", Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                                                "PersistentVolume had no name")),
    ("unbound claim without class", "classless", Status(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "PersistentVolumeClaim had no pv name and storageClass name")),
    ("unbound claim of a missing class", "lost-class", Status(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE, 'storageclass.storage.k8s.io "gone" not found')),
    ("missing claim", "nope", Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                                     'persistentvolumeclaim "nope" not found')),
    ("claim bound to a missing PV", "orphan", Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                                                     'persistentvolume "ghost" not found')),
]


@pytest.mark.parametrize(("name", "claim", "want"), PRE_FILTER_CASES,
                         ids=[c[0] for c in PRE_FILTER_CASES])
def test_pre_filter(name: str, claim: str, want: Status | None) -> None:
    pvcs = [
        bound_pvc("plain", "pv-plain"),
        make_pvc("late", "wffc"),
        make_pvc("early", "fast"),
        make_pvc("classless"),
        make_pvc("lost-class", "gone"),
        bound_pvc("orphan", "ghost"),
    ]
    handle = make_handle([make_node("n1")], pvs=[make_pv("pv-plain")], pvcs=pvcs,
                         classes=[WFFC, IMMEDIATE])
    pod = pod_with_claims("p", claim) if claim else pod_with("p")
    _, status = vz.Plugin(None, handle).pre_filter(CycleState(), pod)
    assert status == want


def test_filter_without_pre_filter_state_computes_it() -> None:
    node = make_node("n1", labels={ZONE: "b"})
    handle = make_handle([node], pvs=[make_pv("pv", labels={ZONE: "a"})],
                         pvcs=[bound_pvc("data", "pv")])
    plugin = vz.Plugin(None, handle)
    status = plugin.filter(CycleState(), pod_with_claims("p", "data"), handle.node("n1"))
    assert status == CONFLICT


def test_label_zones_to_set() -> None:
    assert vz.label_zones_to_set("a__b") == frozenset({"a", "b"})
    assert vz.label_zones_to_set(" a ") == frozenset({"a"})
    assert vz.label_zones_to_set("a____b") is None
