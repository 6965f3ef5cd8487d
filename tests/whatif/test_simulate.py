"""``ksched simulate``: scenario validation, event requeueing, the timeline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ksched_cli.cli.simulate_cmd import simulate
from ksched_cli.config.load import load_config
from ksched_cli.engine import events as ev
from ksched_cli.whatif.scenario import load_scenario
from ksched_cli.whatif.simulate import Timeline
from ksched_cli.whatif.simulate import simulate as run_scenario

from .helpers import load, node, pod, write
from .test_cli import check_golden

REPO = Path(__file__).resolve().parents[2]
SCENARIO = "examples/scenario/scenario.yaml"
CLUSTER = "examples/scenario/cluster.yaml"


def run(monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    monkeypatch.chdir(REPO)
    return CliRunner().invoke(simulate, list(args))


def _scenario(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(body, encoding="utf-8")
    return path


def _simulate(tmp_path: Path, docs: list[dict[str, object]], body: str) -> Timeline:
    cluster = load(tmp_path, docs)
    scenario = load_scenario(str(_scenario(tmp_path, body)))
    return run_scenario(load_config("default"), cluster, scenario)


def _requeued(timeline: Timeline) -> list[tuple[str, list[str]]]:
    return [(r.event, r.pods) for e in timeline.entries for r in e.requeued]


FULL = [node("n1", cpu="2"), pod("running", "n1", cpu="1500m"), pod("big", cpu="1"),
        pod("picky", cpu="100m", nodeSelector={"disk": "ssd"})]


def test_pod_delete_moves_only_pods_a_pod_delete_can_help(tmp_path: Path) -> None:
    timeline = _simulate(tmp_path, FULL, "steps:\n- at: 5\n  delete: {kind: Pod, name: running}\n")
    # NodeResourcesFit registers Pod Delete; NodeAffinity does not.
    assert _requeued(timeline) == [("AssignedPodDelete", ["default/big"])]
    # big binds; the bind itself moves every unschedulable pod (semantics.md §3).
    assert [(a.pod, a.result, a.time) for a in timeline.entries[1].attempts] == [
        ("default/big", "Scheduled", 5.0), ("default/picky", "Unschedulable", 5.0)
    ]


def test_node_add_is_prechecked(tmp_path: Path) -> None:
    write(tmp_path / "ssd.yaml", [node("ssd", cpu="1", labels={"disk": "ssd"})])
    timeline = _simulate(tmp_path, FULL, "steps:\n- at: 5\n  addNodes: ssd.yaml=1\n")
    # big (1 cpu) does not pass the new node's admission check once picky... both are
    # checked against the empty node: both fit it, both move.
    assert _requeued(timeline) == [("NodeAdd", ["default/big", "default/picky"])]


def test_node_add_precheck_keeps_pods_the_node_cannot_take(tmp_path: Path) -> None:
    write(tmp_path / "small.yaml", [node("small", cpu="500m")])
    timeline = _simulate(tmp_path, FULL, "steps:\n- at: 5\n  addNodes: small.yaml=1\n")
    # big needs 1 cpu; picky needs disk=ssd: neither passes preCheckForNode.
    assert _requeued(timeline) == [("NodeAdd", [])]


def test_uncordon_moves_pods_the_node_unschedulable_rejected(tmp_path: Path) -> None:
    cordoned = {**node("n1", cpu="2"), "spec": {"unschedulable": True}}
    docs = [cordoned, node("n2", cpu="100m"), pod("waiting", cpu="1")]
    body = "steps:\n- at: 5\n  cordon: n2\n- at: 1m\n  uncordon: n1\n"
    timeline = _simulate(tmp_path, docs, body)
    # Cordoning gives no event (only becoming schedulable does), so the pod waits.
    assert _requeued(timeline) == [("NodeSpecUnschedulableChange", ["default/waiting"])]
    last = timeline.entries[-1].attempts
    assert [(a.pod, a.result, a.time) for a in last] == [("default/waiting", "Scheduled", 60.0)]


def test_node_delete_moves_nothing(tmp_path: Path) -> None:
    docs = [*FULL, node("n2", cpu="100m")]
    timeline = _simulate(tmp_path, docs, "steps:\n- at: 5\n  removeNode: n2\n")
    assert _requeued(timeline) == []


def test_event_matching() -> None:
    assert ev.ClusterEvent(ev.NODE, ev.ADD | ev.UPDATE).matches(ev.NODE_TAINT_CHANGE)
    assert not ev.ClusterEvent(ev.NODE, ev.ADD).matches(ev.NODE_LABEL_CHANGE)
    enqueue = {"NodeResourcesFit", "SomeOutOfTreePlugin", "SchedulingGates"}
    assert ev.worth_requeuing(ev.ASSIGNED_POD_DELETE, set(), enqueue)
    assert ev.worth_requeuing(ev.ASSIGNED_POD_DELETE, {"SomeOutOfTreePlugin"}, enqueue)
    assert not ev.worth_requeuing(ev.NODE_ADD, {"SchedulingGates"}, enqueue)
    # A PostFilter plugin has no enqueue extensions: rejecting alone, it moves on nothing.
    assert not ev.worth_requeuing(ev.NODE_ADD, {"DefaultPreemption"}, enqueue)
    assert ev.worth_requeuing(ev.NODE_ADD, {"DefaultPreemption", "NodeResourcesFit"}, enqueue)


def test_example_golden(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, SCENARIO, CLUSTER)
    assert result.exit_code == 0, result.output
    check_golden("scenario.timeline.txt", result.stdout)
    result = run(monkeypatch, SCENARIO, CLUSTER, "-o", "yaml")
    assert result.exit_code == 0, result.output
    check_golden("scenario.timeline.yaml", result.stdout)


def test_json_timeline(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = json.loads(run(monkeypatch, SCENARIO, CLUSTER, "-o", "json").stdout)
    assert doc["kind"] == "Simulation"
    assert [e["step"] for e in doc["timeline"]] == [
        "start", "batch finishes: delete Pod batch-1", "addNodes templates/ssd-node.yaml=1",
        "drain node-b", "uncordon node-b",
    ]
    assert doc["timeline"][2]["requeued"] == [{"event": "NodeAdd", "pods": ["default/pinned"]}]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("steps:\n- at: 5\n  explode: n1\n",
         ':3:3: error: Scenario: steps[0].explode: unknown action "explode" (expected one of '
         "drain, removeNode, cordon, uncordon, addNodes, scale, create, delete)"),
        ("steps:\n- at: 20s\n  cordon: n1\n- at: 10s\n  uncordon: n1\n",
         ":4:3: error: Scenario: steps[1].at: time goes backwards: 10s is before the previous "
         "step's 20s"),
        ("steps:\n- at: soon\n  cordon: n1\n",
         ":2:3: error: Scenario: steps[0].at: invalid time 'soon': expected seconds"),
        # Scenarios are read as kubectl reads YAML: json.Marshal has no NaN or infinity.
        ("steps:\n- at: .nan\n  cordon: n1\n",
         ":2:7: error: invalid YAML: json: unsupported value: NaN"),
        ("steps:\n- at: .inf\n  cordon: n1\n",
         ":2:7: error: invalid YAML: json: unsupported value: +Inf"),
        ("steps:\n- at: -.Inf\n  cordon: n1\n",
         ":2:7: error: invalid YAML: json: unsupported value: -Inf"),
        ("steps:\n- at: 1\n  cordon: n1\n  at: 2\n",
         ':4:3: error: Scenario: duplicate field "steps[0].at"'),
        ("steps: []\nsteps:\n- at: 1\n  cordon: n1\n",
         ':2:1: error: Scenario: duplicate field "steps"'),
        ("steps:\n- at: 1\n  cordon: n1\n  drain: n1\n",
         ":2:3: error: Scenario: steps[0]: a step takes exactly one action, found cordon, drain"),
        ("steps:\n- at: 1\n", ":2:3: error: Scenario: steps[0]: a step takes exactly one action, "
                              "found none"),
        ("stepz: []\n", ':1:1: error: Scenario: stepz: unknown field "stepz"'),
        ("steps:\n- at: 1\n  drain: nope\n",
         ':3:3: error: Scenario: steps[0].drain: at 1s: no node named "nope" in the input'),
        ("steps:\n- at: 1\n  scale: deployment/x\n",
         ':3:3: error: Scenario: steps[0].scale: malformed value "deployment/x": expected '
         "KIND/NAME=N"),
        ("steps:\n- at: 1\n  delete: {kind: Pod, name: ghost}\n",
         ":3:3: error: Scenario: steps[0].delete: at 1s: no pod default/ghost in the cluster"),
    ],
)
def test_bad_scenarios(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, body: str,
                       message: str) -> None:
    cluster = write(tmp_path / "cluster.yaml", [node("n1")])
    path = _scenario(tmp_path, body)
    result = run(monkeypatch, str(path), str(cluster))
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{path}{message}"), lines[0]


def test_readme_commands_run(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (REPO / "examples/scenario/README.md").read_text(encoding="utf-8")
    commands = [line.split("ksched simulate ", 1)[1].split() for line in text.splitlines()
                if line.strip().startswith("ksched simulate ")]
    assert len(commands) == 2
    for args in commands:
        result = run(monkeypatch, *args)
        assert (result.exit_code, result.stderr) == (0, ""), args


def test_the_example_validates_against_the_schema() -> None:
    scenario = load_scenario(str(REPO / SCENARIO))
    assert [s.action for s in scenario.steps] == ["delete", "addNodes", "drain", "uncordon"]
    assert [s.time for s in scenario.steps] == [10.0, 20.0, 30.0, 60.0]


def test_create_step_runs_controllers_and_sends_storage_events(tmp_path: Path) -> None:
    deployment = {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "api", "namespace": "default"},
        "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "api"}},
                 "template": {"metadata": {"labels": {"app": "api"}},
                              "spec": {"containers": [{"name": "c", "image": "i"}]}}},
    }
    claim = {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
             "metadata": {"name": "data", "namespace": "default"},
             "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "",
                      "resources": {"requests": {"storage": "1Gi"}}}}
    write(tmp_path / "more.yaml", [deployment, claim])
    volume = [{"name": "v", "persistentVolumeClaim": {"claimName": "data"}}]
    docs = [node("n1"), pod("needs-claim", cpu="100m", volumes=volume)]
    timeline = _simulate(tmp_path, docs, "steps:\n- at: 5\n  create: more.yaml\n")
    entry = timeline.entries[1]
    assert entry.operation is not None
    created = [c for c in entry.operation.changes if c.change == "Created"]
    assert [c.workload for c in created] == ["deployment/api"] * 2
    # VolumeBinding rejected the pod (its claim did not exist) and registers PVC/Add.
    assert [(r.event, r.pods) for r in entry.requeued] == [("PvcAdd", ["default/needs-claim"])]
