"""Unknown-field checks read the published schemas of the chosen release."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ksched_cli.cli.main import cli
from ksched_cli.engine.cluster import Cluster
from ksched_cli.manifests.checks import check_object
from ksched_cli.manifests.loader import load_into
from ksched_cli.whatif.inputs import load_cluster

NODE = """apiVersion: v1
kind: Node
metadata:
  name: node-a
status:
  allocatable: {cpu: '4', memory: 8Gi, pods: '110'}
"""
# spec.hostnameOverride is in the v1.36 PodSpec schema only; spec.resources from v1.32.
POD = """apiVersion: v1
kind: Pod
metadata:
  name: renamed
spec:
  hostnameOverride: db-primary
  containers:
  - name: c
    image: nginx
"""
UNKNOWN = 'spec.hostnameOverride: unknown field "spec.hostnameOverride"'


@pytest.mark.parametrize(
    ("version", "field", "known"),
    [
        ("1.30", "hostnameOverride", False),
        ("1.32", "hostnameOverride", False),
        ("1.36", "hostnameOverride", True),
        ("1.30", "resources", False),
        ("1.32", "resources", True),
    ],
)
def test_pod_spec_fields_per_release(version: str, field: str, known: bool) -> None:
    value = "x" if field == "hostnameOverride" else {"requests": {"cpu": "1"}}
    raw = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "d"},
           "spec": {field: value, "containers": [{"name": "c", "image": "i"}]}}
    problems = check_object("Pod", "v1", raw, True, version)
    fields = [p.field for p in problems]
    assert fields == ([] if known else [f"spec.{field}"])


@pytest.fixture
def cluster_file(tmp_path: Path) -> Path:
    path = tmp_path / "cluster.yaml"
    path.write_text(f"{NODE}---\n{POD}", encoding="utf-8")
    return path


@pytest.mark.parametrize(("version", "exit_code"), [("1.30", 1), ("1.32", 1), ("1.36", 0)])
def test_plan_checks_against_the_release(cluster_file: Path, version: str, exit_code: int) -> None:
    result = CliRunner().invoke(cli, ["plan", str(cluster_file), "--kubernetes-version", version])
    assert result.exit_code == exit_code, result.output
    if exit_code:
        assert result.stderr == (
            f"{cluster_file}:13:3: error: Pod default/renamed (document 2): {UNKNOWN}\n"
        )


def test_env_var_picks_the_schemas(cluster_file: Path) -> None:
    result = CliRunner().invoke(
        cli, ["plan", str(cluster_file)], env={"KSCHED_KUBERNETES_VERSION": "1.36"}
    )
    assert result.exit_code == 0, result.output


def test_diff_sides_check_against_their_release(cluster_file: Path) -> None:
    args = ["diff", str(cluster_file), "--base-version", "1.36", "--head-version", "1.30"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    assert UNKNOWN in result.stderr


def test_objects_created_later_follow_the_cluster(tmp_path: Path) -> None:
    node_file, pod_file = tmp_path / "node.yaml", tmp_path / "pod.yaml"
    node_file.write_text(NODE, encoding="utf-8")
    pod_file.write_text(POD, encoding="utf-8")
    newer = load_cluster([str(node_file)], kubernetes_version="1.36").cluster
    assert newer.kubernetes_version == "1.36"
    assert [p.name for p in load_into([str(pod_file)], newer).cluster.pods] == ["renamed"]
    with pytest.raises(Exception, match="hostnameOverride"):
        load_into([str(pod_file)], Cluster())


def test_simulate_create_step_uses_the_release(tmp_path: Path) -> None:
    (tmp_path / "node.yaml").write_text(NODE, encoding="utf-8")
    (tmp_path / "pod.yaml").write_text(POD, encoding="utf-8")
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(
        "apiVersion: ksched.io/v1alpha1\nkind: Scenario\nsteps:\n"
        "  - at: 5s\n    create: pod.yaml\n",
        encoding="utf-8",
    )
    args = ["simulate", str(scenario), str(tmp_path / "node.yaml")]
    newer = CliRunner().invoke(cli, [*args, "--kubernetes-version", "1.36"])
    assert newer.exit_code == 0, newer.output
    older = CliRunner().invoke(cli, [*args, "--kubernetes-version", "1.30"])
    assert older.exit_code == 1
    assert older.stderr.endswith('steps[0].create: at 5s: unknown field "spec.hostnameOverride"\n')
