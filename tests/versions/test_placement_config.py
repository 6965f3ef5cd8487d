"""v1.36's placementGenerate and placementScore plugin sets in a profile.

The shape is kube-scheduler v0.36.3's ``config/v1/types.go`` (two ``PluginSet``s); the
checks are the framework's ``updatePluginList`` (v1.35.7), which v1.36's
``getExtensionPoints`` applies to both sets; the interface names are v0.36.3's
``framework/interface.go``. Before v1.36 both are unknown fields.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ksched_cli.cli.main import cli

HEADER = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
"""
VALID = """    placementGenerate:
      enabled:
      - name: TopologyPlacementGenerator
    placementScore:
      enabled:
      - name: NodeResourcesFit
      - name: PodGroupPodsCount
        weight: 2
"""


def _validate(tmp_path: Path, body: str, version: str, *extra: str) -> tuple[int, str]:
    path = tmp_path / "config.yaml"
    path.write_text(HEADER + body, encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["validate", str(path), "--kubernetes-version", version, *extra]
    )
    return result.exit_code, result.output.replace(str(path), "config.yaml")


def test_accepted_under_136(tmp_path: Path) -> None:
    assert _validate(tmp_path, VALID, "1.36") == (0, "config.yaml: valid\n")


@pytest.mark.parametrize("version", ["1.30", "1.32"])
def test_unknown_fields_before_136(tmp_path: Path, version: str) -> None:
    code, output = _validate(tmp_path, VALID, version)
    assert code == 1
    assert output.splitlines() == [
        'config.yaml:6:5: error: profiles[0].plugins.placementGenerate: unknown field '
        '"placementGenerate"',
        'config.yaml:9:5: error: profiles[0].plugins.placementScore: unknown field '
        '"placementScore"',
    ]


def test_framework_checks(tmp_path: Path) -> None:
    body = """    placementGenerate:
      enabled:
      - name: NodeResourcesFit
      - name: Nope
    placementScore:
      enabled:
      - name: PodGroupPodsCount
        weight: two
      - name: PodGroupPodsCount
      - name: TopologyPlacementGenerator
      extra: 1
"""
    code, output = _validate(tmp_path, body, "1.36")
    assert code == 1
    assert output.splitlines() == [
        "config.yaml:8:9: error: profiles[0].plugins.placementGenerate.enabled[0]: plugin "
        '"NodeResourcesFit" does not extend PlacementGeneratePlugin plugin',
        "config.yaml:9:9: error: profiles[0].plugins.placementGenerate.enabled[1]: "
        'PlacementGeneratePlugin "Nope" does not exist',
        "config.yaml:13:9: error: profiles[0].plugins.placementScore.enabled[0].weight: "
        'Invalid value: "two": expected an integer',
        "config.yaml:14:9: error: profiles[0].plugins.placementScore.enabled[1]: plugin "
        '"PodGroupPodsCount" already registered as "PlacementScorePlugin"',
        "config.yaml:15:9: error: profiles[0].plugins.placementScore.enabled[2]: plugin "
        '"TopologyPlacementGenerator" does not extend PlacementScorePlugin plugin',
        'config.yaml:16:7: error: profiles[0].plugins.placementScore.extra: unknown field "extra"',
    ]


@pytest.mark.parametrize(
    ("version", "message"),
    [
        ("1.32", 'ScorePlugin "PodGroupPodsCount" does not exist'),
        ("1.36", 'plugin "PodGroupPodsCount" does not extend ScorePlugin plugin'),
    ],
)
def test_placement_only_plugins_at_other_points(
    tmp_path: Path, version: str, message: str
) -> None:
    body = """    score:
      enabled:
      - name: PodGroupPodsCount
"""
    code, output = _validate(tmp_path, body, version)
    assert code == 1
    assert output.splitlines() == [
        f"config.yaml:8:9: error: profiles[0].plugins.score.enabled[0]: {message}"
    ]


def test_placement_only_plugins_in_multipoint_extend_nothing_ksched_runs(tmp_path: Path) -> None:
    body = """    multiPoint:
      enabled:
      - name: TopologyPlacementGenerator
"""
    assert _validate(tmp_path, body, "1.36") == (0, "config.yaml: valid\n")


def test_effective_configuration_keeps_them(tmp_path: Path) -> None:
    code, output = _validate(tmp_path, VALID, "1.36", "--print-effective")
    assert code == 0
    assert (
        "    placementGenerate:\n      enabled:\n      - name: TopologyPlacementGenerator\n"
        "    placementScore:\n      enabled:\n      - name: NodeResourcesFit\n"
        "      - name: PodGroupPodsCount\n        weight: 2\n"
    ) in output
