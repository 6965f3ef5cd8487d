"""Each what-if operation on a small cluster: what it changes, then what the plan does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ksched_cli.config.load import load_config
from ksched_cli.engine.cluster import Cluster
from ksched_cli.engine.engine import Engine
from ksched_cli.errors import KschedError
from ksched_cli.whatif.apply import apply_operations, finish_report
from ksched_cli.whatif.model import WhatIfReport
from ksched_cli.whatif.ops.registry import parse_operation

from .helpers import load, node, pdb, pod, write

WEB = {"app": "web"}
RS = ("ReplicaSet", "web-abc")
DS_TOLERATION = [{"key": "node.kubernetes.io/unschedulable", "operator": "Exists",
                  "effect": "NoSchedule"}]


def _agent(node_name: str) -> dict[str, Any]:
    affinity = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchFields": [
            {"key": "metadata.name", "operator": "In", "values": [node_name]}]}]}}}
    return pod(f"agent-{node_name}", node_name, "100m", "64Mi", {"app": "agent"},
               ("DaemonSet", "agent"), "kube-system", affinity=affinity,
               tolerations=DS_TOLERATION)


def _base() -> list[dict[str, Any]]:
    return [
        node("n1"), node("n2"),
        pod("web-abc-1", "n1", labels=WEB, owner=RS),
        pod("web-abc-2", "n1", labels=WEB, owner=RS),
        pod("web-abc-3", "n2", labels=WEB, owner=RS),
        pod("db-0", "n1", labels={"app": "db"}, owner=("StatefulSet", "db")),
        pod("bare", "n1"),
        pod("mirror", "n1", annotations={"kubernetes.io/config.mirror": "x"}),
        _agent("n1"), _agent("n2"),
    ]


def _run(cluster: Cluster, *ops: tuple[str, str]) -> WhatIfReport:
    report, _ = apply_operations(cluster, [parse_operation(o, v) for o, v in ops])
    plan = Engine(load_config("default"), cluster).run()
    finish_report(report, cluster, plan)
    return report


def _changes(report: WhatIfReport) -> list[tuple[str, str, str]]:
    return [(c.pod, c.change, c.node) for c in report.changes()]


def test_drain_without_budget(tmp_path: Path) -> None:
    cluster = load(tmp_path, _base())
    report = _run(cluster, ("--drain", "n1"))
    changes = _changes(report)
    assert changes[:6] == [
        ("default/bare", "Lost", "n1"),
        ("default/db-0", "Evicted", "n1"),
        ("default/mirror", "Stays", "n1"),
        ("default/web-abc-1", "Evicted", "n1"),
        ("default/web-abc-2", "Evicted", "n1"),
        ("kube-system/agent-n1", "Stays", "n1"),
    ]
    recreated = [c for c in report.changes() if c.change == "Recreated"]
    assert [c.replaces for c in recreated] == ["default/db-0", "default/web-abc-1",
                                              "default/web-abc-2"]
    assert recreated[0].pod == "default/db-0"  # a StatefulSet keeps the ordinal's name
    assert all(c.pod.startswith("default/web-abc-") for c in recreated[1:])
    # Every recreated pod is planned on the only schedulable node.
    assert [(c.change, c.node, c.from_node) for c in report.outcomes] == [("Moved", "n2", "n1")] * 3
    assert next(n for n in cluster.nodes if n.name == "n1").unschedulable
    warnings = report.operations[0].warnings
    assert warnings == ["n1: deleting Pods that declare no controller: default/bare",
                        "n1: ignoring DaemonSet-managed Pods: kube-system/agent-n1"]
    assert report.disrupted()  # the bare pod is lost


def test_drain_blocked_by_budget(tmp_path: Path) -> None:
    cluster = load(tmp_path, [*_base(), pdb("web", WEB, min_available=2)])
    report = _run(cluster, ("--drain", "n1"))
    by_pod = {c.pod: c for c in report.operations[0].changes}
    assert by_pod["default/web-abc-1"].change == "Evicted"
    blocked = by_pod["default/web-abc-2"]
    assert (blocked.change, blocked.pdb) == ("BlockedDrain", "default/web")
    # The status the refusal quotes is the one after the first eviction (live, §10).
    assert blocked.reason.endswith("The disruption budget web needs 2 healthy pods and has 2 "
                                   "currently")
    # The blocked pod stays on the cordoned node.
    assert any(p.key == "default/web-abc-2" and p.node_name == "n1" for p in cluster.pods)


def test_drain_by_selector_cordons_every_node_first(tmp_path: Path) -> None:
    docs = [*_base(), node("n3", labels={"pool": "old"})]
    docs[0]["metadata"]["labels"]["pool"] = "old"
    cluster = load(tmp_path, docs)
    report = _run(cluster, ("--drain", "-l pool=old"))
    assert report.operations[0].nodes == ["n1", "n3"]
    # n3 was cordoned before n1's pods were recreated, so they all go to n2.
    assert {c.node for c in report.outcomes} == {"n2"}


def test_remove_node_skips_budgets_and_daemonset_pods_go(tmp_path: Path) -> None:
    cluster = load(tmp_path, [*_base(), pdb("web", WEB, min_available=3)])
    report = _run(cluster, ("--remove-node", "n1"))
    kinds = {c.pod: c.change for c in report.operations[0].changes}
    assert kinds["default/web-abc-2"] == "Deleted"
    assert kinds["default/bare"] == "Lost"
    assert kinds["kube-system/agent-n1"] == "Deleted"
    assert [n.name for n in cluster.nodes] == ["n2"]
    assert [n.name for n in report.after] == ["n2"]
    assert len(report.outcomes) == 3  # db-0 and two web pods, no DaemonSet pod


def test_cordon_and_uncordon(tmp_path: Path) -> None:
    cluster = load(tmp_path, [*_base(), pod("new", cpu="100m")])
    report = _run(cluster, ("--cordon", "n2"), ("--cordon", "n1"), ("--uncordon", "n2"))
    assert [n.unschedulable for n in cluster.nodes] == [True, False]
    assert report.operations[2].nodes == ["n2"]
    assert [c.name for c in cluster.pods if c.name == "new" and c.node_name == "n2"]


def test_add_nodes_with_daemonsets(tmp_path: Path) -> None:
    template = write(tmp_path / "big.yaml", [node("big", cpu="16", labels={"pool": "big"})])
    cluster = load(tmp_path, [*_base(), pod("huge", cpu="10")])
    report = _run(cluster, ("--add-nodes", f"{template}=2"))
    assert report.operations[0].nodes == ["big-1", "big-2"]
    added = [n for n in cluster.nodes if n.name.startswith("big-")]
    assert [n.labels["kubernetes.io/hostname"] for n in added] == ["big-1", "big-2"]
    created = [c for c in report.operations[0].changes if c.change == "Created"]
    assert len(created) == 2 and all(c.workload == "daemonset/agent" for c in created)
    assert sorted(c.node for c in report.outcomes) == ["big-1", "big-2"]
    huge = next(p for p in cluster.pods if p.name == "huge")
    assert huge.node_name in ("big-1", "big-2")


def test_daemonset_skips_a_tainted_new_node(tmp_path: Path) -> None:
    taint = [{"key": "gpu", "value": "true", "effect": "NoSchedule"}]
    template = write(tmp_path / "gpu.yaml", [node("gpu", taints=taint)])
    cluster = load(tmp_path, _base())
    report = _run(cluster, ("--add-nodes", f"{template}=1"))
    assert report.operations[0].changes == []


@pytest.mark.parametrize(
    ("spec", "deleted", "created"),
    [
        ("replicaset/web-abc=1", ["default/web-abc-1", "default/web-abc-2"], 0),
        ("rs/web-abc=5", [], 2),
        ("statefulset/db=3", [], 2),
        ("sts/db=0", ["default/db-0"], 0),
    ],
)
def test_scale(tmp_path: Path, spec: str, deleted: list[str], created: int) -> None:
    cluster = load(tmp_path, _base())
    report = _run(cluster, ("--scale", spec))
    changes = report.operations[0].changes
    # A ReplicaSet scales down the pods doubled up on a node first (n1 holds two).
    assert [c.pod for c in changes if c.change == "Deleted"] == deleted
    assert sum(c.change == "Created" for c in changes) == created
    assert all(c.change == "Placed" for c in report.outcomes)


def test_scale_statefulset_names_ordinals(tmp_path: Path) -> None:
    cluster = load(tmp_path, _base())
    report = _run(cluster, ("--scale", "statefulset/db=3"))
    assert [c.pod for c in report.operations[0].changes] == ["default/db-1", "default/db-2"]


def test_scale_deployment_through_its_replicaset(tmp_path: Path) -> None:
    docs = _base()
    for doc in docs[2:5]:
        doc["metadata"]["labels"]["pod-template-hash"] = "abc"
    cluster = load(tmp_path, docs)
    report = _run(cluster, ("--scale", "deployment/web=4"))
    # Without the ReplicaSet in the input, its pods roll up to the Deployment its name
    # and pod-template-hash label stand for (docs/semantics.md §9).
    assert [c.workload for c in report.operations[0].changes] == ["deployment/web"]


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--drain", "nope", '--drain: no node named "nope" in the input'),
        ("--drain", "n1x", '--drain: no node named "n1x" in the input (did you mean n1?)'),
        ("--drain", "-l pool=none", "--drain: no node matches -l pool=none"),
        ("--drain", "-l a in (b", '--drain: -l a in (b: unable to parse requirement "a in (b"'),
        ("--scale", "deployment/ghost=2", "--scale: no deployment/ghost in namespace default"),
        ("--scale", "pod/x=2", '--scale: malformed value "pod/x=2"'),
        ("--scale", "rs/web-abc=-1", '--scale: malformed value "rs/web-abc=-1"'),
        ("--add-nodes", "x.yaml", '--add-nodes: malformed value "x.yaml": expected FILE=N'),
        ("--add-nodes", "x.yaml=0", '--add-nodes: malformed value "x.yaml=0"'),
    ],
)
def test_bad_operations(tmp_path: Path, option: str, value: str, message: str) -> None:
    cluster = load(tmp_path, _base())
    with pytest.raises(KschedError) as info:
        apply_operations(cluster, [parse_operation(option, value)])
    assert info.value.render().startswith(f"error: {message}")


def _deployment(replicas: int) -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "api", "namespace": "default"},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "api"}},
                 "template": {"metadata": {"labels": {"app": "api"}},
                              "spec": {"containers": [{"name": "c", "image": "i", "resources": {
                                  "requests": {"cpu": "500m", "memory": "256Mi"}}}]}}},
    }


def _daemon_set() -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "logs", "namespace": "kube-system"},
        "spec": {"selector": {"matchLabels": {"app": "logs"}},
                 "template": {"metadata": {"labels": {"app": "logs"}},
                              "spec": {"containers": [{"name": "c", "image": "i", "resources": {
                                  "requests": {"cpu": "50m"}}}]}}},
    }


def _bind_all(cluster: Cluster) -> None:
    """Plan once, so the workloads' pods run: the what-if starts from a running cluster."""
    Engine(load_config("default"), cluster).run()


