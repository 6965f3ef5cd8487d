"""--kubernetes-version, KSCHED_KUBERNETES_VERSION and ``ksched versions``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ksched_cli.cli.main import cli
from ksched_cli.versions.releases import features_for, release

EXAMPLE = "examples/basic"
REQUEUE = "tests/versions/clusters/requeue"
SIMULATE = ["simulate", f"{REQUEUE}/scenario.yaml", f"{REQUEUE}/cluster.yaml"]


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["plan", EXAMPLE, "--kubernetes-version", "1.29"], {}, '"1.29"'),
        (["plan", EXAMPLE, "--kubernetes-version", "1.37.0"], {}, '"1.37.0"'),
        (["validate", "default"], {"KSCHED_KUBERNETES_VERSION": "2.0"}, '"2.0"'),
        (["diff", EXAMPLE, "--base-version", "1.29", "--head-version", "1.36"], {}, '"1.29"'),
        ([*SIMULATE, "--kubernetes-version", "1.37"], {}, '"1.37"'),
        (SIMULATE, {"KSCHED_KUBERNETES_VERSION": "latest"}, '"latest"'),
        (["--kubernetes-version", "1.28", "plan", EXAMPLE], {}, '"1.28"'),
        (["capacity", "examples/capacity/workloads/worker-pod.yaml",
          "examples/capacity/cluster.yaml", "--kubernetes-version", "1.35.x"], {}, '"1.35.x"'),
    ],
)
def test_unsupported_version_is_one_line(
    args: list[str], env: dict[str, str], message: str
) -> None:
    result = CliRunner().invoke(cli, args, env=env)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: unsupported Kubernetes version {message}: supported versions are "
        "1.30, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36"
    ]


def test_versions_lists_patch_and_verification() -> None:
    result = CliRunner().invoke(cli, ["versions", "-o", "json"])
    assert result.exit_code == 0
    rows = {r["version"]: r for r in json.loads(result.stdout)}
    assert [(v, r["replays"], r["default"]) for v, r in rows.items()] == [
        ("1.30", "v1.30.6", False),
        ("1.31", "v1.31.8", False),
        ("1.32", "v1.32.5", False),
        ("1.33", "v1.33.3", False),
        ("1.34", "v1.34.7", False),
        ("1.35", "v1.35.7", False),
        ("1.36", "v1.36.2", True),
    ]
    # Each release with a corpus of the real scheduler says so; 1.31 is ported only.
    assert "ported only" in rows["1.31"]["verified"]
    for v in ("1.32", "1.33", "1.34", "1.35", "1.36"):
        assert "decided by the real kube-scheduler" in rows[v]["verified"], v
    assert rows["1.30"]["changes"] == []
    assert {c["switch"] for c in rows["1.32"]["changes"]} == set(features_for("1.32").changed())
    assert all(c["release"] <= "1.32" for c in rows["1.32"]["changes"])


def test_env_var_selects_release() -> None:
    runner = CliRunner()
    by_env = runner.invoke(
        cli, ["validate", "--print-effective", "default"], env={"KSCHED_KUBERNETES_VERSION": "1.36"}
    )
    by_flag = runner.invoke(
        cli, ["validate", "--print-effective", "default", "--kubernetes-version", "v1.36"]
    )
    assert by_env.exit_code == by_flag.exit_code == 0
    assert by_env.stdout == by_flag.stdout
    assert "kube-scheduler v1.36 defaults" in by_env.stdout
    assert "NodeDeclaredFeatures" in by_env.stdout and "EBSLimits" not in by_env.stdout


def test_simulate_env_var_selects_release() -> None:
    runner = CliRunner()
    by_env = runner.invoke(cli, SIMULATE, env={"KSCHED_KUBERNETES_VERSION": "1.32"})
    by_flag = runner.invoke(cli, [*SIMULATE, "--kubernetes-version", "1.32"])
    default = runner.invoke(cli, SIMULATE)
    assert by_env.exit_code == by_flag.exit_code == default.exit_code == 2
    assert by_env.stdout == by_flag.stdout != default.stdout
    assert "event NodeAdd: requeued default/big\n" in by_env.stdout


@pytest.mark.parametrize(
    ("args", "env", "shown"),
    [
        # The group's option sets every command's default ...
        (["--kubernetes-version", "1.36", "validate", "--print-effective", "default"], {}, "1.36"),
        # ... over the environment variable ...
        (["--kubernetes-version", "1.32", "validate", "--print-effective", "default"],
         {"KSCHED_KUBERNETES_VERSION": "1.36"}, "1.32"),
        # ... and the command's own option wins over it.
        (["--kubernetes-version", "1.32", "validate", "--print-effective", "default",
          "--kubernetes-version", "1.36"], {}, "1.36"),
    ],
)
def test_group_option_is_every_commands_default(
    args: list[str], env: dict[str, str], shown: str
) -> None:
    result = CliRunner().invoke(cli, args, env=env)
    assert result.exit_code == 0
    assert f"kube-scheduler v{shown} defaults" in result.stdout


def test_group_option_reaches_simulate() -> None:
    runner = CliRunner()
    by_group = runner.invoke(cli, ["--kubernetes-version", "1.32", *SIMULATE])
    by_flag = runner.invoke(cli, [*SIMULATE, "--kubernetes-version", "1.32"])
    assert by_group.exit_code == by_flag.exit_code == 2
    assert by_group.stdout == by_flag.stdout


@pytest.mark.parametrize(
    ("version", "ebs", "dra", "ndf"),
    [("1.30", True, False, False), ("1.32", False, False, False), ("1.36", False, True, True)],
)
def test_switches_accumulate(version: str, ebs: bool, dra: bool, ndf: bool) -> None:
    f = release(version).features
    assert f.in_tree_volume_limits_registered is ebs
    assert f.dra_in_default_profile is dra
    assert f.node_declared_features is ndf


def test_diff_version_options_exclusive() -> None:
    result = CliRunner().invoke(
        cli, ["diff", EXAMPLE, "--kubernetes-version", "1.32", "--head-version", "1.36"]
    )
    assert result.exit_code == 1
    assert "--kubernetes-version names the release of both sides" in result.output


def test_default_release_is_the_newest_verified() -> None:
    from ksched_cli import DEFAULT_KUBE_SCHEDULER
    from ksched_cli.versions.releases import DEFAULT_VERSION, RELEASES, release

    assert DEFAULT_VERSION == "1.36" == max(RELEASES, key=lambda v: int(v.split(".")[1]))
    assert release(DEFAULT_VERSION).patch == DEFAULT_KUBE_SCHEDULER


@pytest.mark.parametrize(
    ("given", "minor"),
    [
        ("1.35", "1.35"), ("v1.31", "1.31"), ("1.35.7", "1.35"), ("v1.33.5", "1.33"),
        ("1.36.2", "1.36"),
    ],
)
def test_patch_forms_name_their_minor(given: str, minor: str) -> None:
    from ksched_cli.versions.releases import release

    assert release(given).version == minor


@pytest.mark.parametrize("given", ["1.29", "1.37", "2.0", "1", "1.35.x", "latest"])
def test_unsupported_versions(given: str) -> None:
    from ksched_cli.versions.releases import UnsupportedVersion, release

    with pytest.raises(UnsupportedVersion, match=r"supported versions are 1\.30, 1\.31, 1\.32"):
        release(given)
