"""Builders shared by the Coscheduling tests (no tests here)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ksched_cli.api.meta import DEFAULT_TIME, ObjectMeta
from ksched_cli.api.node import Node
from ksched_cli.api.pod import Pod
from ksched_cli.api.podgroup import POD_GROUP_LABEL, PodGroup
from ksched_cli.config.args import CoschedulingArgs
from ksched_cli.framework.interface import WaitingPod
from ksched_cli.plugins.coscheduling import plugin as coscheduling
from tests.fakes import FakeHandle, make_node, make_pod


def gang_pod(
    name: str, group: str = "", namespace: str = "ns", node: str = "", cpu: str | None = None,
    priority: int = 0,
) -> Pod:
    labels = {POD_GROUP_LABEL: group} if group else {}
    return make_pod(name, cpu=cpu, namespace=namespace, node=node, labels=labels, priority=priority)


def pod_group(
    name: str,
    namespace: str = "ns",
    min_member: int = 0,
    min_resources: dict[str, str] | None = None,
    timeout: int | None = None,
    created: float = DEFAULT_TIME,
) -> PodGroup:
    return PodGroup(
        meta=ObjectMeta(name=name, namespace=namespace),
        min_member=min_member,
        schedule_timeout_seconds=timeout,
        creation_timestamp=created,
        min_resources_text=min_resources,
    )


@dataclass(eq=False)
class FakeWaitingPod:
    pod: Pod
    plugins: list[str] = field(default_factory=lambda: ["Coscheduling"])
    allowed: list[str] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)

    def pending_plugins(self) -> list[str]:
        return list(self.plugins)

    def allow(self, plugin: str) -> None:
        self.allowed.append(plugin)

    def reject(self, plugin: str, message: str) -> None:
        self.rejected.append((plugin, message))


class GangHandle(FakeHandle):
    """FakeHandle with PodGroups, waiting pods and a settable clock."""

    def __init__(
        self,
        nodes: Sequence[Node] = (),
        pods: Sequence[Pod] = (),
        groups: Sequence[PodGroup] = (),
        waiting: Sequence[Pod] = (),
    ) -> None:
        super().__init__(list(nodes) or [make_node("node", cpu="4", pods="32")], pods)
        for pg in groups:
            self.cluster.pod_groups[pg.key] = pg
        self.waiting = [FakeWaitingPod(p) for p in waiting]

    def iterate_over_waiting_pods(self) -> list[WaitingPod]:
        return list[WaitingPod](self.waiting)


def make_plugin(
    handle: GangHandle, permit_seconds: int = 10, backoff_seconds: int = 0
) -> coscheduling.Plugin:
    args = CoschedulingArgs(
        permit_waiting_time_seconds=permit_seconds, pod_group_backoff_seconds=backoff_seconds
    )
    return coscheduling.Plugin(args, handle)
