"""LimitRanger, priority rules for snapshot pods, Namespace labels, orphaned running pods
and standard input."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ksched_cli.cli.plan_cmd import plan
from ksched_cli.config.load import default_config
from ksched_cli.engine.engine import Engine
from ksched_cli.whatif.inputs import load_cluster

from .helpers import docs, node, pod, priority_class, write


def limit_range(item: str, namespace: str = "default", name: str = "limits") -> str:
    return f"""apiVersion: v1
kind: LimitRange
metadata: {{name: {name}, namespace: {namespace}}}
spec:
  limits:
  - type: Container
    {item}
"""


def bare(name: str, resources: str = "{}", node_name: str = "") -> str:
    where = f"\n  nodeName: {node_name}" if node_name else ""
    return f"""apiVersion: v1
kind: Pod
metadata: {{name: {name}}}
spec:{where}
  containers: [{{name: c, resources: {resources}}}]
"""


@pytest.mark.parametrize(
    ("item", "resources", "cpu", "memory"),
    [
        ("defaultRequest: {cpu: 250m, memory: 64Mi}", "{}", 250, 64 * 2**20),
        ("default: {cpu: '1'}", "{}", 1000, 0),  # the default limit is the default request
        ("max: {cpu: '2'}", "{}", 2000, 0),  # max -> default limit -> default request
        ("min: {memory: 1Mi}", "{}", 0, 2**20),
        ("defaultRequest: {cpu: 250m}", "{limits: {cpu: 600m}}", 600, 0),  # requests = limits
        ("defaultRequest: {cpu: 250m, memory: 64Mi}", "{requests: {cpu: 50m}}", 50,
         64 * 2**20),
        ("default: {cpu: '1'}\n    defaultRequest: {cpu: 300m}", "{}", 300, 0),
    ],
    ids=["default-request", "default", "max", "min", "limits-only", "partial", "both"],
)
def test_limit_ranger_defaults_pending_pods(
    tmp_path: Path, item: str, resources: str, cpu: int, memory: int
) -> None:
    write(tmp_path, {"a.yaml": docs(node("n1"), limit_range(item), bare("p", resources))})
    [p] = load_cluster([str(tmp_path)]).cluster.pods
    assert p.requests.get("cpu", 0) == cpu and p.requests.get("memory", 0) == memory


def test_limit_ranger_defaults_init_containers_too(tmp_path: Path) -> None:
    with_init = bare("p", "{requests: {cpu: 50m}}") + "  initContainers: [{name: i}]\n"
    write(tmp_path, {"a.yaml": docs(node("n1"), limit_range("defaultRequest: {cpu: 250m}"),
                                    with_init)})
    [p] = load_cluster([str(tmp_path)]).cluster.pods
    assert [c.requests for c in p.init_containers] == [{"cpu": 0.25}]
    assert p.requests["cpu"] == 250  # the init container's request is the larger


def test_limit_ranger_leaves_running_pods_and_other_namespaces(tmp_path: Path) -> None:
    write(tmp_path, {"a.yaml": docs(
        node("n1"), limit_range("defaultRequest: {cpu: 250m}", namespace="other"),
        limit_range("defaultRequest: {cpu: 400m}"), bare("running", node_name="n1"),
        bare("pending"))})
    pods = {p.name: p for p in load_cluster([str(tmp_path)]).cluster.pods}
    assert pods["running"].requests.get("cpu", 0) == 0
    assert pods["pending"].requests["cpu"] == 400


def test_limit_ranges_apply_in_name_order(tmp_path: Path) -> None:
    write(tmp_path, {"a.yaml": docs(
        limit_range("defaultRequest: {cpu: 700m}", name="b"),
        limit_range("defaultRequest: {cpu: 200m}", name="a"), node("n1"), bare("p"))})
    [p] = load_cluster([str(tmp_path)]).cluster.pods
    assert p.requests["cpu"] == 200


@pytest.mark.parametrize(
    ("spec", "priority"),
    [
        ("  priorityClassName: gold\n  priority: 5\n", 5),  # spec.priority wins
        ("  priorityClassName: missing\n  priority: 7\n", 7),  # a class the dump lacks
        ("  priorityClassName: gold\n", 100),
        ("", 10),  # globalDefault
        ("  priority: 0\n", 0),
    ],
)
def test_spec_priority_wins_over_the_class(tmp_path: Path, spec: str, priority: int) -> None:
    write(tmp_path, {"a.yaml": docs(
        priority_class("gold", 100, "preemptionPolicy: Never\n"),
        priority_class("base", 10, "globalDefault: true\n"),
        node("n1"), pod("p", spec=spec))})
    [p] = load_cluster([str(tmp_path)]).cluster.pods
    assert p.priority == priority
    expected_policy = "Never" if "gold" in spec else "PreemptLowerPriority"
    assert p.preemption_policy == expected_policy


def test_namespace_objects_feed_namespace_selectors(tmp_path: Path) -> None:
    namespace = "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop, labels: {team: a}}\n"
    write(tmp_path, {"a.yaml": docs(namespace, node("n1"))})
    cluster = load_cluster([str(tmp_path)]).cluster
    assert cluster.namespace_labels("shop") == {"team": "a", "kubernetes.io/metadata.name": "shop"}
    assert cluster.namespace_labels("other") == {"kubernetes.io/metadata.name": "other"}


def test_running_pods_on_absent_nodes_are_left_out_with_one_warning(tmp_path: Path) -> None:
    write(tmp_path, {"a.yaml": docs(node("n1"), pod("a", node="gone"), pod("b", node="n1"),
                                    pod("c", node="gone"), pod("d", node="old"))})
    result = load_cluster([str(tmp_path)])
    assert [p.name for p in result.cluster.pods] == ["b"]
    assert result.warnings == [
        "leaving out 3 running Pod(s) bound to Node(s) absent from the input: gone, old"]


def test_dash_reads_standard_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, {"cluster/n.yaml": node("n1")})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("ksched_cli.manifests.sources._stdin_text", None)
    result = CliRunner().invoke(plan, ["-", "cluster"], input=pod("web"))
    assert result.exit_code == 0, result.output
    assert "default/web  Scheduled  n1" in result.stdout


def test_errors_in_standard_input_are_positioned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ksched_cli.manifests.sources._stdin_text", None)
    bad = docs(node("n1"), pod("web").replace("cpu: 100m", "cpu: lots"))
    result = CliRunner().invoke(plan, ["-"], input=bad)
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "<stdin>:17:18: error: Pod default/web (document 2): "
        "spec.containers[0].resources.requests.cpu:")


def test_a_namespace_selector_matches_namespace_labels_in_a_plan(tmp_path: Path) -> None:
    namespace = "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop, labels: {team: a}}\n"
    cache = pod("cache", namespace="shop", node="n2").replace(
        "  name: cache", "  name: cache\n  labels: {app: cache}")
    near = pod("web", spec="""  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: kubernetes.io/hostname
        labelSelector: {matchLabels: {app: cache}}
        namespaceSelector: {matchLabels: {team: a}}
""")
    files = {"a.yaml": docs(namespace, node("n1", "kubernetes.io/hostname: n1"),
                            node("n2", "kubernetes.io/hostname: n2"), cache, near)}
    write(tmp_path, files)
    cluster = load_cluster([str(tmp_path)]).cluster
    plan_ = Engine(default_config(), cluster).run()
    assert [(d.pod, d.outcome, d.node) for d in plan_.decisions] == [
        ("default/web", "Scheduled", "n2")]
