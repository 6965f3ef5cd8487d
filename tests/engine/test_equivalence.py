"""The array paths (filter masks, score arrays) give the same plans as plain per-node code."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from ksched_cli.api.node import parse_node
from ksched_cli.api.pod import parse_pod
from ksched_cli.config.load import default_config, load_config
from ksched_cli.engine.cluster import Cluster
from ksched_cli.engine.engine import Engine, EngineOptions
from ksched_cli.render.document import plan_document
from ksched_cli.whatif.inputs import load_cluster

CASES = Path(__file__).parents[1] / "conformance" / "cases"
ZONES = ("z1", "z2", "z3")


def _node(rng: random.Random, i: int) -> dict[str, Any]:
    name = f"n{i:03d}"
    alloc = {
        "cpu": str(rng.choice([2, 4, 8])),
        "memory": f"{rng.choice([4, 8, 16])}Gi",
        "pods": str(rng.choice([5, 20, 110])),
        "example.com/gpu": str(rng.choice([0, 0, 2])),
    }
    spec: dict[str, Any] = {"unschedulable": rng.random() < 0.05}
    if rng.random() < 0.15:
        effect = rng.choice(["NoSchedule", "PreferNoSchedule"])
        spec["taints"] = [{"key": "dedicated", "value": rng.choice(["a", "b"]), "effect": effect}]
    labels = {
        "kubernetes.io/hostname": name,
        "topology.kubernetes.io/zone": rng.choice(ZONES),
        "tier": rng.choice(["web", "batch"]),
    }
    images = [{"names": ["img/app:1"], "sizeBytes": 300 * 2**20}] if rng.random() < 0.3 else []
    return {
        "kind": "Node",
        "metadata": {"name": name, "labels": labels},
        "spec": spec,
        "status": {"allocatable": alloc, "images": images},
    }


def _pod(rng: random.Random, i: int, node: str | None) -> dict[str, Any]:
    requests = {
        "cpu": f"{rng.choice([100, 250, 500, 1000, 1500])}m",
        "memory": f"{rng.choice([128, 512, 1024, 2048])}Mi",
    }
    if rng.random() < 0.1:
        requests["example.com/gpu"] = "1"
    spec: dict[str, Any] = {
        "containers": [
            {
                "name": "c",
                "image": rng.choice(["img/app:1", "img/other:2"]),
                "resources": {"requests": requests},
            }
        ],
        "priority": rng.choice([0, 0, 10, 100]),
    }
    labels = {"app": rng.choice(["a", "b", "c"])}
    if node:
        spec["nodeName"] = node
    if rng.random() < 0.2:
        spec["tolerations"] = [{"key": "dedicated", "operator": "Exists"}]
    if rng.random() < 0.15:
        spec["nodeSelector"] = {"tier": rng.choice(["web", "batch"])}
    if rng.random() < 0.15:
        spec["topologySpreadConstraints"] = [
            {
                "maxSkew": 1,
                "topologyKey": "topology.kubernetes.io/zone",
                "whenUnsatisfiable": rng.choice(["DoNotSchedule", "ScheduleAnyway"]),
                "labelSelector": {"matchLabels": labels},
            }
        ]
    if rng.random() < 0.1:
        spec["affinity"] = {
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "labelSelector": {"matchLabels": labels},
                        "topologyKey": "kubernetes.io/hostname",
                    }
                ]
            }
        }
    return {
        "kind": "Pod",
        "metadata": {"name": f"p{i:04d}", "namespace": "default", "labels": labels},
        "spec": spec,
    }


def _cluster(seed: int) -> Cluster:
    rng = random.Random(seed)
    nodes = [parse_node(_node(rng, i)) for i in range(rng.randint(100, 260))]
    for i, n in enumerate(nodes):
        n.load_index = i
    cluster = Cluster(nodes=nodes)
    for i in range(rng.randint(150, 300)):
        node = nodes[rng.randrange(len(nodes))].name if rng.random() < 0.4 else None
        pod = parse_pod(_pod(rng, i, node))
        pod.load_index = i
        pod.preemption_policy = "PreemptLowerPriority"
        cluster.pods.append(pod)
    return cluster


def _profile(tmp_path: Path, text: str) -> Any:
    """The configuration of a profile given as YAML text."""
    profile = tmp_path / "profile.yaml"
    profile.write_text(text)
    return load_config(str(profile))


def _plan(cluster: Cluster, vectorize: bool, config: Any = None) -> dict[str, Any]:
    engine = Engine(config or default_config(), cluster, EngineOptions(vectorize=vectorize))
    return plan_document(engine.run(), explain=True)


@pytest.mark.parametrize("seed", range(6))
def test_random_clusters_plan_the_same_both_ways(seed: int) -> None:
    assert _plan(_cluster(seed), True) == _plan(_cluster(seed), False)


@pytest.mark.parametrize(
    "case", ["sampling-250-nodes-04", "preempt-rand-09", "rand-0040", "nominated-rand-02"]
)
def test_conformance_cases_plan_the_same_both_ways(case: str) -> None:
    def plan(vectorize: bool) -> dict[str, Any]:
        config = load_config(str(CASES / case / "profile.yaml"))
        return _plan(load_cluster([str(CASES / case / "cluster.yaml")]).cluster, vectorize, config)

    assert plan(True) == plan(False)


def _workload_cluster(name: str) -> Cluster:
    from benchmarks import workloads as w

    small = {
        "basic": lambda: w.basic(150, 100, 300),
        "topology-spreading": lambda: w.topology_spreading(150, 60, 200),
        "pod-anti-affinity": lambda: w.pod_anti_affinity(120, 150),
        "preemption": lambda: w.preemption(40, 160, 50),
        "unschedulable": lambda: w.unschedulable(150, 200, 10),
        "full-cluster": lambda: w.full_cluster(150, 1500, 1000),
        "pod-affinity": lambda: w.pod_affinity(120, 150, 80),
        "spread-preemption": lambda: w.spread_preemption(40, 160, 50),
        "anti-affinity-preemption": lambda: w.anti_affinity_preemption(40, 160, 50),
        "mixed": lambda: w.mixed(1, 40, 200),
        "mixed-tight": lambda: w.mixed(4, 20, 300),
    }[name]
    cluster = Cluster()
    classes = {}
    for i, doc in enumerate(small()):
        if doc["kind"] == "PriorityClass":
            classes[doc["metadata"]["name"]] = doc["value"]
        elif doc["kind"] == "Node":
            node = parse_node(doc)
            node.load_index = i
            cluster.nodes.append(node)
        else:
            pod = parse_pod(doc)
            pod.load_index = i
            pod.priority = classes.get(pod.priority_class_name, 0)
            pod.preemption_policy = "PreemptLowerPriority"
            cluster.pods.append(pod)
    return cluster


@pytest.mark.parametrize(
    "workload",
    [
        "basic",
        "topology-spreading",
        "pod-anti-affinity",
        "preemption",
        "unschedulable",
        "full-cluster",
        "pod-affinity",
        "spread-preemption",
        "anti-affinity-preemption",
        "mixed",
        "mixed-tight",
    ],
)
def test_benchmark_workloads_plan_the_same_both_ways(workload: str) -> None:
    assert _plan(_workload_cluster(workload), True) == _plan(_workload_cluster(workload), False)


FIT_FIRST = """
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    filter:
      disabled:
      - name: "*"
      enabled:
      - name: NodeResourcesFit
      - name: NodeUnschedulable
      - name: TaintToleration
      - name: NodeAffinity
      - name: NodeName
