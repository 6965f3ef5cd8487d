"""The public loading API the engine and the CLI call."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ksched_cli.config.builtin import PROFILE_DIR, builtin_profiles
from ksched_cli.config.load import (
    check_config,
    check_document,
    default_config,
    load_config,
    resolve,
)
from ksched_cli.errors import KschedError
from ksched_cli.goloader import FAST_LOADER
from ksched_cli.versions.releases import DEFAULT_VERSION, features_for
from ksched_cli.yamlio import read_text

from .helpers import write


def test_load_config_raises_the_first_error(tmp_path: Path) -> None:
    path = write(tmp_path, "parallelism: 0\npodInitialBackoffSeconds: 0\n")
    with pytest.raises(KschedError) as caught:
        load_config(str(path))
    assert caught.value.render() == (
        f"{path}:3:1: error: parallelism: "
        "Invalid value: 0: should be an integer value greater than zero"
    )
    assert len(check_config(str(path)).errors) == 2


def test_load_config_ignores_warnings(tmp_path: Path) -> None:
    path = write(tmp_path, "profiles:\n- plugins:\n    filter:\n      disabled: [{name: Foo}]\n")
    config = load_config(str(path))
    assert config.source == str(path)
    assert len(check_config(str(path)).findings) == 1


def test_builtin_default_profile_is_the_default_config() -> None:
    assert load_config("default").profiles == default_config().profiles


def test_default_is_not_read_yet_equals_its_written_out_file() -> None:
    # `default` is checked from apiVersion and kind alone (start-up); the file writes out
    # the default release's defaults, so reading it must give the same for that release.
    features = features_for(DEFAULT_VERSION)
    by_name = check_config("default", features)
    doc = yaml.load(read_text(PROFILE_DIR / "default.yaml"), Loader=FAST_LOADER)
    from_file = check_document("default", doc, features, schema_clean=True)
    assert by_name.config is not None
    assert by_name.config == from_file.config
    assert by_name.effective == from_file.effective
    assert by_name.findings == from_file.findings == []


def test_every_builtin_profile_loads_without_findings() -> None:
    for profile in builtin_profiles():
        checked = check_config(profile.name)
        assert checked.ok and not checked.findings, profile.name
        assert profile.description


def test_an_existing_file_wins_over_a_builtin_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert resolve("gang") == PROFILE_DIR / "gang.yaml"
    (tmp_path / "gang").write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
    )
    assert resolve("gang") == Path("gang")


def test_profile_dir_is_shared_with_the_top_level_checkout() -> None:
    repo_profiles = Path(__file__).resolve().parents[2] / "profiles"
    assert repo_profiles.resolve() == PROFILE_DIR.resolve()


def test_invalid_config_has_no_config_and_no_effective(tmp_path: Path) -> None:
    checked = check_config(str(write(tmp_path, "parallelism: 0\n")))
    assert checked.config is None and checked.effective is None and not checked.ok


def test_extenders_pass_through(tmp_path: Path) -> None:
    body = (
        "extenders:\n- urlPrefix: http://127.0.0.1:8888\n  filterVerb: filter\n  httpTimeout: 5s\n"
    )
    config = load_config(str(write(tmp_path, body)))
    assert config.extenders == [
        {"urlPrefix": "http://127.0.0.1:8888", "filterVerb": "filter", "httpTimeout": "5s"}
    ]


def test_typed_node_affinity_args(tmp_path: Path) -> None:
    body = (
        "profiles:\n- pluginConfig:\n  - name: NodeAffinity\n    args:\n      addedAffinity:\n"
        "        requiredDuringSchedulingIgnoredDuringExecution:\n          nodeSelectorTerms:\n"
        "          - matchExpressions: [{key: pool, operator: In, values: [batch]}]\n"
    )
    args = load_config(str(write(tmp_path, body))).profiles[0].plugin_args["NodeAffinity"]
    assert args.added_affinity is not None and args.added_affinity.required is not None
    assert args.added_affinity.required.matches({"pool": "batch"}, "n1")
    assert not args.added_affinity.required.matches({"pool": "web"}, "n1")
