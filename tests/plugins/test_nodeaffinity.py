from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.api.selectors import parse_node_affinity
from ksched_cli.config.args import NodeAffinityArgs
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code, Status
from ksched_cli.framework.types import NodeScore, PreFilterResult
from ksched_cli.plugins import nodeaffinity
from ksched_cli.plugins.helpers.nodeaffinity import go_parse_int
from tests.fakes import FakeHandle, make_node, make_pod

Raw = dict[str, Any]
REQ = "requiredDuringSchedulingIgnoredDuringExecution"
PREF = "preferredDuringSchedulingIgnoredDuringExecution"

REJECT = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, nodeaffinity.ERR_REASON_POD)
ENFORCED = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, nodeaffinity.ERR_REASON_ENFORCED)
CONFLICT = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "pod affinity terms conflict")
SKIP = Status(Code.SKIP)


def expr(key: str, op: str, *values: str) -> Raw:
    raw: Raw = {"key": key, "operator": op}
    if values:
        raw["values"] = list(values)
    return raw


def name_in(*names: str) -> Raw:
    return expr("metadata.name", "In", *names)


def term(exprs: list[Raw] | None = None, fields: list[Raw] | None = None) -> Raw:
    raw: Raw = {}
    if exprs is not None:
        raw["matchExpressions"] = exprs
    if fields is not None:
        raw["matchFields"] = fields
    return raw


def required(*terms: Raw) -> Raw:
    return {"affinity": {"nodeAffinity": {REQ: {"nodeSelectorTerms": list(terms)}}}}


def added(raw: Raw) -> NodeAffinityArgs:
    return NodeAffinityArgs(added_affinity=parse_node_affinity(raw, "addedAffinity"))


NO_ARGS = NodeAffinityArgs()
ADDED_NODE2 = added({REQ: {"nodeSelectorTerms": [term(fields=[name_in("node2")])]}})
ADDED_ZONE_BAR = added({REQ: {"nodeSelectorTerms": [term([expr("zone", "In", "bar")])]}})