"""


@pytest.mark.parametrize("seed", range(6, 10))
def test_preemption_with_fit_before_other_filters_plans_the_same_both_ways(
    seed: int, tmp_path: Path
) -> None:
    # Nodes Fit rejects first in the filter pass may still be rejected by a later
    # plugin: the screened dry runs must not take Fit's word for them.
    config = _profile(tmp_path, FIT_FIRST)
    assert _plan(_cluster(seed), True, config) == _plan(_cluster(seed), False, config)


def _crowded_cluster(seed: int, keep_constraints: bool = False) -> Cluster:
    """Small nodes full of low-priority pods, then waves of higher-priority ones: every
    Fit check (pod count, cpu, memory, an extended resource) ends up deciding preemption.
    ``keep_constraints``: pods keep their spread and anti-affinity terms and some ask for
    a host port, so dry runs take the general path behind the Fit screening."""
    rng = random.Random(seed)
    nodes = []
    for i in range(rng.randint(30, 60)):
        raw = _node(rng, i)
        raw["status"]["allocatable"].update(
            {"pods": str(rng.choice([2, 3, 4])), "example.com/gpu": str(rng.choice([0, 1, 2]))}
        )
        nodes.append(parse_node(raw))
    for i, n in enumerate(nodes):
        n.load_index = i
    cluster = Cluster(nodes=nodes)
    for i in range(rng.randint(150, 220)):
        running = i < len(nodes) * 2
        raw = _pod(rng, i, rng.choice(nodes).name if running else None)
        raw["spec"]["priority"] = rng.choice([0, 1]) if running else rng.choice([1, 5, 10])
        if rng.random() < 0.3:
            requests = raw["spec"]["containers"][0]["resources"]["requests"]
            requests["example.com/gpu"] = "1"
        if keep_constraints:
            if rng.random() < 0.2:
                port = {"containerPort": 80, "hostPort": rng.choice([80, 81])}
                raw["spec"]["containers"][0]["ports"] = [port]
            if not running and rng.random() < 0.3:
                term = {
                    "labelSelector": {"matchLabels": {"app": rng.choice(["a", "b"])}},
                    "topologyKey": rng.choice(["kubernetes.io/hostname", "tier"]),
                }
                raw["spec"]["affinity"] = {
                    "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}
                }
        else:
            raw["spec"].pop("affinity", None)
            raw["spec"].pop("topologySpreadConstraints", None)
        pod = parse_pod(raw)
        pod.load_index = i
        pod.preemption_policy = "PreemptLowerPriority"
        cluster.pods.append(pod)
    return cluster


@pytest.mark.parametrize("seed", range(4))
def test_crowded_preemption_plans_the_same_both_ways(seed: int) -> None:
    assert _plan(_crowded_cluster(seed), True) == _plan(_crowded_cluster(seed), False)


@pytest.mark.parametrize("seed", range(4, 10))
def test_crowded_preemption_with_spread_and_ports_plans_the_same_both_ways(seed: int) -> None:
    plan = _plan(_crowded_cluster(seed, True), True)
    assert plan == _plan(_crowded_cluster(seed, True), False)


KEYS = ("kubernetes.io/hostname", "topology.kubernetes.io/zone", "tier", "rack")


def _affinity_term(rng: random.Random) -> dict[str, Any]:
    term: dict[str, Any] = {
        "labelSelector": rng.choice(
            [
                {"matchLabels": {"app": rng.choice(["a", "b", "c"])}},
                {"matchExpressions": [{"key": "app", "operator": "In", "values": ["a", "b"]}]},
                {"matchExpressions": [{"key": "app", "operator": "NotIn", "values": ["c"]}]},
            ]
        ),
        "topologyKey": rng.choice(KEYS),
    }
    pick = rng.random()
    if pick < 0.2:
        term["namespaceSelector"] = {}
    elif pick < 0.35:
        term["namespaceSelector"] = {"matchLabels": {"kubernetes.io/metadata.name": "other"}}
    elif pick < 0.5:
        term["namespaces"] = ["default", "other"]
    return term


def _affinity(rng: random.Random) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in ("podAffinity", "podAntiAffinity"):
        if rng.random() < 0.5:
            continue
        rules: dict[str, Any] = {}
        if rng.random() < 0.6:
            n = rng.choice([1, 1, 2])
            rules["requiredDuringSchedulingIgnoredDuringExecution"] = [
                _affinity_term(rng) for _ in range(n)
            ]
        if rng.random() < 0.6:
            rules["preferredDuringSchedulingIgnoredDuringExecution"] = [
                {"weight": rng.randint(1, 100), "podAffinityTerm": _affinity_term(rng)}
                for _ in range(rng.choice([1, 2]))
            ]
        if rules:
            out[kind] = rules
    return out


def _affinity_cluster(seed: int) -> Cluster:
    """Pods with (anti-)affinity terms of every shape, running and pending, in two
    namespaces, on nodes missing some topology keys; priorities make preemption remove
    pods again, so the live indexes must follow removals as well as binds."""
    rng = random.Random(seed)
    nodes = []
    for i in range(rng.randint(40, 90)):
        raw = _node(rng, i)
        labels = raw["metadata"]["labels"]
        if rng.random() < 0.7:
            labels["rack"] = f"r{rng.randrange(6)}"
        if rng.random() < 0.1:
            del labels["topology.kubernetes.io/zone"]
        nodes.append(parse_node(raw))
    for i, n in enumerate(nodes):
        n.load_index = i
    cluster = Cluster(nodes=nodes)
    for i in range(rng.randint(120, 220)):
        running = rng.random() < 0.35
        raw = _pod(rng, i, rng.choice(nodes).name if running else None)
        raw["spec"].pop("topologySpreadConstraints", None)
        raw["spec"]["priority"] = rng.choice([0, 0, 10]) if running else rng.choice([0, 10, 100])
        if rng.random() < 0.6:
            raw["spec"]["affinity"] = _affinity(rng)
        if rng.random() < 0.3:
            raw["metadata"]["namespace"] = "other"
        pod = parse_pod(raw)
        pod.load_index = i
        pod.preemption_policy = "PreemptLowerPriority"
        cluster.pods.append(pod)
    return cluster


HARD_WEIGHT = """
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: InterPodAffinity
    args:
      hardPodAffinityWeight: {weight}
      ignorePreferredTermsOfExistingPods: {ignore}
