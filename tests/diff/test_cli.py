"""``ksched diff`` exit codes and error lines through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksched_cli.cli.main import _register, cli

from .helpers import BASE, CLUSTER, EXAMPLE_ARGS, HEAD, NODE_POOL, REPO, run

MANIFESTS_ARGS = [
    "--config", BASE, "--base-manifests", CLUSTER,
    "--head-manifests", CLUSTER, "--head-manifests", NODE_POOL,
]

PENDING_POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: {name}
spec:
  containers:
  - name: c
    image: registry.example.com/c:1
    resources:
      requests: {{cpu: "{cpu}", memory: 1Gi}}
"""


def test_placements_changed_exits_3(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, *EXAMPLE_ARGS)
    assert result.exit_code == 3, result.output
    assert result.stderr == ""


def test_no_placement_change_exits_0(monkeypatch: pytest.MonkeyPatch) -> None:
    # base.yaml spells out a default, so its effective configuration is the default one.
    result = run(monkeypatch, "--base", "default", "--head", BASE, CLUSTER)
    assert result.exit_code == 0, result.output
    assert "Configuration changes: none in the effective configuration" in result.stdout
    assert result.stdout.endswith("Summary: no placement changes (11 pod(s) compared)\n")


def test_config_change_without_placement_change_exits_0(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, "--base", "default", "--head", "spread", CLUSTER)
    assert result.exit_code == 0, result.output
    assert "PodTopologySpread score weight" in result.stdout


def test_builtin_profile_names(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, "--base", "default", "--head", "bin-packing", CLUSTER, "-o", "json")
    assert result.exit_code == 3, result.output
    assert '"config": "bin-packing"' in result.stdout


def test_fail_on_unschedulable_with_a_preemption_exits_3(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(monkeypatch, *EXAMPLE_ARGS, "--fail-on", "unschedulable").exit_code == 3


def test_fail_on_unschedulable_ignores_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    # Adding node-d only moves pods: a change for `any`, none for `unschedulable`.
    assert run(monkeypatch, *MANIFESTS_ARGS, "--fail-on", "any").exit_code == 3
    result = run(monkeypatch, *MANIFESTS_ARGS, "--fail-on", "unschedulable")
    assert result.exit_code == 0, result.output
    assert "5 moved" in result.stdout


def test_added_unschedulable_pod_fails_on_unschedulable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fits, too_big = tmp_path / "fits.yaml", tmp_path / "too-big.yaml"
    fits.write_text(PENDING_POD.format(name="extra", cpu="100m"), encoding="utf-8")
    too_big.write_text(PENDING_POD.format(name="huge", cpu="64"), encoding="utf-8")
    common = ["--config", BASE, "--base-manifests", CLUSTER, "--head-manifests", CLUSTER]
    added = run(monkeypatch, *common, "--head-manifests", str(fits), "--fail-on", "unschedulable")
    assert added.exit_code == 0, added.output
    assert "default/extra" in added.stdout
    result = run(
        monkeypatch, *common, "--head-manifests", str(too_big), "--fail-on", "unschedulable"
    )
    assert result.exit_code == 3, result.output
    assert "(not in manifests)" in result.stdout


def test_removed_pods_are_reported(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    only_nodes = tmp_path / "nodes.yaml"
    only_nodes.write_text((REPO / NODE_POOL).read_text(encoding="utf-8"), encoding="utf-8")
    result = run(
        monkeypatch, "--base-manifests", CLUSTER, "--head-manifests", str(only_nodes), "-o", "json"
    )
    assert result.exit_code == 3, result.output
    assert '"removed": 11' in result.stdout


def test_bad_profile_exits_1_with_one_located_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
        "parallelism: 0\n",
        encoding="utf-8",
    )
    result = run(monkeypatch, "--base", "default", "--head", str(bad), CLUSTER)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"{bad}:3:1: error: parallelism: Invalid value: 0: "
        "should be an integer value greater than zero\n"
    )


def test_unknown_profile_name_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, "--base", "no-such-profile", "--head", HEAD, CLUSTER)
    assert result.exit_code == 1
    assert result.stderr.startswith("no-such-profile: error: no such file or built-in profile")
    assert "Traceback" not in result.output


def test_missing_manifest_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, *EXAMPLE_ARGS, "missing.yaml")
    assert result.exit_code == 1
    assert result.stderr == "missing.yaml: error: no such file or directory\n"
    assert result.stdout == ""


def test_malformed_manifest_names_file_line_and_column(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bad = tmp_path / "pod.yaml"
    bad.write_text(PENDING_POD.format(name="p", cpu="lots"), encoding="utf-8")
    result = run(monkeypatch, "--base", BASE, "--head", HEAD, str(bad))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{bad}:10:")
    assert ": error: Pod default/p (document 1): spec.containers[0]" in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "args",
    [
        [],  # nothing to plan
        ["--base", BASE, "--head", HEAD],  # no manifests
        ["--config", BASE, "--base", BASE, CLUSTER],  # --config with --base
        ["--base-manifests", CLUSTER],  # head side has no manifests
        ["--base-manifests", CLUSTER, "--head-manifests", CLUSTER, CLUSTER],  # PATH unused
        [*EXAMPLE_ARGS, "-o", "xml"],
        [*EXAMPLE_ARGS, "--fail-on", "never"],
    ],
)
def test_usage_errors_exit_1(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    result = run(monkeypatch, *args)
    assert result.exit_code == 1, result.output
    assert "Error:" in result.stderr


def test_registered_in_the_ksched_group() -> None:
    _register()
    result = CliRunner().invoke(cli, ["diff", "--help"])
    assert result.exit_code == 0
    assert "--fail-on" in result.stdout


@pytest.mark.parametrize(("timeout", "change"), [("1s", "BlockedDrain"), (None, "Evicted")])
def test_drain_waits_on_the_head_side(monkeypatch: pytest.MonkeyPatch, timeout: str | None,
                                      change: str) -> None:
    """The head side's drain retries the refused eviction unless --drain-timeout ends it."""
    extra = ["--drain-timeout", timeout] if timeout else []
    result = run(monkeypatch, "examples/drain/cluster.yaml", "--drain", "node-a", *extra,
                 "-o", "json")
    changes = json.loads(result.stdout)["whatif"]["operations"][0]["changes"]
    assert {c["pod"]: c["change"] for c in changes}["default/web-7d9f6-8qz5m"] == change
