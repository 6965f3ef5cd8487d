"""A non-ignorable extender's error is an Error status: kube-scheduler's
handleSchedulingFailure gives the pod reason SchedulerError (not Unschedulable), with the
error's text, runs no PostFilter (so no preemption) and clears the nomination
(schedule_one.go schedulingAlgorithm / handleSchedulingFailure, the same in v1.30.6 and
v1.36.2). ErrNoNodesAvailable stays Unschedulable (UnschedulableAndUnresolvable)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ksched_cli.versions.releases import RELEASES

from ..hardening.helpers import ksched
from .helpers import config_text, extender, three_nodes
from .server import FakeExtender, serving
from .test_engine import _preemption_cluster


def _plan(tmp_path: Path, cluster: Path, release: str) -> tuple[dict[str, Any], str]:
    config = tmp_path / "config.yaml"
    with serving(FakeExtender({"filter": lambda body: {}}, status=500)) as fake:
        config.write_text(config_text(extender(fake.url, filterVerb="filter")))
        result = ksched("plan", str(cluster), "--config", str(config), "-o", "json",
                        "--explain", "--kubernetes-version", release)
    assert result.exit_code == 2, result.output
    error = f"failed filter with extender at URL {fake.url}/filter, code 500"
    return json.loads(result.stdout), error


@pytest.mark.parametrize("release", sorted(RELEASES))
def test_an_extender_error_is_reason_scheduler_error(tmp_path: Path, release: str) -> None:
    plan, error = _plan(tmp_path, three_nodes(tmp_path), release)
    assert plan["pods"] == [{"pod": "default/web", "outcome": "SchedulerError", "message": error,
                             "priority": 0, "time": plan["pods"][0]["time"]}]
    assert plan["summary"] == {"SchedulerError": 1}
    # Every attempt failed with the error itself: no FitError, so no PostFilter message.
    assert {(a["result"], a.get("node"), a["message"]) for a in plan["attempts"]} == {
        ("SchedulerError", None, error)}


@pytest.mark.parametrize("release", ["1.30", "1.36"])
def test_the_nomination_is_cleared_by_the_error(tmp_path: Path, release: str) -> None:
    # The Filter plugins reject every node: preemption nominates node a (the extender is
    # called with feasible nodes only); the next attempt reaches the extender, whose error
    # clears the nomination (clearNominatedNode) and leaves the pod a SchedulerError.
    plan, error = _plan(tmp_path, _preemption_cluster(tmp_path), release)
    pods = {p["pod"]: p for p in plan["pods"]}
    assert pods["default/low-a"]["outcome"] == "Preempted"
    assert (pods["default/web"]["outcome"], pods["default/web"].get("node")) == (
        "SchedulerError", None)
    attempts = [(a["result"], a.get("node"), a["message"]) for a in plan["attempts"]]
    assert attempts[0] == ("Nominated", "a", "0/3 nodes are available: 3 Insufficient cpu.")
    assert set(attempts[1:]) == {("SchedulerError", None, error)}


def test_no_nodes_is_unschedulable(tmp_path: Path) -> None:
    pod = tmp_path / "pod.yaml"
    pod.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                   "spec: {containers: [{name: c, image: x}]}\n")
    result = ksched("plan", str(pod), "-o", "json")
    assert result.exit_code == 2
    decision = json.loads(result.stdout)["pods"][0]
    assert (decision["outcome"], decision["message"]) == (
        "Unschedulable", "no nodes available to schedule pods")
