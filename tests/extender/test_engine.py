"""Extenders in a plan: filter, prioritize, preemption, bind, ignorable, timeout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ksched_cli.engine import records as rec

from ..manifests.helpers import docs, pod, priority_class
from .helpers import config_text, extender, outcome, plan, three_nodes
from .server import FakeExtender, node_names, serving


def _only_b(body: Any) -> Any:
    names = node_names(body)
    failed = {n: "extender says no" for n in names if n != "b"}
    return {"NodeNames": [n for n in names if n == "b"], "FailedNodes": failed}


def test_filter_keeps_only_what_the_extender_passes(tmp_path: Path) -> None:
    with serving(FakeExtender({"filter": _only_b})) as fake:
        cfg = config_text(extender(fake.url, filterVerb="filter", nodeCacheCapable=True))
        result = plan(tmp_path, cfg, three_nodes(tmp_path))
    assert outcome(result)[:2] == (rec.SCHEDULED, "b")
    verb, body = fake.calls[0]
    assert verb == "filter" and body["Nodes"] is None
    assert sorted(body["NodeNames"]) == ["a", "b", "c"]
    assert body["Pod"]["metadata"]["name"] == "web"


def test_filter_rejects_everything_into_the_fit_error(tmp_path: Path) -> None:
    def none(body: Any) -> Any:
        names = node_names(body)
        return {
            "Nodes": {"items": []},
            "FailedNodes": {n: "busy" for n in names if n != "c"},
            "FailedAndUnresolvableNodes": {"c": "wrong rack"},
        }

    with serving(FakeExtender({"filter": none})) as fake:
        cfg = config_text(extender(fake.url, filterVerb="filter"))
        result = plan(tmp_path, cfg, three_nodes(tmp_path))
    # Without nodeCacheCapable the nodes go out as full objects.
    assert fake.calls[0][1]["Nodes"]["items"][0]["status"]["allocatable"]["cpu"] == "4000m"
    state, _, message = outcome(result)
    assert state == rec.UNSCHEDULABLE
    assert message.startswith("0/3 nodes are available: 1 wrong rack, 2 busy. preemption: ")


def test_prioritize_adds_weighted_scores(tmp_path: Path) -> None:
    def prefer_c(body: Any) -> Any:
        return [{"Host": n, "Score": 10 if n == "c" else 0} for n in node_names(body)]

    with serving(FakeExtender({"prioritize": prefer_c})) as fake:
        cfg = config_text(extender(fake.url, prioritizeVerb="prioritize", weight=3))
        result = plan(tmp_path, cfg, three_nodes(tmp_path))
    assert outcome(result)[:2] == (rec.SCHEDULED, "c")
    scores = result.attempts[-1].scores
    column = f"Extender({fake.url})"
    assert scores["c"].weighted[column] == 10 * 3 * 10
    assert scores["a"].weighted[column] == 0


def test_bind_goes_to_the_binder(tmp_path: Path) -> None:
    with serving(FakeExtender({"bind": lambda body: {}})) as fake:
        cfg = config_text(extender(fake.url, bindVerb="bind"))
        result = plan(tmp_path, cfg, three_nodes(tmp_path))
    assert outcome(result)[0] == rec.SCHEDULED
    verb, body = fake.calls[0]
    assert verb == "bind"
    assert body == {
        "PodName": "web",
        "PodNamespace": "default",
        "PodUID": body["PodUID"],
        "Node": outcome(result)[1],
    }


def test_bind_error_fails_the_attempt(tmp_path: Path) -> None:
    with serving(FakeExtender({"bind": lambda body: {"Error": "no quota"}})) as fake:
        cfg = config_text(extender(fake.url, bindVerb="bind"))
        result = plan(tmp_path, cfg, three_nodes(tmp_path))
    state, _, message = outcome(result)
    # An Error status from binding: kube-scheduler's reason SchedulerError.
    assert state == rec.SCHEDULER_ERROR and "no quota" in message


def test_ignorable_failure_is_skipped_with_a_warning(tmp_path: Path) -> None:
    with serving(FakeExtender({"filter": lambda body: {}}, status=500)) as fake:
        cfg = config_text(extender(fake.url, filterVerb="filter", ignorable=True))
        result = plan(tmp_path, cfg, three_nodes(tmp_path))
    assert outcome(result)[0] == rec.SCHEDULED
    url = f"{fake.url}/filter"
    assert result.warnings == [
        f"extender {fake.url}: filter failed, skipped as ignorable: "
        f"failed filter with extender at URL {url}, code 500"
    ]


def test_non_ignorable_failure_fails_the_attempt(tmp_path: Path) -> None:
    with serving(FakeExtender({"filter": lambda body: {}}, status=500)) as fake:
        cfg = config_text(extender(fake.url, filterVerb="filter"))
        result = plan(tmp_path, cfg, three_nodes(tmp_path))
    state, _, message = outcome(result)
    # handleSchedulingFailure: an Error status (not rejected) is reason SchedulerError.
    assert state == rec.SCHEDULER_ERROR
    assert message == f"failed filter with extender at URL {fake.url}/filter, code 500"


def test_timeout_on_the_wall_clock(tmp_path: Path) -> None:
    with serving(FakeExtender({"filter": _only_b}, delay=0.5)) as fake:
        cfg = config_text(extender(fake.url, filterVerb="filter", httpTimeout="100ms"))
        result = plan(tmp_path, cfg, three_nodes(tmp_path))
    state, _, message = outcome(result)
    assert state == rec.SCHEDULER_ERROR
    assert message == (
        f'Post "{fake.url}/filter": context deadline exceeded '
        "(Client.Timeout exceeded while awaiting headers)"
    )


def test_uninterested_extender_is_not_called(tmp_path: Path) -> None:
    with serving(FakeExtender({"filter": _only_b})) as fake:
        ext = extender(fake.url, filterVerb="filter")
        ext += "  managedResources:\n  - name: example.com/gpu\n"
        result = plan(tmp_path, config_text(ext), three_nodes(tmp_path))
    assert outcome(result)[0] == rec.SCHEDULED
    assert fake.calls == []


def _preemption_cluster(tmp_path: Path) -> Path:
    big = "  priorityClassName: high\n"
    filler = [pod(f"low-{n}", "default", n, "").replace("cpu: 100m", "cpu: 3900m") for n in "abc"]
    extra = docs(priority_class("high", 1000), *filler)
    cluster = three_nodes(tmp_path, extra)
    text = (cluster / "all.yaml").read_text()
    web = pod("web", "default").replace("cpu: 100m", "cpu: 1")
    (cluster / "all.yaml").write_text(text.replace(pod("web", "default"), web + big))
    return cluster


def test_preemption_is_narrowed_by_the_extender(tmp_path: Path) -> None:
    def keep_c(body: Any) -> Any:
        victims = body["NodeNameToMetaVictims"]
        assert sorted(victims) == ["a", "b", "c"]
        return {"NodeNameToMetaVictims": {"c": victims["c"]}}

    with serving(FakeExtender({"preempt": keep_c})) as fake:
        cfg = config_text(extender(fake.url, preemptVerb="preempt", nodeCacheCapable=True))
        result = plan(tmp_path, cfg, _preemption_cluster(tmp_path))
    assert outcome(result)[:2] == (rec.SCHEDULED, "c")
    preempted = result.decision_for("default/low-c")
    assert preempted is not None and preempted.outcome == rec.PREEMPTED
    assert fake.calls[0][0] == "preempt"


def test_preemption_without_victims_is_an_error(tmp_path: Path) -> None:
    def empty_c(body: Any) -> Any:
        return {"NodeNameToMetaVictims": {"c": {"Pods": [], "NumPDBViolations": 0}}}

    with serving(FakeExtender({"preempt": empty_c})) as fake:
        cfg = config_text(extender(fake.url, preemptVerb="preempt", nodeCacheCapable=True))
        result = plan(tmp_path, cfg, _preemption_cluster(tmp_path))
    state, _, message = outcome(result)
    assert state == rec.UNSCHEDULABLE
    assert 'expected at least one victim pod on node "c"' in message


def test_skip_mode_calls_nothing(tmp_path: Path) -> None:
    with serving(FakeExtender({"filter": _only_b})) as fake:
        cfg = config_text(extender(fake.url, filterVerb="filter"))
        result = plan(tmp_path, cfg, three_nodes(tmp_path), extender_mode="skip")
    assert outcome(result)[0] == rec.SCHEDULED
    assert fake.calls == []


def test_ignorable_preempt_failure_leaves_the_candidates(tmp_path: Path) -> None:
    fake = FakeExtender({"preempt": lambda body: {}}, status=503)
    with serving(fake):
        cfg = config_text(extender(fake.url, preemptVerb="preempt", ignorable=True))
        result = plan(tmp_path, cfg, _preemption_cluster(tmp_path))
    assert outcome(result)[0] == rec.SCHEDULED
    # Without nodeCacheCapable the victims go out as full pods.
    victims = fake.calls[0][1]["NodeNameToVictims"]
    assert victims["a"]["Pods"][0]["metadata"]["name"] == "low-a"
    assert "preempt failed, skipped as ignorable" in result.warnings[0]


def test_a_filtering_extender_keeps_sampling_on_without_score_plugins(tmp_path: Path) -> None:
    """With no Score plugin, one feasible node suffices, unless an extender filters."""
    seen: list[list[str]] = []

    def keep_all(body: Any) -> Any:
        seen.append(node_names(body))
        return {"NodeNames": node_names(body), "FailedNodes": {}}

    no_scores = (
        "profiles:\n- schedulerName: default-scheduler\n"
        "  plugins:\n    score:\n      disabled:\n      - name: '*'\n"
    )
    with serving(FakeExtender({"filter": keep_all})) as fake:
        text = (
            config_text(extender(fake.url, filterVerb="filter", nodeCacheCapable=True)) + no_scores
        )
        plan(tmp_path, text, three_nodes(tmp_path))
    assert seen == [["a", "b", "c"]]
