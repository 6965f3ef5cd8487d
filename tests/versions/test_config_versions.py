"""The config layer per release: registry, default profile, DynamicResourcesArgs, and
Coscheduling's args (scheduler-plugins v0.32.7's ValidateCoschedulingArgs from 1.32).

Rows follow apis/config/v1 default_plugins_test (TestApplyFeatureGates) of v1.32.5 and
v1.35.7, and validation_pluginargs_test TestValidateDynamicResourcesArgs (v1.35.7).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksched_cli.cli.main import cli
from ksched_cli.config.defaults import default_multipoint
from ksched_cli.config.load import check_config, default_config
from ksched_cli.versions.releases import release

V130_DEFAULTS = [
    "SchedulingGates", "PrioritySort", "NodeUnschedulable", "NodeName", "TaintToleration",
    "NodeAffinity", "NodePorts", "NodeResourcesFit", "VolumeRestrictions", "EBSLimits",
    "GCEPDLimits", "NodeVolumeLimits", "AzureDiskLimits", "VolumeBinding", "VolumeZone",
    "PodTopologySpread", "InterPodAffinity", "DefaultPreemption",
    "NodeResourcesBalancedAllocation", "ImageLocality", "DefaultBinder",
]
IN_TREE = ("EBSLimits", "GCEPDLimits", "AzureDiskLimits")
V132_DEFAULTS = [n for n in V130_DEFAULTS if n not in IN_TREE]
V136_DEFAULTS = [
    *V132_DEFAULTS[: V132_DEFAULTS.index("DefaultPreemption")],
    "DynamicResources",
    *V132_DEFAULTS[V132_DEFAULTS.index("DefaultPreemption"):],
    "NodeDeclaredFeatures",
]


@pytest.mark.parametrize(
    ("version", "names"),
    [("1.30", V130_DEFAULTS), ("1.32", V132_DEFAULTS), ("1.36", V136_DEFAULTS)],
)
def test_default_multipoint(version: str, names: list[str]) -> None:
    got = default_multipoint(release(version).features)
    assert [n for n, _ in got] == names
    if version == "1.36":
        assert dict(got)["DynamicResources"] == 2


def test_default_config_filter_plugins_per_release() -> None:
    filters = {
        v: [r.name for r in default_config(release(v).features).profiles[0].enabled("filter")]
        for v in ("1.30", "1.32", "1.36")
    }
    assert "EBSLimits" in filters["1.30"] and "EBSLimits" not in filters["1.32"]
    assert filters["1.36"][-2:] == ["DynamicResources", "NodeDeclaredFeatures"]


def _write(tmp_path: Path, body: str) -> str:
    path = tmp_path / "config.yaml"
    path.write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
        + body,
        encoding="utf-8",
    )
    return str(path)


EBS = """profiles:
  - schedulerName: default-scheduler
    plugins:
      filter:
        enabled:
          - name: EBSLimits
"""


GANG = """profiles:
  - schedulerName: default-scheduler
    plugins:
      multiPoint:
        enabled:
          - name: GangScheduling
