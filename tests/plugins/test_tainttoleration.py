from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.api.node import Taint
from ksched_cli.api.pod import Toleration
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code, Status
from ksched_cli.framework.types import NodeScore
from ksched_cli.plugins import tainttoleration
from ksched_cli.plugins.helpers.taints import (
    do_not_schedule_taints,
    find_matching_untolerated_taint,
    tolerates,
)
from tests.fakes import FakeHandle, make_node, make_pod

Raw = dict[str, Any]


def _reject(key: str, value: str) -> Status:
    return Status(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE, f"node(s) had untolerated taint {{{key}: {value}}}"
    )


def _tol(key: str = "", op: str = "Equal", value: str = "", effect: str = "") -> Raw:
    raw: Raw = {"key": key, "operator": op, "value": value}
    if effect:
        raw["effect"] = effect
    return raw


def _taint(key: str, value: str, effect: str) -> Raw:
    return {"key": key, "value": value, "effect": effect}


FILTER_CASES = [
    ("no tolerations, NoSchedule taint", [], [_taint("dedicated", "user1", "NoSchedule")],
     _reject("dedicated", "user1")),
    ("tolerated by Equal", [_tol("dedicated", "Equal", "user1", "NoSchedule")],
     [_taint("dedicated", "user1", "NoSchedule")], None),
    ("value differs", [_tol("dedicated", "Equal", "user2", "NoSchedule")],
     [_taint("dedicated", "user1", "NoSchedule")], _reject("dedicated", "user1")),
    ("Exists ignores the value", [_tol("foo", "Exists", effect="NoSchedule")],
     [_taint("foo", "bar", "NoSchedule")], None),
    ("all taints tolerated",
     [_tol("dedicated", "Equal", "user2", "NoSchedule"),
      _tol("foo", "Exists", effect="NoSchedule")],
     [_taint("dedicated", "user2", "NoSchedule"), _taint("foo", "bar", "NoSchedule")], None),
    ("effect differs", [_tol("foo", "Equal", "bar", "PreferNoSchedule")],
     [_taint("foo", "bar", "NoSchedule")], _reject("foo", "bar")),
    ("empty toleration effect matches all", [_tol("foo", "Equal", "bar")],
     [_taint("foo", "bar", "NoSchedule")], None),
    ("PreferNoSchedule is ignored by Filter", [_tol("dedicated", "Equal", "user2", "NoSchedule")],
     [_taint("dedicated", "user1", "PreferNoSchedule")], None),
    ("no tolerations, PreferNoSchedule", [], [_taint("dedicated", "user1", "PreferNoSchedule")],
     None),
    ("NoExecute is filtered", [], [_taint("evict", "yes", "NoExecute")], _reject("evict", "yes")),
    ("empty value is shown empty", [], [_taint("spot", "", "NoSchedule")], _reject("spot", "")),
    ("first untolerated taint is reported", [_tol("a", "Exists")],
     [_taint("p", "1", "PreferNoSchedule"), _taint("a", "1", "NoSchedule"),
      _taint("b", "2", "NoExecute"), _taint("c", "3", "NoSchedule")], _reject("b", "2")),
    ("wildcard toleration", [_tol(op="Exists")],
     [_taint("a", "1", "NoSchedule"), _taint("b", "2", "NoExecute")], None),
]


@pytest.mark.parametrize(
    ("tolerations", "taints", "expected"),
    [c[1:] for c in FILTER_CASES],
    ids=[c[0] for c in FILTER_CASES],
)
def test_filter(tolerations: list[Raw], taints: list[Raw], expected: Status | None) -> None:
    handle = FakeHandle([make_node("nodeA", taints=taints)])
    pod = make_pod("pod1", spec={"tolerations": tolerations})
    got = tainttoleration.Plugin(None, handle).filter(CycleState(), pod, handle.node("nodeA"))
    assert got == expected