# (name, pod spec, node labels, node name, args, pre_filter status, pre_filter result, filter)
FILTER_CASES: list[tuple[str, Raw, dict[str, str], str, NodeAffinityArgs,
                         Status | None, PreFilterResult | None, Status | None]] = [
    ("missing labels", {"nodeSelector": {"foo": "bar"}}, {}, "node1", NO_ARGS, None, None, REJECT),
    ("same labels", {"nodeSelector": {"foo": "bar"}}, {"foo": "bar"}, "node1", NO_ARGS,
     None, None, None),
    ("node labels are superset", {"nodeSelector": {"foo": "bar"}}, {"foo": "bar", "baz": "blah"},
     "node1", NO_ARGS, None, None, None),
    ("node labels are subset", {"nodeSelector": {"foo": "bar", "baz": "blah"}}, {"foo": "bar"},
     "node1", NO_ARGS, None, None, REJECT),
    ("In matches", required(term([expr("foo", "In", "bar", "value2")])), {"foo": "bar"},
     "node1", NO_ARGS, None, None, None),
    ("Gt matches", required(term([expr("kernel-version", "Gt", "0204")])),
     {"kernel-version": "0206"}, "node1", NO_ARGS, None, None, None),
    ("Gt does not match", required(term([expr("kernel-version", "Gt", "0206")])),
     {"kernel-version": "0206"}, "node1", NO_ARGS, None, None, REJECT),
    ("Lt matches", required(term([expr("kernel-version", "Lt", "0207")])),
     {"kernel-version": "0206"}, "node1", NO_ARGS, None, None, None),
    ("Gt with non-integer label", required(term([expr("v", "Gt", "1")])), {"v": "1_000"},
     "node1", NO_ARGS, None, None, REJECT),
    ("Gt with a bound that is not a valid label value", required(term([expr("v", "Gt", "-5")])),
     {"v": "1"}, "node1", NO_ARGS, None, None, REJECT),
    ("NotIn matches", required(term([expr("mem-type", "NotIn", "DDR", "DDR2")])),
     {"mem-type": "DDR3"}, "node1", NO_ARGS, None, None, None),
    ("Exists matches", required(term([expr("GPU", "Exists")])), {"GPU": "NVIDIA-GRID-K1"},
     "node1", NO_ARGS, None, None, None),
    ("DoesNotExist", required(term([expr("GPU", "DoesNotExist")])), {"GPU": "x"},
     "node1", NO_ARGS, None, None, REJECT),
    ("In does not match", required(term([expr("foo", "In", "value1", "value2")])),
     {"foo": "bar"}, "node1", NO_ARGS, None, None, REJECT),
    ("empty matchExpressions matches nothing", required(term([])), {"foo": "bar"},
     "node1", NO_ARGS, None, None, REJECT),
    ("no terms matches nothing", required(), {"foo": "bar"}, "node1", NO_ARGS, None, None, REJECT),
    ("no affinity", {}, {"foo": "bar"}, "node1", NO_ARGS, SKIP, None, None),
    ("affinity without required", {"affinity": {"nodeAffinity": {}}}, {"foo": "bar"},
     "node1", NO_ARGS, SKIP, None, None),
    ("matchExpressions ANDed match",
     required(term([expr("GPU", "Exists"), expr("GPU", "NotIn", "AMD", "INTER")])),
     {"GPU": "NVIDIA-GRID-K1"}, "node1", NO_ARGS, None, None, None),
    ("matchExpressions ANDed do not match",
     required(term([expr("GPU", "Exists"), expr("GPU", "In", "AMD", "INTER")])),
     {"GPU": "NVIDIA-GRID-K1"}, "node1", NO_ARGS, None, None, REJECT),
    ("terms ORed",
     required(term([expr("foo", "In", "bar", "value2")]),
              term([expr("diffkey", "In", "wrong", "value2")])),
     {"foo": "bar"}, "node1", NO_ARGS, None, None, None),
    ("affinity and nodeSelector both satisfied",
     {"nodeSelector": {"foo": "bar"}, **required(term([expr("foo", "Exists")]))},
     {"foo": "bar"}, "node1", NO_ARGS, None, None, None),
    ("affinity satisfied, nodeSelector not",
     {"nodeSelector": {"foo": "bar"}, **required(term([expr("foo", "Exists")]))},
     {"foo": "barrrrrr"}, "node1", NO_ARGS, None, None, REJECT),
    ("invalid value in NotIn never matches",
     required(term([expr("foo", "NotIn", "invalid value: ___@#$%^")])), {"foo": "bar"},
     "node1", NO_ARGS, None, None, REJECT),
    ("matchFields In matches", required(term(fields=[name_in("node1")])), {}, "node1", NO_ARGS,
     None, PreFilterResult(frozenset({"node1"})), None),
    ("matchFields In does not match", required(term(fields=[name_in("node1")])), {}, "node2",
     NO_ARGS, None, PreFilterResult(frozenset({"node1"})), REJECT),
    ("matchFields NotIn", required(term(fields=[expr("metadata.name", "NotIn", "node1")])), {},
     "node2", NO_ARGS, None, None, None),
    ("two terms: matchFields conflicts but matchExpressions matches",
     required(term(fields=[name_in("node1"), name_in("node2")]),
              term([expr("foo", "In", "bar")])),
     {"foo": "bar"}, "node2", NO_ARGS, None, None, None),
    ("one term: matchFields does not match, matchExpressions does",
     required(term([expr("foo", "In", "bar")], [name_in("node1")])),
     {"foo": "bar"}, "node2", NO_ARGS, None, PreFilterResult(frozenset({"node1"})), REJECT),
    ("one term: both match",
     required(term([expr("foo", "In", "bar")], [name_in("node1")])),
     {"foo": "bar"}, "node1", NO_ARGS, None, PreFilterResult(frozenset({"node1"})), None),
    ("two terms: neither matches",
     required(term(fields=[name_in("node1")]), term([expr("foo", "In", "not-match-to-bar")])),
     {"foo": "bar"}, "node2", NO_ARGS, None, None, REJECT),
    ("two terms of node name affinity",
     required(term(fields=[name_in("node1")]), term(fields=[name_in("node2")])),
     {}, "node2", NO_ARGS, None, PreFilterResult(frozenset({"node1", "node2"})), None),
    ("two conflicting matchFields requirements",
     required(term(fields=[name_in("node1"), name_in("node2")])),
     {"foo": "bar"}, "node2", NO_ARGS, CONFLICT, None, REJECT),
    ("matchFields In with two values is a parse error",
     required(term(fields=[name_in("node1", "node2")])),
     {}, "node1", NO_ARGS, None, PreFilterResult(frozenset({"node1", "node2"})), REJECT),
    ("matches added affinity and pod's affinity", required(term([expr("zone", "In", "foo")])),
     {"zone": "foo"}, "node2", ADDED_NODE2, None, None, None),
    ("matches added affinity but not pod's", required(term([expr("zone", "In", "bar")])),
     {"zone": "foo"}, "node2", ADDED_NODE2, None, None, REJECT),
    ("doesn't match added affinity", {}, {"zone": "foo"}, "node2", ADDED_ZONE_BAR,
     None, None, ENFORCED),
]


