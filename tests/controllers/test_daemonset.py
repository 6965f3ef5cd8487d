"""DaemonSet: which nodes get a pod (NodeShouldRunDaemonPod), the pinning affinity and the
tolerations the controller adds."""

from __future__ import annotations

from pathlib import Path

import pytest

from ksched_cli.api.pod import Toleration
from ksched_cli.api.selectors import NodeSelectorTerm, Requirement
from ksched_cli.config.load import default_config
from ksched_cli.controllers import reconcile
from ksched_cli.controllers.daemonset import daemon_tolerations, target_node
from ksched_cli.engine.engine import Engine
from tests.fakes import make_pod

from .helpers import load, node, template, workload

DEFAULT_TOLERATIONS = [
    ("node.kubernetes.io/not-ready", "NoExecute"),
    ("node.kubernetes.io/unreachable", "NoExecute"),
    ("node.kubernetes.io/disk-pressure", "NoSchedule"),
    ("node.kubernetes.io/memory-pressure", "NoSchedule"),
    ("node.kubernetes.io/pid-pressure", "NoSchedule"),
    ("node.kubernetes.io/unschedulable", "NoSchedule"),
]


def daemon_set(spec: str = "", labels: str = "app: agent") -> str:
    body = "  selector: {matchLabels: {app: agent}}\n" + template(labels, spec)
    return workload("DaemonSet", "agent", body)


NODES = [
    node("plain"),
    node("tainted", taints="{key: dedicated, value: db, effect: NoSchedule}"),
    node("evicting", taints="{key: dedicated, value: db, effect: NoExecute}"),
    node("cordoned", taints="{key: node.kubernetes.io/unschedulable, effect: NoSchedule}"),
    node("pressure", taints="{key: node.kubernetes.io/memory-pressure, effect: NoSchedule}"),
    node("gpu", labels="gpu: 'true'"),
]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("", ["plain", "cordoned", "pressure", "gpu"]),
        ("      nodeSelector: {gpu: 'true'}\n", ["gpu"]),
        ("      tolerations: [{key: dedicated, operator: Exists}]\n",
         ["plain", "tainted", "evicting", "cordoned", "pressure", "gpu"]),
        ("      tolerations: [{key: dedicated, operator: Exists, effect: NoSchedule}]\n",
         ["plain", "tainted", "cordoned", "pressure", "gpu"]),
        ("""      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions: [{key: gpu, operator: DoesNotExist}]
""", ["plain", "cordoned", "pressure"]),
        ("      nodeName: plain\n", ["plain"]),
    ],
    ids=["defaults", "node-selector", "tolerates-all", "tolerates-noschedule", "affinity",
         "node-name"],
)
def test_one_pod_per_node_that_should_run_one(
    tmp_path: Path, spec: str, expected: list[str]
) -> None:
    cluster = load(tmp_path, *NODES, daemon_set(spec)).cluster
    assert [target_node(p) for p in cluster.pods] == expected
    for pod in cluster.pods:
        assert pod.workload == "daemonset/agent"
        assert pod.name.startswith("agent-") and len(pod.name) == len("agent-") + 5
        assert pod.labels["pod-template-generation"] == "1"
        assert pod.labels["controller-revision-hash"]
        assert pod.node_affinity is not None and pod.node_affinity.required is not None
        assert pod.node_affinity.required.terms == (
            NodeSelectorTerm(match_fields=(Requirement("metadata.name", "In",
                                                       (target_node(pod),)),)),)


def test_added_tolerations_follow_the_templates_own() -> None:
    pod = make_pod("p", spec={"tolerations": [
        {"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule",
         "tolerationSeconds": 5},
        {"key": "x", "operator": "Exists"},
    ]})
    got = [(t.key, t.effect) for t in daemon_tolerations(pod)]
    # The matching toleration is replaced in place; the others are appended in order.
    assert got[:2] == [("node.kubernetes.io/unschedulable", "NoSchedule"), ("x", "")]
    assert got[2:] == [t for t in DEFAULT_TOLERATIONS if t[0] != got[0][0]]
    assert daemon_tolerations(pod)[0] == Toleration("node.kubernetes.io/unschedulable",
                                                    "Exists", "", "NoSchedule")


def test_host_network_pods_tolerate_network_unavailable() -> None:
    pod = make_pod("p", spec={"hostNetwork": True})
    network = ("node.kubernetes.io/network-unavailable", "NoSchedule")
    assert [(t.key, t.effect) for t in daemon_tolerations(pod)] == [*DEFAULT_TOLERATIONS, network]


def test_preferred_affinity_is_kept_and_required_replaced(tmp_path: Path) -> None:
    spec = """      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions: [{key: kubernetes.io/hostname, operator: Exists}]
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 5
            preference: {matchExpressions: [{key: gpu, operator: Exists}]}
"""
    [pod] = load(tmp_path, node("n1"), daemon_set(spec)).cluster.pods
    assert pod.node_affinity is not None and len(pod.node_affinity.preferred) == 1
    assert pod.node_affinity.required is not None
    assert len(pod.node_affinity.required.terms) == 1


def test_reconcile_after_nodes_change(tmp_path: Path) -> None:
    result = load(tmp_path, node("n1"), node("n2"), daemon_set())
    cluster = result.cluster
    assert len(cluster.pods) == 2
    gone = cluster.nodes.pop()
    changed = reconcile(cluster)
    assert [target_node(p) for p in changed.deleted] == [gone.name] and changed.created == []
    cluster.nodes.append(gone)
    assert [target_node(p) for p in reconcile(cluster).created] == [gone.name]


def test_the_scheduler_places_daemon_pods_and_says_why_not(tmp_path: Path) -> None:
    small = node("small", cpu="50m")
    cluster = load(tmp_path, node("n1"), small, daemon_set()).cluster
    plan = Engine(default_config(), cluster).run()
    outcomes = {target_node(cluster.pods[i]): d.outcome for i, d in enumerate(
        sorted(plan.decisions, key=lambda d: [p.key for p in cluster.pods].index(d.pod)))}
    assert outcomes == {"n1": "Scheduled", "small": "Unschedulable"}
    [failed] = [d for d in plan.decisions if d.outcome == "Unschedulable"]
    # NodeAffinity's PreFilter narrows the walk to the pinned node (metadata.name).
    assert failed.message.startswith("0/2 nodes are available: 1 Insufficient cpu.")