SCORE_CASES = [
    ("tolerated taint scores higher",
     [_tol("foo", "Equal", "bar", "PreferNoSchedule")],
     {"nodeA": [_taint("foo", "bar", "PreferNoSchedule")],
      "nodeB": [_taint("foo", "blah", "PreferNoSchedule")]},
     [0, 1], [100, 0]),
    ("count of tolerated taints does not matter",
     [_tol("cpu-type", "Equal", "arm64", "PreferNoSchedule"),
      _tol("disk-type", "Equal", "ssd", "PreferNoSchedule")],
     {"nodeA": [], "nodeB": [_taint("cpu-type", "arm64", "PreferNoSchedule")],
      "nodeC": [_taint("cpu-type", "arm64", "PreferNoSchedule"),
                _taint("disk-type", "ssd", "PreferNoSchedule")]},
     [0, 0, 0], [100, 100, 100]),
    ("more intolerable taints, lower score",
     [_tol("foo", "Equal", "bar", "PreferNoSchedule")],
     {"nodeA": [], "nodeB": [_taint("cpu-type", "arm64", "PreferNoSchedule")],
      "nodeC": [_taint("cpu-type", "arm64", "PreferNoSchedule"),
                _taint("disk-type", "ssd", "PreferNoSchedule")]},
     [0, 1, 2], [100, 50, 0]),
    ("only PreferNoSchedule taints and tolerations count",
     [_tol("cpu-type", "Equal", "arm64", "NoSchedule"),
      _tol("disk-type", "Equal", "ssd", "NoSchedule")],
     {"nodeA": [], "nodeB": [_taint("cpu-type", "arm64", "NoSchedule")],
      "nodeC": [_taint("cpu-type", "arm64", "PreferNoSchedule"),
                _taint("disk-type", "ssd", "PreferNoSchedule")]},
     [0, 0, 2], [100, 100, 0]),
    ("no tolerations prefers the untainted node", [],
     {"nodeA": [], "nodeB": [_taint("cpu-type", "arm64", "PreferNoSchedule")]},
     [0, 1], [100, 0]),
    ("empty-effect toleration counts for scoring", [_tol("k", "Exists")],
     {"nodeA": [_taint("k", "v", "PreferNoSchedule")],
      "nodeB": [_taint("x", "", "PreferNoSchedule")]},
     [0, 1], [100, 0]),
    ("three taints, truncating division",
     [],
     {"nodeA": [_taint("a", "", "PreferNoSchedule")],
      "nodeB": [_taint("a", "", "PreferNoSchedule"), _taint("b", "", "PreferNoSchedule"),
                _taint("c", "", "PreferNoSchedule")],
      "nodeC": [_taint("a", "", "PreferNoSchedule"), _taint("b", "", "PreferNoSchedule")]},
     [1, 3, 2], [67, 0, 34]),
]


@pytest.mark.parametrize(
    ("tolerations", "node_taints", "raw", "normalized"),
    [c[1:] for c in SCORE_CASES],
    ids=[c[0] for c in SCORE_CASES],
)
def test_score(
    tolerations: list[Raw], node_taints: dict[str, list[Raw]], raw: list[int], normalized: list[int]
) -> None:
    nodes = [make_node(name, taints=t) for name, t in node_taints.items()]
    handle = FakeHandle(nodes)
    plugin = tainttoleration.Plugin(None, handle)
    pod = make_pod("pod1", spec={"tolerations": tolerations})
    state = CycleState()
    infos = [handle.node(n.name) for n in nodes]
    assert plugin.pre_score(state, pod, infos) is None
    scores = []
    for info in infos:
        score, status = plugin.score(state, pod, info)
        assert status is None
        scores.append(NodeScore(info.name, score))
    assert [s.score for s in scores] == raw
    ext = plugin.score_extensions()
    assert ext is not None and ext.normalize_score(state, pod, scores) is None
    assert [s.score for s in scores] == normalized


def test_pre_score_without_nodes_writes_nothing() -> None:
    plugin = tainttoleration.Plugin(None, FakeHandle([]))
    state = CycleState()
    assert plugin.pre_score(state, make_pod("p"), []) is None
    assert state.get(tainttoleration.PRE_SCORE_STATE_KEY) is None
    _, status = plugin.score(state, make_pod("p"), FakeHandle([make_node("n")]).node("n"))
    assert status is not None and status.code == Code.ERROR
    assert status.message() == 'failed to read "PreScoreTaintToleration" from cycleState: not found'


@pytest.mark.parametrize(
    ("toleration", "taint", "expected"),
    [
        (Toleration("k", "Equal", "v", "NoSchedule"), Taint("k", "v", "NoSchedule"), True),
        (Toleration("k", "", "v", ""), Taint("k", "v", "NoExecute"), True),  # "" means Equal
        (Toleration("k", "Equal", "v", ""), Taint("k", "w", "NoSchedule"), False),
        (Toleration("", "Exists", "", ""), Taint("any", "x", "NoExecute"), True),
        (Toleration("", "Exists", "", "NoSchedule"), Taint("any", "x", "NoExecute"), False),
        (Toleration("k", "Exists", "", ""), Taint("other", "", "NoSchedule"), False),
        # Comparison operators are not known to v1.30.
        (Toleration("k", "Gt", "1", ""), Taint("k", "5", "NoSchedule"), False),
    ],
)
def test_tolerates(toleration: Toleration, taint: Taint, expected: bool) -> None:
    assert tolerates(toleration, taint) is expected


def test_find_matching_untolerated_taint_without_filter() -> None:
    taints = [Taint("a", "", "PreferNoSchedule"), Taint("b", "", "NoSchedule")]
    assert find_matching_untolerated_taint(taints, []) == taints[0]
    assert find_matching_untolerated_taint(taints, [], do_not_schedule_taints) == taints[1]
    assert find_matching_untolerated_taint(taints, [Toleration(operator="Exists")]) is None
