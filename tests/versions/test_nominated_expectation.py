"""NominatedNodeNameForExpectation (v1.35+, switches ``nominated_for_expectation`` and, from
v1.36, ``failure_status_from_cache``).

v1.35.7 and v1.36.2 ``schedule_one.go`` bindingCycle write the chosen node as the pod's
nominatedNodeName before WaitOnPermit when the pod waits at Permit or RunPreBindPreFlights
says Success. v1.35.7's handleSchedulingFailure patches against the pod as popped, so a
pod rejected while waiting keeps that nomination (and the nominator takes it back from the
patch's update event, nominator.go UpdateNominatedPod); v1.36.2 patches against the pod
refreshed from the informer, which clears it and ends it for lower- and equal-priority
pods. The API server clears a bound pod's nomination (ClearingNominatedNodeNameAfterBinding).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ksched_cli.api.pod import Pod
from ksched_cli.config.load import default_config, load_config
from ksched_cli.engine.binding import run_pre_bind_pre_flights
from ksched_cli.engine.engine import Engine
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import SKIP, Code, Status, as_error
from ksched_cli.plugins.volumebinding.plugin import Plugin as VolumeBinding
from ksched_cli.versions.releases import release
from ksched_cli.whatif.inputs import load_cluster
from tests.fakes import make_pod

# job-0 waits at Permit on node-0 for a sibling that never comes (another scheduler's) and
# is rejected after the 60 s wait; `late` cannot fit beside it and is tried again when
# job-0 leaves the node.
GANG = """\
apiVersion: v1
kind: Node
metadata: {name: node-0}
status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata:
  name: job-0
  creationTimestamp: "2024-01-01T00:00:00Z"
  labels: {scheduling.x-k8s.io/pod-group: job}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: "3", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: job-1
  creationTimestamp: "2024-01-01T00:00:00Z"
  labels: {scheduling.x-k8s.io/pod-group: job}
spec:
  schedulerName: other-scheduler
  containers: [{name: c, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: late, creationTimestamp: "2024-06-01T00:00:00Z"}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: "2", memory: 1Gi}}}]
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: PodGroup
metadata: {name: job, creationTimestamp: "2024-01-01T00:00:00Z"}
spec: {minMember: 2}
"""

# A pod with a WaitForFirstConsumer claim: VolumeBinding's PreBind has work on any node.
WFFC = """\
apiVersion: v1
kind: Node
metadata: {name: node-0, labels: {kubernetes.io/hostname: node-0}}
status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-0}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: local
  local: {path: /mnt/disk}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-0]}]
status: {phase: Available}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: local
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: app, namespace: default}
spec:
  containers: [{name: c, image: x}]
  volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]