@pytest.mark.parametrize(
    ("spec", "labels", "node_name", "args", "want_pre", "want_result", "want_filter"),
    [c[1:] for c in FILTER_CASES],
    ids=[c[0] for c in FILTER_CASES],
)
def test_pre_filter_and_filter(
    spec: Raw,
    labels: dict[str, str],
    node_name: str,
    args: NodeAffinityArgs,
    want_pre: Status | None,
    want_result: PreFilterResult | None,
    want_filter: Status | None,
) -> None:
    node = make_node(node_name, labels=labels)
    handle = FakeHandle([node])
    plugin = nodeaffinity.Plugin(args, handle)
    pod = make_pod("p", spec=spec)
    state = CycleState()
    result, status = plugin.pre_filter(state, pod)
    assert status == want_pre
    assert result == want_result
    # Filter also runs without PreFilter state, recomputing it.
    for st in (state, CycleState()):
        assert plugin.filter(st, pod, handle.node(node_name)) == want_filter


AFF1 = [{"weight": 2, "preference": term([expr("foo", "In", "bar")])}]
AFF2 = [
    {"weight": 2, "preference": term([expr("foo", "In", "bar")])},
    {"weight": 4, "preference": term([expr("key", "In", "value")])},
    {"weight": 5, "preference": term([expr("foo", "In", "bar"), expr("key", "In", "value"),
                                      expr("az", "In", "az1")])},
]
L1 = {"foo": "bar"}
L2 = {"key": "value"}
L3 = {"az": "az1"}
L4 = {"abc": "az11", "def": "az22"}
L5 = {"foo": "bar", "key": "value", "az": "az1"}


def preferred(terms: list[Raw]) -> Raw:
    return {"affinity": {"nodeAffinity": {PREF: terms}}}


# (name, pod spec, nodes, args, raw scores, normalized)
SCORE_CASES: list[tuple[str, Raw, dict[str, dict[str, str]], NodeAffinityArgs,
                        list[int], list[int]]] = [
    ("no preferred terms: zero everywhere", preferred([]),
     {"node1": L1, "node2": L2, "node3": L3}, NO_ARGS, [0, 0, 0], [0, 0, 0]),
    ("no node matches", preferred(AFF1), {"node1": L4, "node2": L2, "node3": L3}, NO_ARGS,
     [0, 0, 0], [0, 0, 0]),
    ("only node1 matches", preferred(AFF1), {"node1": L1, "node2": L2, "node3": L3}, NO_ARGS,
     [2, 0, 0], [100, 0, 0]),
    ("different priorities", preferred(AFF2), {"node1": L1, "node5": L5, "node2": L2}, NO_ARGS,
     [2, 11, 4], [18, 100, 36]),
    ("added affinity", {}, {"node1": L1, "node2": L2}, added({PREF: AFF1}), [2, 0], [100, 0]),
    ("added affinity and pod's", preferred(AFF1), {"node1": L1, "node2": L2, "node3": L5},
     added({PREF: [{"weight": 3, "preference": term([expr("key", "In", "value")])}]}),
     [2, 3, 5], [40, 60, 100]),
    ("zero weight and empty terms are ignored",
     preferred([{"weight": 0, "preference": term([expr("foo", "Exists")])},
                {"weight": 7, "preference": term([])},
                {"weight": 3, "preference": term(fields=[name_in("node2")])}]),
     {"node1": L1, "node2": L1}, NO_ARGS, [0, 3], [0, 100]),
]


