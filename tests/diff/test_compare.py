"""Placement comparison on hand-made plans: states, change kinds, margins, counts."""

from __future__ import annotations

from collections.abc import Sequence

from ksched_cli.diff.compare import Planned, compare, margin, pod_states
from ksched_cli.diff.model import (
    FAIL_ON_ANY,
    FAIL_ON_UNSCHEDULABLE,
    RUNNING,
    ConfigDiff,
    DiffResult,
    PodState,
    Side,
)
from ksched_cli.engine.records import Attempt, Decision, FilteredNode, Plan, PluginScores

NODES = frozenset({"node-a", "node-b", "node-c"})


def node_scores(**plugins: int) -> PluginScores:
    return PluginScores(weighted=dict(plugins), total=sum(plugins.values()))


def attempt(
    pod: str, node: str, result: str = "Scheduled",
    scores: dict[str, PluginScores] | None = None,
    filtered: dict[str, FilteredNode] | None = None,
) -> Attempt:
    a = Attempt(pod=pod, time=0.0, result=result, node=node, filtered=dict(filtered or {}))
    a.scores = dict(scores or {})
    return a


def planned(
    decisions: list[Decision],
    attempts: Sequence[Attempt] = (),
    running: dict[str, str] | None = None,
    nodes: frozenset[str] = NODES,
) -> Planned:
    return Planned(Plan(list(decisions), list(attempts)), dict(running or {}), nodes)


def result(base: Planned, head: Planned) -> DiffResult:
    changes, pods = compare(base, head)
    side = Side("cfg", ["m.yaml"], {})
    return DiffResult(side, side, ConfigDiff(), changes, pods)


def test_pod_states_take_the_last_decision_and_collect_victims() -> None:
    plan = Plan([
        Decision("ns/a", "Scheduled", "node-a"),
        Decision("ns/b", "Scheduled", "node-b"),
        Decision("ns/z", "Preempted", "node-c", preempted_by="ns/b"),
        Decision("ns/a", "Preempted", "node-a", preempted_by="ns/b"),
        Decision("ns/u", "Unschedulable", message="0/3 nodes are available"),
    ])
    states = pod_states(plan, {"ns/z": "node-c", "ns/r": "node-b"})
    assert states == {
        "ns/a": PodState("Preempted", "node-a", preempted_by="ns/b"),
        "ns/b": PodState("Scheduled", "node-b", victims=("ns/a", "ns/z")),
        "ns/z": PodState("Preempted", "node-c", preempted_by="ns/b"),
        "ns/r": PodState(RUNNING, "node-b"),
        "ns/u": PodState("Unschedulable", message="0/3 nodes are available"),
    }


def test_change_kinds() -> None:
    base = planned(
        [
            Decision("ns/moved", "Scheduled", "node-a"),
            Decision("ns/lost", "Scheduled", "node-a"),
            Decision("ns/same", "Scheduled", "node-b"),
            Decision("ns/pre", "Scheduled", "node-c"),
            Decision("ns/gone", "Scheduled", "node-c"),
        ],
        running={"ns/r": "node-c"},
    )
    head = planned(
        [
            Decision("ns/moved", "Scheduled", "node-b"),
            Decision("ns/lost", "Unschedulable", message="no"),
            Decision("ns/same", "Scheduled", "node-b"),
            Decision("ns/r", "Preempted", "node-c", preempted_by="ns/pre"),
            Decision("ns/pre", "Scheduled", "node-c"),
            Decision("ns/new", "Scheduled", "node-a"),
        ],
        running={"ns/r": "node-c"},
    )
    changes, pods = compare(base, head)
    assert pods == 7
    assert [(c.pod, c.kinds) for c in changes] == [
        ("ns/gone", ("removed",)),
        ("ns/lost", ("outcome",)),
        ("ns/moved", ("moved",)),
        ("ns/new", ("added",)),
        ("ns/pre", ("victims",)),
        ("ns/r", ("outcome",)),
    ]
    assert [c.pod for c in changes if c.regression] == ["ns/lost", "ns/r"]


def test_summary_counts_and_fail_on() -> None:
    base = planned([Decision("ns/a", "Scheduled", "node-a"), Decision("ns/u", "Unschedulable")])
    head = planned(
        [Decision("ns/a", "Scheduled", "node-b"), Decision("ns/u", "Scheduled", "node-c")]
    )
    diff = result(base, head)
    summary = diff.summary()
    assert summary["moved"] == 1 and summary["becameScheduled"] == 1
    assert summary["changed"] == 2 and summary["unchanged"] == 0 and summary["regressions"] == 0
    assert diff.fails(FAIL_ON_ANY) and not diff.fails(FAIL_ON_UNSCHEDULABLE)
    worse = result(head, base)
    assert worse.summary()["becameUnschedulable"] == 1
    assert worse.fails(FAIL_ON_UNSCHEDULABLE)