"""


@pytest.mark.parametrize("seed", range(8))
def test_inter_pod_affinity_plans_the_same_both_ways(seed: int, tmp_path: Path) -> None:
    weight, ignore = [(1, "false"), (0, "false"), (7, "true"), (100, "false")][seed % 4]
    config = _profile(tmp_path, HARD_WEIGHT.format(weight=weight, ignore=ignore))
    plan = _plan(_affinity_cluster(seed), True, config)
    assert plan == _plan(_affinity_cluster(seed), False, config)


SPREAD_FIRST = """
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    filter:
      disabled:
      - name: "*"
      enabled:
      - name: PodTopologySpread
      - name: InterPodAffinity
      - name: NodeResourcesFit
      - name: NodePorts
"""


@pytest.mark.parametrize("seed", range(4, 8))
def test_preemption_with_pod_dependent_filters_before_fit_plans_the_same_both_ways(
    seed: int, tmp_path: Path
) -> None:
    # Removing victims may turn PodTopologySpread or InterPodAffinity ahead of Fit from
    # rejecting to accepting a node: Fit's rejection in the filter pass settles nothing.
    config = _profile(tmp_path, SPREAD_FIRST)
    plan = _plan(_crowded_cluster(seed, True), True, config)
    assert plan == _plan(_crowded_cluster(seed, True), False, config)


LIST_DEFAULTS = """
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: PodTopologySpread
    args:
      defaultingType: List
      defaultConstraints:
      - {maxSkew: 2, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway}
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway}
      - {maxSkew: 3, topologyKey: rack, whenUnsatisfiable: ScheduleAnyway}
