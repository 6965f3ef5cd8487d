"""kube-scheduler v1.30 defaulting: the default plugin set, plugin-set merging, default args.

Feature gates are fixed at their v1.30 defaults: DynamicResourceAllocation and
VolumeCapacityPriority are off, so DynamicResources is not in the default set and
VolumeBinding gets no default ``shape``.
"""

from __future__ import annotations

import copy
from typing import Any

from ..versions.features import V130, Features
from .catalog import IN_TREE_VOLUME_LIMITS, plugins_with_args
from .godur import parse_duration
from .model import (
    API_VERSION,
    MULTI_POINT,
    PLUGIN_SET_KEYS,
    ConfigV1,
    PluginConfig,
    PluginEntry,
    PluginSet,
    ProfileV1,
)

DEFAULT_SCHEDULER_NAME = "default-scheduler"
_LEADER_ELECTION_NAMES = (
    ("resourceLock", "leases"),
    ("resourceNamespace", "kube-system"),
    ("resourceName", "kube-scheduler"),
)
_LEADER_ELECTION_DURATIONS = (
    ("leaseDuration", "15s"),
    ("renewDeadline", "10s"),
    ("retryPeriod", "2s"),
)

# default_plugins.go, in order; a weight only where v1.30 sets one.
DEFAULT_MULTIPOINT: tuple[tuple[str, int | None], ...] = (
    ("SchedulingGates", None),
    ("PrioritySort", None),
    ("NodeUnschedulable", None),
    ("NodeName", None),
    ("TaintToleration", 3),
    ("NodeAffinity", 2),
    ("NodePorts", None),
    ("NodeResourcesFit", 1),
    ("VolumeRestrictions", None),
    ("EBSLimits", None),
    ("GCEPDLimits", None),
    ("NodeVolumeLimits", None),
    ("AzureDiskLimits", None),
    ("VolumeBinding", None),
    ("VolumeZone", None),
    ("PodTopologySpread", 2),
    ("InterPodAffinity", 2),
    ("DefaultPreemption", None),
    ("NodeResourcesBalancedAllocation", 1),
    ("ImageLocality", 1),
    ("DefaultBinder", None),
)


def default_multipoint(features: Features = V130) -> list[tuple[str, int | None]]:
    """getDefaultPlugins and applyFeatureGates of the release being replayed."""
    out = [
        (name, weight)
        for name, weight in DEFAULT_MULTIPOINT
        if features.in_tree_volume_limits_default or name not in IN_TREE_VOLUME_LIMITS
    ]
    if features.node_declared_features:
        out.append(("NodeDeclaredFeatures", None))
    if features.dra_in_default_profile:
        at = next(i for i, (name, _) in enumerate(out) if name == "DefaultPreemption")
        out.insert(at, ("DynamicResources", 2 if features.dra_scoring else None))
    return out


def default_plugins(features: Features = V130) -> dict[str, PluginSet]:
    sets = {key: PluginSet() for key in PLUGIN_SET_KEYS}
    sets[MULTI_POINT] = PluginSet(
        [PluginEntry(name, weight) for name, weight in default_multipoint(features)]
    )
    return sets


def merge_plugin_set(defaults: PluginSet, custom: PluginSet) -> PluginSet:
    """mergePluginSet: re-enabled defaults keep their place, the rest of ``custom`` is appended.

    Disabled entries are kept (custom first) because multiPoint expansion reads them.
    """
    disabled = [PluginEntry(p.name, None, p.origin) for p in [*custom.disabled, *defaults.disabled]]
    disabled_names = {p.name for p in disabled}
    # The last custom entry of a name wins, as with Go's map of custom plugins.
    custom_by_name = {p.name: i for i, p in enumerate(custom.enabled)}
    replaced: set[int] = set()
    enabled: list[PluginEntry] = []
    if "*" not in disabled_names:
        for plugin in defaults.enabled:
            if plugin.name in disabled_names:
                continue
            index = custom_by_name.get(plugin.name)
            if index is not None:
                plugin = custom.enabled[index]
                replaced.add(index)
            enabled.append(plugin)
    enabled.extend(p for i, p in enumerate(custom.enabled) if i not in replaced)
    return PluginSet(enabled, disabled)


def merge_plugins(
    defaults: dict[str, PluginSet], custom: dict[str, PluginSet] | None
) -> dict[str, PluginSet]:
    if custom is None:
        return defaults
    return {
        key: merge_plugin_set(defaults[key], custom.get(key) or PluginSet())
        for key in PLUGIN_SET_KEYS
    }


def enabled_names(plugins: dict[str, PluginSet]) -> list[str]:
    """pluginsNames: every plugin enabled anywhere, sorted."""
    return sorted({p.name for s in plugins.values() for p in s.enabled})


def _resource_defaults() -> list[dict[str, Any]]:
    return [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]


