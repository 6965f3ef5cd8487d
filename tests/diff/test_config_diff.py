"""The effective-config diff, on real profiles and on hand-made effective objects."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from ksched_cli.config.load import check_config
from ksched_cli.diff.config_diff import diff_configs, leaf_changes
from ksched_cli.diff.model import ABSENT, ArgsChange, PluginChange, SettingChange

HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


def effective(name: str) -> dict[str, Any]:
    checked = check_config(name)
    assert checked.effective is not None, [f.render() for f in checked.findings]
    return checked.effective


def effective_of(tmp_path: Path, body: str) -> dict[str, Any]:
    path = tmp_path / "config.yaml"
    path.write_text(HEADER + body, encoding="utf-8")
    return effective(str(path))


def test_leaf_changes_recurse_into_mappings_and_equal_length_lists() -> None:
    base = {"a": {"b": 1, "c": [1, 2]}, "d": [1], "e": "x"}
    head = {"a": {"b": 2, "c": [1, 3]}, "d": [1, 2], "f": True}
    assert list(leaf_changes(base, head)) == [
        ("a.b", 1, 2),
        ("a.c[1]", 2, 3),
        ("d", [1], [1, 2]),  # length changed: reported whole
        ("e", "x", ABSENT),
        ("f", ABSENT, True),
    ]


def test_leaf_changes_of_a_mapping_set_on_one_side_lists_its_leaves() -> None:
    assert list(leaf_changes({}, {"m": {"x": 1, "y": {"z": 2}}})) == [
        ("m.x", ABSENT, 1),
        ("m.y.z", ABSENT, 2),
    ]


def test_leaf_changes_tell_types_apart() -> None:
    assert list(leaf_changes({"v": 1}, {"v": True})) == [("v", 1, True)]
    assert list(leaf_changes({"v": 1}, {"v": 1})) == []


def test_identical_configurations_have_no_diff() -> None:
    assert diff_configs(effective("default"), effective("default")).empty


def test_spelling_out_a_default_is_no_change(tmp_path: Path) -> None:
    explicit = effective_of(tmp_path, "percentageOfNodesToScore: 0\nparallelism: 16\n")
    assert diff_configs(effective("default"), explicit).empty


def test_default_to_bin_packing() -> None:
    diff = diff_configs(effective("default"), effective("bin-packing"))
    assert diff.settings == []
    [profile] = diff.profiles
    assert (profile.scheduler_name, profile.status) == ("default-scheduler", "modified")
    assert profile.plugins == [
        PluginChange("preScore", "NodeResourcesBalancedAllocation", "disabled"),
        PluginChange("score", "NodeResourcesBalancedAllocation", "disabled", base=1),
        PluginChange("score", "NodeResourcesFit", "weight", 1, 5),
    ]
    # BalancedAllocation's args went with it: no args rows for a plugin one side lacks.
    assert profile.args == [
        ArgsChange("NodeResourcesFit", "scoringStrategy.type", "LeastAllocated", "MostAllocated"),
    ]


def test_enabled_plugin_carries_its_head_weight() -> None:
    diff = diff_configs(effective("bin-packing"), effective("default"))
    assert PluginChange("score", "NodeResourcesBalancedAllocation", "enabled", head=1) in (
        diff.profiles[0].plugins
    )


def test_global_and_profile_settings(tmp_path: Path) -> None:
    head = effective_of(
        tmp_path,
        "percentageOfNodesToScore: 50\npodMaxBackoffSeconds: 20\n"
        "leaderElection:\n  leaseDuration: 30s\n"
        "profiles:\n- schedulerName: default-scheduler\n  percentageOfNodesToScore: 30\n",
    )
    diff = diff_configs(effective("default"), head)
    assert diff.settings == [
        SettingChange("leaderElection.leaseDuration", "15s", "30s"),
        SettingChange("percentageOfNodesToScore", 0, 50),
        SettingChange("podMaxBackoffSeconds", 10, 20),
    ]
    assert diff.profiles[0].settings == [SettingChange("percentageOfNodesToScore", ABSENT, 30)]


def test_profiles_match_by_scheduler_name(tmp_path: Path) -> None:
    head = effective_of(
        tmp_path,
        "profiles:\n- schedulerName: default-scheduler\n- schedulerName: batch\n"
        "  plugins:\n    score:\n      disabled:\n      - name: '*'\n",
    )
    diff = diff_configs(effective("default"), head)
    assert [(p.scheduler_name, p.status) for p in diff.profiles] == [("batch", "added")]
    back = diff_configs(head, effective("default"))
    assert [(p.scheduler_name, p.status) for p in back.profiles] == [("batch", "removed")]


def test_reordered_plugins_are_reported() -> None:
    base = effective("default")
    head = copy.deepcopy(base)
    filters = head["profiles"][0]["plugins"]["filter"]["enabled"]
    filters[0], filters[1] = filters[1], filters[0]
    [profile] = diff_configs(base, head).profiles
    [change] = profile.plugins
    assert (change.point, change.plugin, change.change) == ("filter", "", "reordered")
    assert change.base[:2] == ["NodeUnschedulable", "NodeName"]
    assert change.head[:2] == ["NodeName", "NodeUnschedulable"]


def test_args_changes_are_field_level(tmp_path: Path) -> None:
    head = effective_of(
        tmp_path,
        "profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args:\n"
        "      minCandidateNodesPercentage: 20\n"
        "  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
        "        type: LeastAllocated\n        resources:\n"
        "        - {name: cpu, weight: 2}\n        - {name: memory, weight: 1}\n",
    )
    [profile] = diff_configs(effective("default"), head).profiles
    assert profile.plugins == []
    assert profile.args == [
        ArgsChange("DefaultPreemption", "minCandidateNodesPercentage", 10, 20),
        ArgsChange("NodeResourcesFit", "scoringStrategy.resources[0].weight", 1, 2),
    ]
