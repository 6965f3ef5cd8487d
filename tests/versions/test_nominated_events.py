"""A pending pod's nomination ending (v1.33+, switch ``nominated_pod_events``).

v1.33.3 ``eventhandlers.go``: a nominated pending pod deleted (deletePodFromSchedulingQueue)
or whose nominatedNodeName changed or was cleared (updatePodInSchedulingQueue,
hasNominatedNodeNameChanged) is an AssignedPodDelete for unschedulable pods of lower or
equal priority (getLEPriorityPreCheck). Whole plans are in the golden files
``nomination-ends.*`` and ``nominated-delete.*``; these tests pin the parts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ksched_cli.api.pod import Pod
from ksched_cli.cli.main import cli
from ksched_cli.engine.engine import Engine
from ksched_cli.engine.queue import SchedulingQueue
from ksched_cli.engine.queueing_hints import DELETE, PodEvent, worth_requeuing
from ksched_cli.framework.types import QueuedPodInfo
from ksched_cli.versions.releases import release
from tests.fakes import make_pod


class _Hints:
    def of_interest(self, event: PodEvent) -> bool:
        return True

    def worth_requeuing(self, info: QueuedPodInfo, event: PodEvent) -> str:
        return worth_requeuing(info, event, {}, release("1.36").features)

    def concerns(self, info: QueuedPodInfo, event: PodEvent) -> bool:
        return True


def _unschedulable(queue: SchedulingQueue, name: str, priority: int) -> QueuedPodInfo:
    info = QueuedPodInfo(pod=make_pod(name, priority=priority))
    queue.add_active(info)
    assert queue.pop() is info
    info.unschedulable_plugins = {"NodeResourcesFit"}
    queue.add_unschedulable(info, queue.scheduling_cycle, 0.0, True)
    return info


def test_only_lower_or_equal_priority_pods_move() -> None:
    queue = SchedulingQueue(lambda a, b: a.pod.load_index < b.pod.load_index, 1.0, 10.0)
    queue.hints = _Hints()
    low, equal, high = (_unschedulable(queue, n, p) for n, p in
                        (("low", 10), ("equal", 100), ("high", 200)))
    nominated = make_pod("nominated", priority=100)
    nominated.nominated_node_name = "n1"
    moved = queue.move_with_hints(
        5.0, PodEvent(DELETE, nominated, ""), pre_check=lambda i: i.pod.priority <= 100
    )
    assert [info.pod.name for info in moved] == ["low", "equal"]
    assert list(queue.unschedulable) == [high.pod.uid]
    assert low.pod.uid not in queue.unschedulable and equal.pod.uid not in queue.unschedulable


CLUSTER = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: victim, namespace: default}
spec:
  nodeName: n1
  containers: [{name: c, image: x, resources: {requests: {cpu: "4"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: waiting, namespace: default}
spec:
  priority: 50
  preemptionPolicy: Never
  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
status: {nominatedNodeName: n1}
---
apiVersion: v1
kind: Pod
metadata: {name: preemptor, namespace: default}
spec:
  priority: 100
  containers: [{name: c, image: x, resources: {requests: {cpu: "4"}}}]
"""


@pytest.mark.parametrize(("version", "sent"), [("1.32", False), ("1.36", True)])
def test_preemption_ends_lower_priority_nominations(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, version: str, sent: bool
) -> None:
    """prepareCandidate clears the nomination of lower-priority pods on the chosen node;
    each cleared nomination is an event of its own, after the victims' deletions."""
    ended: list[tuple[str, str, bool]] = []
    original = Engine.nomination_ended

    def spy(self: Engine, before: Pod) -> Any:
        moved = original(self, before)
        ended.append((before.key, before.nominated_node_name, moved is not None))
        return moved

    monkeypatch.setattr(Engine, "nomination_ended", spy)
    (tmp_path / "cluster.yaml").write_text(CLUSTER, encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["plan", str(tmp_path / "cluster.yaml"), "--kubernetes-version", version]
    )
    assert result.exit_code in (0, 2), result.output
    assert ended[0] == ("default/waiting", "n1", sent)