"""


@pytest.mark.parametrize(("version", "ok"), [("1.30", False), ("1.32", False), ("1.36", True)])
def test_gang_scheduling_registered_from_135(tmp_path: Path, version: str, ok: bool) -> None:
    """registry.go (v1.35.7) registers GangScheduling; multiPoint expands it to PreEnqueue,
    Reserve and Permit (the methods of gangscheduling.go)."""
    checked = check_config(_write(tmp_path, GANG), release(version).features)
    assert checked.ok is ok
    if ok:
        assert checked.config is not None
        profile = checked.config.profiles[0]
        for point in ("preEnqueue", "reserve", "permit"):
            assert "GangScheduling" in [r.name for r in profile.enabled(point)], point
        assert "GangScheduling" not in [r.name for r in profile.enabled("filter")]
        # No pod names a workload (the gates are off): plans are those of the default profile.
        runner = CliRunner()
        args = ["plan", "examples/basic", "-o", "json", "--kubernetes-version", version]
        with_gang = json.loads(runner.invoke(cli, [*args, "-c", _write(tmp_path, GANG)]).stdout)
        without = json.loads(runner.invoke(cli, args).stdout)
        assert with_gang["pods"] == without["pods"]
    else:
        assert [e.message for e in checked.errors] == [
            'PreFilterPlugin "GangScheduling" does not exist'
        ]


INVALID_IN_V1 = (
    'Invalid value: "EBSLimits": was invalid in version "kubescheduler.config.k8s.io/v1" '
    '(KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")'
)


@pytest.mark.parametrize(
    ("version", "ok"), [("1.30", True), ("1.31", False), ("1.32", False), ("1.36", False)]
)
def test_in_tree_volume_limits_leave_the_registry(tmp_path: Path, version: str, ok: bool) -> None:
    """v1.31's validation refuses them in an extension point's list (the registry still has
    them); from v1.32 they are gone from the registry too, but validation speaks first."""
    checked = check_config(_write(tmp_path, EBS), release(version).features)
    assert checked.ok is ok
    if not ok:
        assert [e.message for e in checked.errors] == [INVALID_IN_V1]


def _dra(args: str) -> str:
    return (
        "profiles:\n  - schedulerName: default-scheduler\n    pluginConfig:\n"
        "      - name: DynamicResources\n        args:\n" + args
    )


@pytest.mark.parametrize(
    ("name", "args", "errors"),
    [
        ("valid timeout", "          filterTimeout: 5s\n", []),
        ("zero disables the timeout", "          filterTimeout: 0s\n", []),
        ("negative timeout", "          filterTimeout: -1s\n",
         ['Invalid value: "-1s": must be zero or positive']),
        ("binding timeout with the gates off", "          bindingTimeout: 1m\n",
         ["Forbidden: DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate "
          "is disabled"]),
    ],
)
def test_dynamic_resources_args(tmp_path: Path, name: str, args: str, errors: list[str]) -> None:
    checked = check_config(_write(tmp_path, _dra(args)), release("1.36").features)
    assert [e.message for e in checked.errors] == errors, name


def test_dynamic_resources_args_defaulted_from_134() -> None:
    config = default_config(release("1.36").features)
    assert config.profiles[0].args("DynamicResources").filter_timeout_seconds == 10.0
    assert default_config(release("1.30").features).profiles[0].args("DynamicResources") is None


COSCHEDULING = """profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled: [{name: Coscheduling}]
      disabled: [{name: PrioritySort}]
  pluginConfig:
  - name: Coscheduling
    args: {permitWaitingTimeSeconds: %s, podGroupBackoffSeconds: %s}
"""


@pytest.mark.parametrize(
    ("version", "waiting", "backoff", "errors"),
    [
        # scheduler-plugins v0.30: only the backoff is checked, by the plugin's constructor.
        ("1.30", -10, -20, ["Invalid value: -20: PodGroupBackoffSeconds cannot be negative"]),
        ("1.30", -10, 0, []),
        # v0.32.7's ValidateCoschedulingArgs rows (TestValidateCoschedulingArgs).
        ("1.32", 30, 60, []),
        ("1.32", -10, 60, ["Invalid value: -10: must be greater than 0"]),
        ("1.32", 30, -20, ["Invalid value: -20: must be greater than 0"]),
        ("1.36", -30, -20,
         ["Invalid value: -30: must be greater than 0",
          "Invalid value: -20: must be greater than 0"]),
        ("1.32", 0, 0, []),
    ],
)
def test_coscheduling_args_per_release(
    tmp_path: Path, version: str, waiting: int, backoff: int, errors: list[str]
) -> None:
    path = _write(tmp_path, COSCHEDULING % (waiting, backoff))
    checked = check_config(path, release(version).features)
    assert [e.message for e in checked.errors] == errors
