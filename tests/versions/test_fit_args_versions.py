"""NodeResourcesFitArgs' requestedToCapacityRatio checks per release (``ksched validate``).

v1.30-1.35 check the shape whenever ``requestedToCapacityRatio`` is set and report it at
``scoringStrategy.shape``; v1.36.2's ValidateNodeResourcesFitArgs requires it for type
RequestedToCapacityRatio, forbids it for the others and reports the shape at
``scoringStrategy.requestedToCapacityRatio.shape``. Rows follow v1.36.2's
validation_pluginargs_test.go (TestValidateFitArgs, TestValidateRequestedToCapacityRatio-
ScoringStrategy); a weight of 0 is left out, v1 defaulting makes it 1.
"""

# ruff: noqa: E501  (expected lines are kube-scheduler's messages, verbatim)

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ksched_cli.cli.main import cli

HEAD = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
"""
ARGS = "profiles[0].pluginConfig[0].args.scoringStrategy"
V130_MISSING = (
    "type RequestedToCapacityRatio needs requestedToCapacityRatio.shape (v1.30 has no "
    "default: kube-scheduler crashes at start-up without it)"
)


def _rtcr(shape: str, resources: str = "") -> str:
    return (
        "        type: RequestedToCapacityRatio\n"
        + resources
        + f"        requestedToCapacityRatio:\n          shape: {shape}\n"
    )


# (id, strategy body, {release: expected lines after "FILE:"}); [] means valid.
ROWS = [
    (
        "ratio-missing",
        "        type: RequestedToCapacityRatio\n",
        {
            "1.35": [f"7:7: error: {ARGS}.requestedToCapacityRatio: Required value: {V130_MISSING}"],
            "1.36": [f"7:7: error: {ARGS}.requestedToCapacityRatio: Required value: must be specified when type is RequestedToCapacityRatio"],
        },
    ),
    (
        "ratio-missing-and-weight",
        "        type: RequestedToCapacityRatio\n        resources: [{name: cpu, weight: 101}]\n",
        {
            "1.35": [
                f"7:7: error: {ARGS}.requestedToCapacityRatio: Required value: {V130_MISSING}",
                f"9:33: error: {ARGS}.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]",
            ],
            "1.36": [
                f"7:7: error: {ARGS}.requestedToCapacityRatio: Required value: must be specified when type is RequestedToCapacityRatio",
                f"9:33: error: {ARGS}.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]",
            ],
        },
    ),
    (
        "least-allocated-with-ratio",
        "        type: LeastAllocated\n        requestedToCapacityRatio:\n          shape: [{utilization: 30, score: 3}]\n",
        {
            "1.35": [],
            "1.36": [f"9:9: error: {ARGS}.requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio"],
        },
    ),
    (
        "most-allocated-with-bad-shape",
        "        type: MostAllocated\n        requestedToCapacityRatio:\n          shape: [{utilization: 10, score: 11}]\n",
        {
            "1.35": [f"10:37: error: {ARGS}.shape[0].score: Invalid value: 11: not in valid range [0, 10]"],
            "1.36": [f"9:9: error: {ARGS}.requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio"],
        },
    ),
    (
        "unsupported-type-with-ratio",
        "        type: Invalid\n        requestedToCapacityRatio:\n          shape: [{utilization: 10, score: 11}]\n",
        {
            "1.35": [
                f'8:9: error: {ARGS}.type: Unsupported value: "Invalid": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"',
                f"10:37: error: {ARGS}.shape[0].score: Invalid value: 11: not in valid range [0, 10]",
            ],
            "1.36": [
                f'8:9: error: {ARGS}.type: Unsupported value: "Invalid": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"',
                f"9:9: error: {ARGS}.requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio",
            ],
        },
    ),
    (
        "unsupported-type",
        "        type: Invalid\n",
        {
            "1.35": [f'8:9: error: {ARGS}.type: Unsupported value: "Invalid": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"'],
            "1.36": [f'8:9: error: {ARGS}.type: Unsupported value: "Invalid": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"'],
        },
    ),
    (
        "no-shapes",
        "        type: RequestedToCapacityRatio\n        requestedToCapacityRatio: {}\n",
        {
            "1.35": [f"9:9: error: {ARGS}.shape: Required value: at least one point must be specified"],
            "1.36": [f"9:9: error: {ARGS}.requestedToCapacityRatio.shape: Required value: at least one point must be specified"],
        },
    ),
    (
        "weight-greater-than-max",
        _rtcr("[{utilization: 30, score: 3}]", "        resources: [{name: cpu, weight: 101}]\n"),
        {
            "1.35": [f"9:33: error: {ARGS}.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]"],
            "1.36": [f"9:33: error: {ARGS}.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]"],
        },
    ),
    ("valid-shapes", _rtcr("[{utilization: 30, score: 3}]"), {"1.35": [], "1.36": []}),
    (
        "utilization-less-than-min",
        _rtcr("[{utilization: -1, score: 3}]"),
        {
            "1.35": [f"10:20: error: {ARGS}.shape[0].utilization: Invalid value: -1: not in valid range [0, 100]"],
            "1.36": [f"10:20: error: {ARGS}.requestedToCapacityRatio.shape[0].utilization: Invalid value: -1: not in valid range [0, 100]"],
        },
    ),
    (
        "utilization-greater-than-max",
        _rtcr("[{utilization: 101, score: 3}]"),
        {
            "1.35": [f"10:20: error: {ARGS}.shape[0].utilization: Invalid value: 101: not in valid range [0, 100]"],
            "1.36": [f"10:20: error: {ARGS}.requestedToCapacityRatio.shape[0].utilization: Invalid value: 101: not in valid range [0, 100]"],
        },
    ),
    (
        "duplicated-utilization-values",
        _rtcr("[{utilization: 10, score: 3}, {utilization: 10, score: 3}]"),
        {
            "1.35": [f"10:49: error: {ARGS}.shape[1].utilization: Invalid value: 10: values must be sorted in increasing order"],
            "1.36": [f"10:49: error: {ARGS}.requestedToCapacityRatio.shape[1].utilization: Invalid value: 10: values must be sorted in increasing order"],
        },
    ),
    (
        "increasing-utilization-values",
        _rtcr("[{utilization: 10, score: 3}, {utilization: 20, score: 3}, {utilization: 30, score: 3}]"),
        {"1.35": [], "1.36": []},
    ),
    (
        "non-increasing-utilization-values",
        _rtcr("[{utilization: 10, score: 3}, {utilization: 20, score: 3}, {utilization: 15, score: 3}]"),
        {
            "1.35": [f"10:78: error: {ARGS}.shape[2].utilization: Invalid value: 15: values must be sorted in increasing order"],
            "1.36": [f"10:78: error: {ARGS}.requestedToCapacityRatio.shape[2].utilization: Invalid value: 15: values must be sorted in increasing order"],
        },
    ),
    (
        "score-less-than-min",
        _rtcr("[{utilization: 10, score: -1}]"),
        {
            "1.35": [f"10:37: error: {ARGS}.shape[0].score: Invalid value: -1: not in valid range [0, 10]"],
            "1.36": [f"10:37: error: {ARGS}.requestedToCapacityRatio.shape[0].score: Invalid value: -1: not in valid range [0, 10]"],
        },
    ),
    (
        "score-greater-than-max",
        _rtcr("[{utilization: 10, score: 11}]"),
        {
            "1.35": [f"10:37: error: {ARGS}.shape[0].score: Invalid value: 11: not in valid range [0, 10]"],
            "1.36": [f"10:37: error: {ARGS}.requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range [0, 10]"],
        },
    ),
]
CASES = [
    pytest.param(body, version, lines, id=f"{name}-{version}")
    for name, body, expected in ROWS
    for version, lines in expected.items()
]


@pytest.mark.parametrize(("body", "version", "lines"), CASES)
def test_validate_per_release(tmp_path: Path, body: str, version: str, lines: list[str]) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(HEAD + body, encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(config), "--kubernetes-version", version])
    want = "".join(f"{config}:{line}\n" for line in lines) or f"{config}: valid\n"
    assert (result.exit_code, result.stdout) == (1 if lines else 0, want)


@pytest.mark.parametrize("version", ["1.30", "1.31", "1.32", "1.33", "1.34"])
def test_earlier_releases_keep_the_v130_paths(tmp_path: Path, version: str) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(HEAD + "        type: LeastAllocated\n        requestedToCapacityRatio: {}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(config), "--kubernetes-version", version])
    assert (result.exit_code, result.stdout) == (
        1,
        f"{config}:9:9: error: {ARGS}.shape: Required value: at least one point must be specified\n",
    )
