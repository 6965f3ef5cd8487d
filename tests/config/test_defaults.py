"""Defaulting, plugin-set merging and multiPoint expansion, checked against v1.30's rules."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent, indent

import pytest

from ksched_cli.config.args import (
    CoschedulingArgs,
    DefaultPreemptionArgs,
    NodeResourcesFitArgs,
    PodTopologySpreadArgs,
    ResourceSpec,
    VolumeBindingArgs,
)
from ksched_cli.config.defaults import merge_plugin_set
from ksched_cli.config.expand import MAX_TOTAL_SCORE, score_weights
from ksched_cli.config.load import default_config, load_config
from ksched_cli.config.model import PluginEntry, PluginSet, ProfileV1, decode_plugins
from ksched_cli.config.types import EXTENSION_POINTS

from .helpers import check, findings, plugin_names
from .helpers import score_weights as weights_of

# v1.30's ExpandedPluginsV1 (apis/config/testing/defaults): the default profile per point.
EXPANDED_DEFAULTS = {
    "preEnqueue": ["SchedulingGates"],
    "queueSort": ["PrioritySort"],
    "preFilter": [
        "NodeAffinity", "NodePorts", "NodeResourcesFit", "VolumeRestrictions", "EBSLimits",
        "GCEPDLimits", "NodeVolumeLimits", "AzureDiskLimits", "VolumeBinding", "VolumeZone",
        "PodTopologySpread", "InterPodAffinity",
    ],
    "filter": [
        "NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
        "NodeResourcesFit", "VolumeRestrictions", "EBSLimits", "GCEPDLimits", "NodeVolumeLimits",
        "AzureDiskLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity",
    ],
    "postFilter": ["DefaultPreemption"],
    "preScore": [
        "TaintToleration", "NodeAffinity", "NodeResourcesFit", "VolumeBinding",
        "PodTopologySpread", "InterPodAffinity", "NodeResourcesBalancedAllocation",
    ],
    "score": [
        "TaintToleration", "NodeAffinity", "NodeResourcesFit", "VolumeBinding",
        "PodTopologySpread", "InterPodAffinity", "NodeResourcesBalancedAllocation", "ImageLocality",
    ],
    "reserve": ["VolumeBinding"],
    "permit": [],
    "preBind": ["VolumeBinding"],
    "bind": ["DefaultBinder"],
    "postBind": [],
}  # fmt: skip
DEFAULT_WEIGHTS = [
    ("TaintToleration", 3), ("NodeAffinity", 2), ("NodeResourcesFit", 1), ("VolumeBinding", 1),
    ("PodTopologySpread", 2), ("InterPodAffinity", 2), ("NodeResourcesBalancedAllocation", 1),
    ("ImageLocality", 1),
]  # fmt: skip


def test_default_config_is_v130_expanded_defaults() -> None:
    config = default_config()
    assert len(config.profiles) == 1
    profile = config.profiles[0]
    assert profile.scheduler_name == "default-scheduler"
    assert {p: [r.name for r in profile.plugins[p]] for p in EXTENSION_POINTS} == EXPANDED_DEFAULTS
    assert [(r.name, r.weight) for r in profile.plugins["score"]] == DEFAULT_WEIGHTS
    assert (config.percentage_of_nodes_to_score, config.pod_initial_backoff_seconds) == (0, 1)
    assert config.pod_max_backoff_seconds == 10
    assert profile.percentage_of_nodes_to_score is None


def test_default_args() -> None:
    args = default_config().profiles[0].plugin_args
    assert args["DefaultPreemption"] == DefaultPreemptionArgs(10, 100)
    assert args["VolumeBinding"] == VolumeBindingArgs(600, [])  # VolumeCapacityPriority off
    fit = args["NodeResourcesFit"]
    assert isinstance(fit, NodeResourcesFitArgs)
    assert fit.scoring_strategy.type == "LeastAllocated"
    assert fit.scoring_strategy.resources == [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]
    assert args["PodTopologySpread"] == PodTopologySpreadArgs([], "System")
    assert args["InterPodAffinity"].hard_pod_affinity_weight == 1
    assert args["NodeResourcesBalancedAllocation"].resources == [
        ResourceSpec("cpu", 1),
        ResourceSpec("memory", 1),
    ]
    assert args["NodeAffinity"].added_affinity is None
    assert "Coscheduling" not in args  # only enabled plugins get default args


def test_only_apiversion_and_kind_means_all_defaults(tmp_path: Path) -> None:
    checked = check(tmp_path, "")
    assert checked.ok, findings(checked)
    assert checked.config is not None
    assert checked.config.profiles == default_config().profiles


def _set(*names: str, weights: dict[str, int] | None = None) -> list[PluginEntry]:
    return [PluginEntry(n, (weights or {}).get(n)) for n in names]


@pytest.mark.parametrize(
    ("custom_enabled", "custom_disabled", "expected"),
    [
        pytest.param(_set(), _set(), ["A", "B", "C"], id="no-custom"),
        pytest.param(
            _set("B", "D", weights={"B": 5}),
            _set(),
            ["A", "B:5", "C", "D"],
            id="reenable-keeps-place",
        ),
        pytest.param(_set("B", "D"), _set("*"), ["B", "D"], id="star-disables-defaults"),
        pytest.param(_set("D"), _set("A"), ["B", "C", "D"], id="disable-one"),
        pytest.param(
            _set("D", "D"), _set(), ["A", "B", "C", "D", "D"], id="duplicates-kept-for-framework"
        ),
        pytest.param(
            _set("B", "B", weights={"B": 7}),
            _set(),
            ["A", "B:7", "C", "B:7"],
            id="last-custom-wins",
        ),
    ],
)
def test_merge_plugin_set(
    custom_enabled: list[PluginEntry], custom_disabled: list[PluginEntry], expected: list[str]
) -> None:
    defaults = PluginSet(_set("A", "B", "C"))
    merged = merge_plugin_set(defaults, PluginSet(custom_enabled, custom_disabled))
    assert [f"{p.name}:{p.weight}" if p.weight else p.name for p in merged.enabled] == expected
    assert [p.name for p in merged.disabled] == [p.name for p in custom_disabled]


def _profile(plugins: str) -> str:
    """A single-profile config whose ``plugins`` section is ``plugins`` (dedented YAML)."""
    return "profiles:\n- schedulerName: default-scheduler\n  plugins:\n" + indent(
        dedent(plugins), "    "
    )


SCORE_WITHOUT_WEIGHTS = [n for n, _ in DEFAULT_WEIGHTS]
GANG = """\
    multiPoint:
      enabled: [{name: Coscheduling}]
    queueSort:
      enabled: [{name: Coscheduling}]
      disabled: [{name: "*"}]
    """

# (plugins YAML, extension point, expected plugin names at that point), as framework.go builds them.
EXPANSION_CASES = [
    pytest.param(
        """\
        score:
          enabled: [{name: ImageLocality, weight: 5}]
          disabled: [{name: "*"}]
        """,
        "score",
        ["ImageLocality"],
        id="score-star-disabled-keeps-only-explicit",
    ),
    pytest.param(
        """\
        score:
          disabled: [{name: "*"}]
        """,
        "preScore",
        EXPANDED_DEFAULTS["preScore"],
        id="score-star-disabled-leaves-prescore-alone",
    ),
    pytest.param(
        """\
        score:
          enabled: [{name: ImageLocality, weight: 4}]
        """,
        "score",
        ["ImageLocality", *SCORE_WITHOUT_WEIGHTS[:-1]],
        id="explicit-point-config-overrides-multipoint-and-comes-first",
    ),
    pytest.param(
        """\
        filter:
          disabled: [{name: NodePorts}]
        """,
        "filter",
        [n for n in EXPANDED_DEFAULTS["filter"] if n != "NodePorts"],
        id="point-disable-only-affects-that-point",
    ),
    pytest.param(
        """\
        filter:
          disabled: [{name: NodePorts}]
        """,
        "preFilter",
        EXPANDED_DEFAULTS["preFilter"],
        id="point-disable-leaves-other-points",
    ),
    pytest.param(
        """\
        multiPoint:
          disabled: [{name: TaintToleration}]
        """,
        "filter",
        [n for n in EXPANDED_DEFAULTS["filter"] if n != "TaintToleration"],
        id="multipoint-disable-removes-everywhere",
    ),
    pytest.param(
        """\
        filter:
          enabled: [{name: CinderLimits}]
        """,
        "filter",
        [*EXPANDED_DEFAULTS["filter"], "CinderLimits"],
        id="explicit-plugin-not-in-multipoint-is-appended",
    ),
    pytest.param(
        GANG,
        "postFilter",
        ["DefaultPreemption", "Coscheduling"],
        id="custom-multipoint-plugin-appended",
    ),
    pytest.param(
        GANG, "queueSort", ["Coscheduling"], id="queue-sort-star-disabled-skips-expansion"
    ),
    pytest.param(
        """\
        multiPoint:
          enabled: [{name: PrioritySort}, {name: NodeName}, {name: DefaultBinder}]
          disabled: [{name: "*"}]
        """,
        "filter",
        ["NodeName"],
        id="multipoint-star-disabled-keeps-only-custom",
    ),
]


@pytest.mark.parametrize(("plugins", "point", "expected"), EXPANSION_CASES)
def test_multipoint_expansion(
    tmp_path: Path, plugins: str, point: str, expected: list[str]
) -> None:
    assert plugin_names(check(tmp_path, _profile(plugins)), point) == expected


WEIGHT_CASES = [
    pytest.param(
        """\
        multiPoint:
          enabled: [{name: NodeAffinity, weight: 7}]
        """,
        [(n, 7 if n == "NodeAffinity" else w) for n, w in DEFAULT_WEIGHTS],
        id="reenabled-default-keeps-place-with-new-weight",
    ),
    pytest.param(
        """\
        multiPoint:
          enabled: [{name: NodeAffinity, weight: 7}]
        score:
          enabled: [{name: NodeAffinity, weight: 9}]
        """,
        [("NodeAffinity", 9), *[(n, w) for n, w in DEFAULT_WEIGHTS if n != "NodeAffinity"]],
        id="explicit-score-weight-beats-multipoint-weight",
    ),
    pytest.param(
        """\
        score:
          enabled: [{name: ImageLocality, weight: 0}]
          disabled: [{name: "*"}]
        """,
        [("ImageLocality", 1)],
        id="zero-weight-means-one",
    ),
    pytest.param(
        """\
        score:
          enabled: [{name: TaintToleration}]
          disabled: [{name: "*"}]
        """,
        [("TaintToleration", 1)],
        id="unweighted-explicit-score-entry-gets-1-not-its-multipoint-3",
    ),
]


@pytest.mark.parametrize(("plugins", "expected"), WEIGHT_CASES)
def test_score_weights(tmp_path: Path, plugins: str, expected: list[tuple[str, int]]) -> None:
    assert weights_of(check(tmp_path, _profile(plugins))) == expected


def test_score_weight_overflow() -> None:
    profile = ProfileV1(path="profiles[0]")
    raw = {"multiPoint": {"enabled": [{"name": "ImageLocality", "weight": MAX_TOTAL_SCORE // 100}]}}
    profile.plugins = decode_plugins(raw, "profiles[0].plugins")
    profile.plugins["score"].enabled = [PluginEntry("TaintToleration", 1)]
    _, problems = score_weights(profile)
    assert [(p.field, p.message) for p in problems] == [
        ("profiles[0].plugins.score", "total score of Score plugins could overflow")
    ]


def test_single_profile_without_name_gets_default_scheduler(tmp_path: Path) -> None:
    checked = check(tmp_path, "profiles:\n- percentageOfNodesToScore: 30\n")
    assert checked.config is not None
    assert checked.config.profiles[0].scheduler_name == "default-scheduler"
    assert checked.config.profiles[0].percentage_of_nodes_to_score == 30


def test_several_profiles_with_distinct_names(tmp_path: Path) -> None:
    body = """\
    profiles:
    - schedulerName: a
    - schedulerName: b
      plugins:
        score:
          disabled: [{name: "*"}]
    """
    checked = check(tmp_path, dedent(body))
    assert checked.config is not None
    assert [p.scheduler_name for p in checked.config.profiles] == ["a", "b"]
    assert plugin_names(checked, "score", 1) == []
    assert checked.config.profile_for("b") is checked.config.profiles[1]


def test_user_args_are_defaulted(tmp_path: Path) -> None:
    body = """\
    profiles:
    - pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: MostAllocated
            resources: [{name: cpu, weight: 0}, {name: example.com/gpu, weight: 3}]
      - name: DefaultPreemption
        args: {minCandidateNodesAbsolute: 5}
    """
    config = check(tmp_path, dedent(body)).config
    assert config is not None
    plugin_args = config.profiles[0].plugin_args
    assert plugin_args["NodeResourcesFit"].scoring_strategy.resources == [
        ResourceSpec("cpu", 1),
        ResourceSpec("example.com/gpu", 3),
    ]
    assert plugin_args["DefaultPreemption"] == DefaultPreemptionArgs(10, 5)


def test_gang_profile_args_and_points() -> None:
    config = load_config("gang")
    profile = config.profiles[0]
    assert profile.plugin_args["Coscheduling"] == CoschedulingArgs(60, 0)
    assert [p.name for p in profile.plugins["queueSort"]] == ["Coscheduling"]
    assert [p.name for p in profile.plugins["permit"]] == ["Coscheduling"]
    assert [p.name for p in profile.plugins["reserve"]] == ["VolumeBinding", "Coscheduling"]


def test_spread_profile_default_constraints_are_typed() -> None:
    args = load_config("spread").profiles[0].plugin_args["PodTopologySpread"]
    assert args.defaulting_type == "List"
    assert [
        (c.topology_key, c.max_skew, c.when_unsatisfiable) for c in args.default_constraints
    ] == [
        ("topology.kubernetes.io/zone", 1, "ScheduleAnyway"),
        ("kubernetes.io/hostname", 1, "ScheduleAnyway"),
    ]