@pytest.mark.parametrize(
    ("spec", "nodes", "args", "raw", "normalized"),
    [c[1:] for c in SCORE_CASES],
    ids=[c[0] for c in SCORE_CASES],
)
def test_score(
    spec: Raw,
    nodes: dict[str, dict[str, str]],
    args: NodeAffinityArgs,
    raw: list[int],
    normalized: list[int],
) -> None:
    handle = FakeHandle([make_node(name, labels=labels) for name, labels in nodes.items()])
    plugin = nodeaffinity.Plugin(args, handle)
    pod = make_pod("p", spec=spec)
    infos = [handle.node(name) for name in nodes]
    for run_pre_score in (True, False):
        state = CycleState()
        if run_pre_score:
            assert plugin.pre_score(state, pod, infos) is None
        scores = []
        for info in infos:
            score, status = plugin.score(state, pod, info)
            assert status is None
            scores.append(NodeScore(info.name, score))
        assert [s.score for s in scores] == raw
        assert plugin.normalize_score(state, pod, scores) is None
        assert [s.score for s in scores] == normalized


@pytest.mark.parametrize(
    ("spec", "args", "expected"),
    [
        ({}, NO_ARGS, SKIP),
        ({"affinity": {"nodeAffinity": {REQ: {"nodeSelectorTerms": [term([])]}}}}, NO_ARGS, SKIP),
        (preferred([]), NO_ARGS, None),  # present though empty: scored (all zero)
        ({}, added({PREF: AFF1}), None),
        ({}, added({REQ: {"nodeSelectorTerms": [term([expr("a", "Exists")])]}}), SKIP),
    ],
)
def test_pre_score_skip(spec: Raw, args: NodeAffinityArgs, expected: Status | None) -> None:
    handle = FakeHandle([make_node("n")])
    plugin = nodeaffinity.Plugin(args, handle)
    assert plugin.pre_score(CycleState(), make_pod("p", spec=spec), [handle.node("n")]) == expected


def test_pre_score_without_nodes() -> None:
    plugin = nodeaffinity.Plugin(NO_ARGS, FakeHandle([]))
    state = CycleState()
    assert plugin.pre_score(state, make_pod("p", spec=preferred(AFF1)), []) is None
    assert state.get(nodeaffinity.PRE_SCORE_STATE_KEY) is None


def test_pre_score_reports_parse_errors() -> None:
    handle = FakeHandle([make_node("n")])
    plugin = nodeaffinity.Plugin(NO_ARGS, handle)
    pod = make_pod("p", spec=preferred([
        {"weight": 1, "preference": term([expr("foo", "In", "a b")])},
        {"weight": 1, "preference": term(fields=[expr("metadata.name", "Exists")])},
    ]))
    status = plugin.pre_score(CycleState(), pod, [handle.node("n")])
    assert status is not None and status.code == Code.ERROR
    assert status.message() == (
        '[[0].matchExpressions[0].values[0][foo]: Invalid value: "a b": a valid label must be '
        "an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
        "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
        "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), "
        '[1].matchFields[0].operator: Unsupported value: "Exists": supported values: "In", "NotIn"]'
    )


def test_invalid_added_affinity_is_rejected() -> None:
    args = added({REQ: {"nodeSelectorTerms": [term([expr("v", "Gt", "x")])]}})
    with pytest.raises(ValueError, match=r"nodeSelectorTerms\[0\]\.matchExpressions\[0\]"):
        nodeaffinity.Plugin(args, FakeHandle([]))


@pytest.mark.parametrize(
    ("text", "value"),
    [("0206", 206), ("+5", 5), ("-5", -5), ("1_000", None), (" 5", None), ("", None),
     ("9223372036854775807", 2**63 - 1), ("9223372036854775808", None), ("\uff11", None)],
)
def test_go_parse_int(text: str, value: int | None) -> None:
    assert go_parse_int(text) == value