"""


@pytest.mark.parametrize("seed", range(6))
def test_controller_pods_spread_the_same_both_ways(seed: int, tmp_path: Path) -> None:
    # Deployment, ReplicaSet, StatefulSet and ReplicationController pods take the system
    # default constraints (or, on odd seeds, List defaults that need every key); the
    # DaemonSet's pods are pinned by matchFields; bare pods carry soft constraints.
    from .spread_cluster import write

    path = write(seed, tmp_path)
    config = _profile(tmp_path, LIST_DEFAULTS) if seed % 2 else None
    plans = [_plan(load_cluster([str(path)]).cluster, v, config) for v in (True, False)]
    assert plans[0] == plans[1]
    owners = {p.get("owner") for p in plans[0]["pods"]}
    assert {"deployment/web", "statefulset/db", "daemonset/agent"} <= owners


@pytest.mark.parametrize("workload", ["workload-controllers", "workload-pods", "controllers-fresh"])
def test_controller_benchmark_workloads_plan_the_same_both_ways(
    workload: str, tmp_path: Path
) -> None:
    from benchmarks import workloads as w

    docs = {
        "workload-controllers": w.workload_controllers,
        "workload-pods": w.workload_pods,
        "controllers-fresh": w.controllers_fresh,
    }[workload](80, 150)
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump_all(list(docs)))
    plans = [_plan(load_cluster([str(path)]).cluster, v) for v in (True, False)]
    assert plans[0] == plans[1]


def _summary_plan(cluster: Cluster, vectorize: bool, record: str) -> list[Any]:
    """What a summary record keeps, per decision and attempt (table output's plan)."""
    options = EngineOptions(vectorize=vectorize, record=record)
    plan = Engine(default_config(), cluster, options).run()
    attempts = [
        (a.pod, a.time, a.result, a.node, a.message, a.victims, a.feasible, a.evaluated,
         a.node_total, a.runner_up)
        for a in plan.attempts
    ]
    return [plan_document(plan, explain=False), attempts]


@pytest.mark.parametrize("workload", ["pod-anti-affinity", "unschedulable", "spread-preemption"])
def test_summary_records_count_rejected_nodes_without_their_statuses(
    workload: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Table output keeps no filter statuses: where some node is feasible, the walk only
    # counts the nodes the masks rejected. Everything else (the sampling's next start,
    # evaluated counts, failures, preemption) must stay the reference path's.
    from ksched_cli.engine import masks

    calls = {"n": 0}
    real = masks.rejected_statuses

    def counted(*args: Any) -> Any:
        calls["n"] += 1
        return real(*args)

    monkeypatch.setattr(masks, "rejected_statuses", counted)
    summary = _summary_plan(_workload_cluster(workload), True, "summary")
    in_summary = calls["n"]
    full = _summary_plan(_workload_cluster(workload), True, "full")
    assert summary == full == _summary_plan(_workload_cluster(workload), False, "summary")
    assert in_summary < calls["n"] - in_summary  # statuses were skipped


ADDED_PREFERRED = """
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeAffinity
    args:
      addedAffinity:
        preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 40
          preference:
            matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zb]}]
- schedulerName: other-scheduler
"""


def test_node_affinity_scores_per_profile_plan_the_same_both_ways(tmp_path: Path) -> None:
    """NodeAffinity's per-node scores are kept per profile: one adds a preferred term."""

    def plan(vectorize: bool) -> dict[str, Any]:
        cluster = _workload_cluster("mixed")
        for pod in cluster.pods[::2]:
            pod.scheduler_name = "other-scheduler"
        return _plan(cluster, vectorize, _profile(tmp_path, ADDED_PREFERRED))

    assert plan(True) == plan(False)