"""


def _engine(tmp_path: Path, text: str, version: str, profile: str = "") -> Engine:
    path = tmp_path / "cluster.yaml"
    path.write_text(text, encoding="utf-8")
    chosen = release(version)
    loaded = load_cluster([str(path)], kubernetes_version=chosen.version)
    config = load_config(profile, chosen.features) if profile else default_config(chosen.features)
    return Engine(config, loaded.cluster)


def _pod(engine: Engine, name: str) -> Pod:
    return next(p for p in engine.cluster.pods if p.name == name)


@pytest.mark.parametrize(
    ("version", "late", "kept", "nominated"),
    [
        ("1.34", "Scheduled", "", []),  # no nomination is written
        ("1.35", "Unschedulable", "node-0", ["default/job-0"]),  # kept: late sees it
        ("1.36", "Scheduled", "", []),  # the failure's patch clears it
    ],
)
def test_rejected_waiting_pod_nomination(
    tmp_path: Path, version: str, late: str, kept: str, nominated: list[str]
) -> None:
    engine = _engine(tmp_path, GANG, version, "gang")
    plan = engine.run()
    outcomes = {d.pod: d.outcome for d in plan.decisions}
    assert outcomes["default/job-0"] == "Unschedulable"
    assert outcomes["default/late"] == late
    assert _pod(engine, "job-0").nominated_node_name == kept
    assert [pi.pod.key for pi in engine.nominator.pods_for_node("node-0")] == nominated
    if version == "1.35":
        last = [a for a in plan.attempts if a.pod == "default/late"][-1]
        assert last.message.startswith("0/1 nodes are available: 1 Insufficient cpu.")


@pytest.mark.parametrize("version", ["1.35", "1.36"])
def test_clearing_the_written_nomination_is_an_event_from_1_36(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, version: str
) -> None:
    """v1.36's cleared nomination is an AssignedPodDelete of job-0 as nominated to node-0;
    v1.35 sends none, as the patch leaves the nomination as it was."""
    ended: list[tuple[str, str]] = []
    original = Engine.nomination_ended

    def spy(self: Engine, before: Pod) -> Any:
        ended.append((before.key, before.nominated_node_name))
        return original(self, before)

    monkeypatch.setattr(Engine, "nomination_ended", spy)
    _engine(tmp_path, GANG, version, "gang").run()
    assert ended == ([("default/job-0", "node-0")] if version == "1.36" else [])


@pytest.mark.parametrize(
    ("version", "seen"), [("1.34", ""), ("1.35", "node-0"), ("1.36", "node-0")]
)
def test_pre_bind_work_nominates_the_host_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, version: str, seen: str
) -> None:
    """PreBind (binding the claim) runs with the pod nominated to its host from v1.35;
    binding then clears the nomination."""
    at_pre_bind: list[str] = []
    original = VolumeBinding.pre_bind

    def spy(self: VolumeBinding, state: CycleState, pod: Pod, node: str) -> Status | None:
        at_pre_bind.append(pod.nominated_node_name)
        return original(self, state, pod, node)

    monkeypatch.setattr(VolumeBinding, "pre_bind", spy)
    engine = _engine(tmp_path, WFFC, version)
    plan = engine.run()
    assert [(d.pod, d.outcome, d.node) for d in plan.decisions] == [
        ("default/app", "Scheduled", "node-0")
    ]
    assert at_pre_bind == [seen]
    assert _pod(engine, "app").nominated_node_name == ""


class _Flight:
    """A PreBind plugin whose pre-flight answers ``status``."""

    def __init__(self, name: str, status: Status | None) -> None:
        self.name, self.status = name, status

    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        return None

    def pre_bind_pre_flight(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        return self.status


class _Fwk:
    def __init__(self, *plugins: Any) -> None:
        self.pre_flight_plugins = list(plugins)


UNSUPPORTED = (
    'PreBindPreFlight B returned "Unschedulable", which is unsupported. It is supposed to '
    "return Success, Skip, or Error status"
)


@pytest.mark.parametrize(
    ("plugins", "want"),
    [
        ([], (Code.SKIP, "")),
        ([_Flight("A", SKIP)], (Code.SKIP, "")),
        ([_Flight("A", SKIP), _Flight("B", None)], None),
        ([_Flight("A", None), _Flight("B", SKIP)], None),
        ([_Flight("A", None), _Flight("B", as_error("boom"))],
         (Code.ERROR, 'running PreBindPreFlight "B": boom')),
        ([_Flight("A", SKIP), _Flight("B", Status(Code.UNSCHEDULABLE, "no"))],
         (Code.ERROR, UNSUPPORTED)),
    ],
)
def test_run_pre_bind_pre_flights(plugins: list[Any], want: tuple[Code, str] | None) -> None:
    status = run_pre_bind_pre_flights(_Fwk(*plugins), CycleState(), make_pod("p"), "n")  # type: ignore[arg-type]
    assert (None if status is None else (status.code, status.message())) == want


@pytest.mark.parametrize(
    ("before", "compared", "nominate", "changed", "after", "nominator", "patched"),
    [
        # v1.36 and earlier: the patch compares with the pod's own nomination.
        ("node-0", None, "", True, "", None, True),
        ("node-0", None, "", False, "", None, True),
        ("", None, "", False, "", None, False),
        ("", None, "node-1", False, "node-1", "node-1", True),
        ("node-0", None, None, False, "node-0", "node-0", False),
        # v1.35 after a nomination the binding cycle wrote, the pod popped without one:
        # the nomination stays; the nominator takes it back only from an update event.
        ("node-0", "", "", True, "node-0", "node-0", True),
        ("node-0", "", "", False, "node-0", None, False),
        # ... popped with another nomination: cleared, as before.
        ("node-0", "node-1", "", False, "", None, True),
    ],
)
def test_status_written(
    tmp_path: Path,
    before: str,
    compared: str | None,
    nominate: str | None,
    changed: bool,
    after: str,
    nominator: str | None,
    patched: bool,
) -> None:
    engine = _engine(tmp_path, GANG, "1.35", "gang")
    pod = _pod(engine, "late")
    pod.nominated_node_name = before
    calls: list[str] = []
    engine.queue.status_patched = lambda uid, now: calls.append(uid)  # type: ignore[method-assign]
    engine.status_written(pod, nominate, changed, compared)
    assert pod.nominated_node_name == after
    held = [n for n in ("node-0", "node-1") if pod.key in
            [pi.pod.key for pi in engine.nominator.pods_for_node(n)]]
    assert held == ([nominator] if nominator else [])
    assert calls == ([pod.uid] if patched else [])


class _Flighty:
    """A PreBind plugin whose pre-flight fails once with an Error, then finds work."""

    name = "Gatekeeper"

    def __init__(self) -> None:
        self.failures = 1

    def pre_bind_pre_flight(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        if self.failures:
            self.failures -= 1
            return as_error("flight said no")
        return None

    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        return None


def test_pre_bind_plugins_without_a_pre_flight_have_none_to_run(tmp_path: Path) -> None:
    fwk = _engine(tmp_path, WFFC, "1.36").frameworks["default-scheduler"]
    names = [pl.name for pl in fwk.pre_bind_plugins]
    assert names == ["VolumeBinding", "DynamicResources"]
    assert [pl.name for pl in fwk.pre_flight_plugins] == names
    fwk.pre_bind_plugins.append(_Flighty())
    fwk.pre_bind_plugins.append(type("Old", (), {"name": "Old", "pre_bind": _Flighty.pre_bind})())
    assert [pl.name for pl in fwk.pre_flight_plugins] == names  # chosen once, at the start


@pytest.mark.parametrize(
    ("version", "want"),
    [
        ("1.34", [("Scheduled", "node-0", "")]),  # no pre-flight before v1.35
        ("1.35", [("Rejected", "node-0", 'running PreBindPreFlight "Gatekeeper": flight said no'),
                  ("Scheduled", "node-0", "")]),
    ],
)
def test_a_failed_pre_flight_fails_the_binding_cycle(
    tmp_path: Path, version: str, want: list[tuple[str, str, str]]
) -> None:
    """bindingCycle returns the pre-flight's Error: handleBindingCycleError forgets the pod,
    which is a SchedulerError and goes to backoffQ."""
    engine = _engine(tmp_path, WFFC, version)
    fwk = engine.frameworks["default-scheduler"]
    flighty = _Flighty()
    fwk.pre_bind_plugins.append(flighty)
    fwk.pre_flight_plugins.append(flighty)
    plan = engine.run()
    assert [(a.result, a.node, a.message) for a in plan.attempts] == want
    assert [(d.pod, d.outcome) for d in plan.decisions] == [("default/app", "Scheduled")]
