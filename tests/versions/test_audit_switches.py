"""Switches the release audit (docs/versions.md) found: config messages per release.

Rows follow the v1.31.8, v1.33.3 and v1.34.7 validation code: invalidPluginsByVersion
(1.31), ValidateVolumeBindingArgs' gate name (1.33), validateCommonQueueSort and
validateFunctionShape (1.34).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ksched_cli.cli.main import cli

CONFIG = str(Path(__file__).parent / "clusters" / "audit-config.yaml")
INVALID = (
    'profiles[0].plugins.filter.enabled[0]: Invalid value: "EBSLimits": was invalid in '
    'version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version '
    '"kubescheduler.config.k8s.io/v1")'
)
SHAPE = "unexpected field `shape`, remove it or turn on the feature gate {}"
QUEUE_SORT = "}}}}}}: {}must be the same for all profiles"
SORTED = "Invalid value: 10: {}values must be sorted in increasing order"

ROWS = [
    ("1.30", False, "VolumeCapacityPriority", "queueSort ", "utilization "),
    ("1.31", True, "VolumeCapacityPriority", "queueSort ", "utilization "),
    ("1.32", True, "VolumeCapacityPriority", "queueSort ", "utilization "),
    ("1.33", True, "StorageCapacityScoring", "queueSort ", "utilization "),
    ("1.34", True, "StorageCapacityScoring", "", ""),
    ("1.36", True, "StorageCapacityScoring", "", ""),
]


@pytest.mark.parametrize(("version", "invalid", "gate", "queue_sort", "sort"), ROWS)
def test_config_messages(
    version: str, invalid: bool, gate: str, queue_sort: str, sort: str
) -> None:
    result = CliRunner().invoke(cli, ["validate", CONFIG, "--kubernetes-version", version])
    assert result.exit_code == 1
    assert (INVALID in result.output) == invalid
    assert SHAPE.format(gate) in result.output
    assert QUEUE_SORT.format(queue_sort) in result.output
    assert SORTED.format(sort) in result.output