def test_controllers_scale_a_deployment_in_the_input(tmp_path: Path) -> None:
    cluster = load(tmp_path, [node("n1"), node("n2"), _deployment(2)])
    _bind_all(cluster)
    report = _run(cluster, ("--scale", "deployment/api=5"))
    created = [c for c in report.operations[0].changes if c.change == "Created"]
    assert len(created) == 3
    assert all(c.workload == "deployment/api" for c in created)
    assert all(c.reason == "deployment/api scaled to 5" for c in created)
    assert [c.change for c in report.outcomes] == ["Placed"] * 3
    down = _run(cluster, ("--scale", "deployment/api=1"))
    assert sum(c.change == "Deleted" for c in down.operations[0].changes) == 4


def test_controllers_recreate_drained_deployment_pods(tmp_path: Path) -> None:
    cluster = load(tmp_path, [node("n1"), node("n2"), _deployment(4)])
    _bind_all(cluster)
    on_n1 = sorted(p.key for p in cluster.pods if p.node_name == "n1")
    report = _run(cluster, ("--drain", "n1"))
    recreated = [c for c in report.operations[0].changes if c.change == "Recreated"]
    assert sorted(c.replaces for c in recreated) == on_n1
    assert all(c.workload == "deployment/api" for c in recreated)
    assert {c.node for c in report.outcomes} == {"n2"}


def test_controllers_give_new_nodes_daemonset_pods(tmp_path: Path) -> None:
    template = write(tmp_path / "t.yaml", [node("extra")])
    cluster = load(tmp_path, [node("n1"), _daemon_set()])
    _bind_all(cluster)
    report = _run(cluster, ("--add-nodes", f"{template}=2"))
    created = [c for c in report.operations[0].changes if c.change == "Created"]
    assert [c.workload for c in created] == ["daemonset/logs"] * 2
    assert sorted(c.node for c in report.outcomes) == ["extra-1", "extra-2"]