def _weights_default_to_one(resources: list[dict[str, Any]]) -> None:
    for resource in resources:
        if not resource.get("weight"):
            resource["weight"] = 1


def _default_fit(args: dict[str, Any]) -> None:
    if args.get("scoringStrategy") is None:
        args["scoringStrategy"] = {"type": "LeastAllocated", "resources": _resource_defaults()}
    strategy = args["scoringStrategy"]
    if not strategy.get("resources"):
        strategy["resources"] = _resource_defaults()
    _weights_default_to_one(strategy["resources"])


def _default_balanced(args: dict[str, Any]) -> None:
    if not args.get("resources"):
        args["resources"] = _resource_defaults()
    _weights_default_to_one(args["resources"])


def _set_missing(args: dict[str, Any], values: dict[str, Any]) -> None:
    for key, value in values.items():
        if args.get(key) is None:
            args[key] = value


def default_args(kind: str, args: dict[str, Any] | None) -> dict[str, Any]:
    """The args of ``kind`` with v1.30 defaults applied (a defaulted deep copy)."""
    out = copy.deepcopy(args) if args else {}
    if kind == "DynamicResourcesArgs":
        # DRASchedulerFilterTimeout is beta and on from v1.34; the binding-conditions gates
        # that would default bindingTimeout are off (v1.35.7).
        _set_missing(out, {"filterTimeout": "10s"})
    elif kind == "DefaultPreemptionArgs":
        _set_missing(out, {"minCandidateNodesPercentage": 10, "minCandidateNodesAbsolute": 100})
    elif kind == "InterPodAffinityArgs":
        _set_missing(out, {"hardPodAffinityWeight": 1, "ignorePreferredTermsOfExistingPods": False})
    elif kind == "NodeResourcesFitArgs":
        _default_fit(out)
    elif kind == "PodTopologySpreadArgs":
        if not out.get("defaultingType"):
            out["defaultingType"] = "System"
    elif kind == "NodeResourcesBalancedAllocationArgs":
        _default_balanced(out)
    elif kind == "VolumeBindingArgs":
        _set_missing(out, {"bindTimeoutSeconds": 600})
    elif kind == "CoschedulingArgs":
        _set_missing(out, {"permitWaitingTimeSeconds": 60, "podGroupBackoffSeconds": 0})
    out.update(
        {"apiVersion": out.get("apiVersion") or API_VERSION, "kind": out.get("kind") or kind}
    )
    return out


def set_profile_defaults(profile: ProfileV1) -> None:
    profile.plugins = merge_plugins(default_plugins(profile.features), profile.plugins)
    kinds = plugins_with_args(profile.features)
    for config in profile.plugin_config:
        kind = kinds.get(config.name)
        if kind is not None:
            config.args = default_args(kind, config.args)
    configured = {c.name for c in profile.plugin_config}
    for name in enabled_names(profile.plugins):
        kind = kinds.get(name)
        if kind is not None and name not in configured:
            profile.plugin_config.append(PluginConfig(name, default_args(kind, None)))


def _default_leader_election(le: dict[str, Any]) -> None:
    for key, value in _LEADER_ELECTION_NAMES:
        if not le.get(key):
            le[key] = value
    for key, value in _LEADER_ELECTION_DURATIONS:
        if le.get(key) is None or parse_duration(le[key]) == 0:
            le[key] = value
    if le.get("leaderElect") is None:
        le["leaderElect"] = True


def _default_client_connection(cc: dict[str, Any]) -> None:
    _set_missing(cc, {"kubeconfig": "", "acceptContentTypes": ""})
    if not cc.get("contentType"):
        cc["contentType"] = "application/vnd.kubernetes.protobuf"
    if not cc.get("qps"):
        cc["qps"] = 50
    if not cc.get("burst"):
        cc["burst"] = 100


def set_defaults(config: ConfigV1) -> None:
    """SetDefaults_KubeSchedulerConfiguration, in the same order."""
    if config.parallelism is None:
        config.parallelism = 16
    if not config.profiles:
        config.profiles.append(ProfileV1(path="profiles[0]"))
    if len(config.profiles) == 1 and config.profiles[0].scheduler_name is None:
        config.profiles[0].scheduler_name = DEFAULT_SCHEDULER_NAME
    for profile in config.profiles:
        profile.features = config.features
        set_profile_defaults(profile)
    if config.percentage_of_nodes_to_score is None:
        config.percentage_of_nodes_to_score = 0
    _default_leader_election(config.leader_election)
    _default_client_connection(config.client_connection)
    if config.pod_initial_backoff_seconds is None:
        config.pod_initial_backoff_seconds = 1
    if config.pod_max_backoff_seconds is None:
        config.pod_max_backoff_seconds = 10
    if config.enable_profiling is None:
        config.enable_profiling = True
    if config.enable_profiling and config.enable_contention_profiling is None:
        config.enable_contention_profiling = True