def test_no_change() -> None:
    plan = planned([Decision("ns/a", "Scheduled", "node-a")], running={"ns/r": "node-b"})
    diff = result(plan, plan)
    assert diff.changes == [] and diff.pods == 2
    assert not diff.fails(FAIL_ON_ANY)


def test_margin_drivers_explain_the_flip() -> None:
    base = planned([], [attempt("ns/p", "node-a", scores={
        "node-a": node_scores(Fit=80, Balanced=90, Taint=300),
        "node-b": node_scores(Fit=60, Balanced=95, Taint=300),
    })])
    head = planned([], [attempt("ns/p", "node-b", scores={
        "node-a": node_scores(Fit=40, Balanced=90, Taint=300),
        "node-b": node_scores(Fit=180, Balanced=95, Taint=300),
    })])
    m = margin("ns/p", "node-a", "node-b", base, head)
    assert (m.base.margin, m.head.margin) == (-15, 145)
    assert [(d.plugin, d.base, d.head, d.shift) for d in m.drivers] == [("Fit", -20, 140, 160)]
    assert m.head.margin is not None and m.base.margin is not None
    assert sum(d.shift for d in m.drivers) == m.head.margin - m.base.margin
    assert m.head.scores["node-b"]["total"] == 575


def test_margin_uses_the_placing_attempt_not_a_later_failure() -> None:
    placing = attempt("ns/p", "node-b", result="Waiting", scores={
        "node-a": node_scores(Fit=1), "node-b": node_scores(Fit=2),
    })
    later = attempt("ns/p", "", result="Unschedulable")
    base = planned([], [attempt("ns/p", "node-a", scores={
        "node-a": node_scores(Fit=2), "node-b": node_scores(Fit=1),
    })])
    m = margin("ns/p", "node-a", "node-b", base, planned([], [placing, later]))
    assert (m.base.margin, m.head.margin) == (-1, 1)


def test_margin_notes_when_a_node_has_no_score() -> None:
    filtered = attempt("ns/p", "node-a", filtered={
        "node-b": FilteredNode("NodeResourcesFit", ["Insufficient cpu"]),
    })
    head = planned([], [attempt("ns/p", "node-b", scores={
        "node-a": node_scores(Fit=1), "node-b": node_scores(Fit=2),
    })])
    m = margin("ns/p", "node-a", "node-b", planned([], [filtered]), head)
    assert m.base.margin is None and m.drivers == ()
    assert m.base.note == "node-b was filtered by NodeResourcesFit: Insufficient cpu"
    assert m.head.margin == 1

    alone = planned([], [attempt("ns/p", "node-a")])
    assert "only node-a was evaluated" in margin("ns/p", "node-a", "node-b", alone, head).base.note

    absent = planned([], [attempt("ns/p", "node-a")], nodes=frozenset({"node-a"}))
    note = margin("ns/p", "node-a", "node-b", absent, head).base.note
    assert note == "node-b is not in the cluster"

    none = margin("ns/p", "node-a", "node-b", planned([]), head)
    assert none.base.note == "no placing attempt was recorded"


def test_moved_pods_carry_a_margin_running_pods_do_not() -> None:
    def scored(node: str, a: int, b: int) -> Attempt:
        table = {"node-a": node_scores(F=a), "node-b": node_scores(F=b)}
        return attempt("ns/p", node, scores=table)

    base = planned(
        [Decision("ns/p", "Scheduled", "node-a")],
        [scored("node-a", 2, 1)],
        running={"ns/r": "node-a"},
    )
    head = planned(
        [Decision("ns/p", "Scheduled", "node-b")],
        [scored("node-b", 1, 2)],
        running={"ns/r": "node-b"},  # moved in the input itself
    )
    changes, _ = compare(base, head)
    by_pod = {c.pod: c for c in changes}
    assert by_pod["ns/p"].margin is not None
    assert (by_pod["ns/p"].margin.base.margin, by_pod["ns/p"].margin.head.margin) == (-1, 1)
    assert by_pod["ns/r"].kinds == ("moved",) and by_pod["ns/r"].margin is None
