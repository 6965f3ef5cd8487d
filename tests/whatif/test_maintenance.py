"""examples/maintenance: a chart on a three-zone cluster, drained while it runs.

Each golden shows one of the what-if answers: budgets computed at the moment of each
eviction, drains that wait like kubectl, recreated pods with new names, provisioned
volumes that follow the driver's topology, capacity of a chart's workload, and
``simulate --explain-pod``. Regenerate with ``KSCHED_UPDATE_GOLDEN=1``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from ksched_cli.cli.capacity_cmd import capacity
from ksched_cli.cli.simulate_cmd import simulate

from .test_cli import check_golden

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = "examples/maintenance"
INPUTS = [f"{EXAMPLE}/scenario.yaml", f"{EXAMPLE}/cluster", f"{EXAMPLE}/shop"]
V130 = ["--kubernetes-version", "1.30"]


def _simulate(monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    monkeypatch.chdir(REPO)
    return CliRunner().invoke(simulate, [*INPUTS, *V130, *args])


GOLDEN = {
    "maintenance.timeline.txt": [],
    "maintenance.timeline.yaml": ["-o", "yaml"],
    "maintenance.explain-db-1.txt": ["--explain-pod", "shop/db-1"],
    "maintenance.timeout.txt": ["--drain-timeout", "3s"],
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    result = _simulate(monkeypatch, *GOLDEN[name])
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    check_golden(name, result.stdout)


def _timeline(monkeypatch: pytest.MonkeyPatch, *args: str) -> list[dict[str, object]]:
    doc = yaml.safe_load(_simulate(monkeypatch, "-o", "yaml", *args).stdout)
    entries: list[dict[str, object]] = doc["timeline"]
    return entries


def _changes(entries: list[dict[str, object]]) -> list[dict[str, str]]:
    return [c for e in entries for c in e.get("changes", [])]  # type: ignore[attr-defined]


def test_recreated_pods_get_new_names_but_stateful_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    recreated = [c for c in _changes(_timeline(monkeypatch)) if c["change"] == "Recreated"]
    assert recreated
    for change in recreated:
        stateful = change["workload"].startswith("statefulset/")
        assert (change["pod"] == change["replaces"]) == stateful, change


def test_the_first_drain_waits_for_the_replacement(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = _timeline(monkeypatch)
    retry = next(e for e in entries if str(e["step"]).startswith("retry evictions"))
    assert retry["time"] == 305.0
    evicted = next(c for c in _changes([retry]) if c["change"] == "Evicted")
    assert evicted["pod"] == "shop/frontend-5b4456c95c-7kg8v"
    assert evicted["reason"].startswith("evicted at 305s: waited 5s for PodDisruptionBudget "
                                        "shop/frontend until shop/frontend-5b4456c95c-")


def test_a_drain_that_cannot_finish_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    last = _timeline(monkeypatch)[-1]
    assert last["step"] == "drain still waiting: nothing more can change"
    (change,) = _changes([last])
    assert change["pod"] == "shop/cart-74689b9759-6k97v"
    assert change["reason"].endswith(
        "its minAvailable 2 asks for all 2 pod(s) it expects, so it never allows an eviction")


def test_the_volume_follows_its_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = _timeline(monkeypatch)
    decisions = [d for e in entries for d in e["decisions"]  # type: ignore[attr-defined]
                 if d["pod"] == "shop/db-1"]
    assert decisions[-1] == {"time": 600.0, "pod": "shop/db-1", "result": "Scheduled",
                             "node": "node-a1"}
    rejected = decisions[1]
    # kube-scheduler's message as it is, the claim and its topology beside it.
    assert "2 node(s) had volume node affinity conflict" in rejected["message"]
    assert rejected["volumes"] == [
        "claim shop/data-db-1 is bound to PV pvc-f19098ef-b861-56b9-8b45-00881bc23d99, "
        "reachable only from topology.ebs.csi.aws.com/zone in [eu-west-1a]"]


@pytest.mark.parametrize("verbose", [False, True])
def test_events_that_move_nothing_only_with_v(monkeypatch: pytest.MonkeyPatch,
                                              verbose: bool) -> None:
    result = _simulate(monkeypatch, *(["-v"] if verbose else []))
    assert ("requeued no pod" in result.stdout) == verbose


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--explain-pod", "db-1"],
         "error: --explain-pod: no pod default/db-1 in the input (did you mean shop/db-1?)"),
        (["--explain-pod", "shop//db-1"],
         'error: --explain-pod: malformed name "shop//db-1": expected NAME, NS/NAME, KIND/NAME '
         "or NS/KIND/NAME (pod/NAME, deployment.apps/NAME...)"),
        (["--explain-pod", "shop/db-1", "-o", "json"],
         "error: --explain-pod needs the table output"),
    ],
)
def test_explain_pod_errors(monkeypatch: pytest.MonkeyPatch, args: list[str], line: str) -> None:
    result = _simulate(monkeypatch, *args)
    assert (result.exit_code, result.stdout, result.stderr.splitlines()) == (1, "", [line])


def _capacity(monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    monkeypatch.chdir(REPO)
    return CliRunner().invoke(capacity, [f"{EXAMPLE}/shop", f"{EXAMPLE}/cluster", *V130, *args])


def test_capacity_of_a_chart_workload(monkeypatch: pytest.MonkeyPatch) -> None:
    result = _capacity(monkeypatch, "--workload", "deployment/frontend", "-n", "shop")
    assert result.exit_code == 0, result.output
    check_golden("maintenance.capacity.txt", result.stdout)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        ([], f"{EXAMPLE}/shop: error: 4 workloads (deployment/frontend -n shop, deployment/cart "
             "-n shop, statefulset/db -n shop, job/migrate -n shop): choose one with --workload "
             "KIND/NAME"),
        (["--workload", "deployment/frontend", "-n", "default"],
         f"{EXAMPLE}/shop: error: no deployment/frontend in namespace default (found: "
         "deployment/frontend -n shop, deployment/cart -n shop, statefulset/db -n shop, "
         "job/migrate -n shop)"),
        (["--workload", "shop/deployment/frontend/x"], 'error: --workload: malformed name '
         '"shop/deployment/frontend/x": expected NAME, NS/NAME, KIND/NAME or NS/KIND/NAME '
         "(pod/NAME, deployment.apps/NAME...)"),
        (["--workload", "svc/frontend"], f"{EXAMPLE}/shop: error: no frontend in namespace "
         "svc (found: deployment/frontend -n shop, deployment/cart -n shop, statefulset/db -n "
         "shop, job/migrate -n shop)"),
        # -n alone places manifests without a namespace (kubectl apply -n): the chart
        # still holds four workloads to choose from.
        (["-n", "shop"], f"{EXAMPLE}/shop: error: 4 workloads (deployment/frontend -n shop, "
         "deployment/cart -n shop, statefulset/db -n shop, job/migrate -n shop): choose one "
         "with --workload KIND/NAME"),
    ],
)
def test_capacity_pick_errors(monkeypatch: pytest.MonkeyPatch, args: list[str],
                              line: str) -> None:
    result = _capacity(monkeypatch, *args)
    assert (result.exit_code, result.stderr.splitlines()) == (1, [line])


def test_readme_commands_run(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (REPO / EXAMPLE / "README.md").read_text(encoding="utf-8")
    commands = [line.strip().split()[1:] for line in text.splitlines()
                if line.strip().startswith(("ksched simulate ", "ksched capacity "))]
    assert len(commands) == 4
    monkeypatch.chdir(REPO)
    for command, *args in commands:
        result = CliRunner().invoke(simulate if command == "simulate" else capacity, args)
        assert (result.exit_code, result.stderr) == (0, ""), args
