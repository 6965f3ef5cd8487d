"""The v1 KubeSchedulerConfiguration as read from a file, before and after defaulting.

Plugin args stay plain dicts in their v1 shape (``None`` vs empty matters to
validation, e.g. VolumeBinding's ``shape``); they become typed objects from
``args.py`` only once the configuration is known to be valid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from ..record import record
from ..versions.features import V130, Features
from .problems import child
from .types import EXTENSION_POINTS

API_VERSION = "kubescheduler.config.k8s.io/v1"
KIND = "KubeSchedulerConfiguration"
MULTI_POINT = "multiPoint"
# Order of the v1 Plugins struct; multiPoint comes last there.
PLUGIN_SET_KEYS = (*EXTENSION_POINTS, MULTI_POINT)
# v1.36 adds these after multiPoint.
PLACEMENT_KEYS = ("placementGenerate", "placementScore")


@record
class PluginEntry:
    """One enabled or disabled plugin of a plugin set."""

    name: str
    weight: int | None = None
    origin: str | None = None  # path of this entry in the file; None for built-in defaults


@record
class PluginSet:
    """The enabled and disabled plugins of one extension point."""

    enabled: list[PluginEntry] = field(default_factory=list)
    disabled: list[PluginEntry] = field(default_factory=list)

    def disabled_names(self) -> set[str]:
        return {p.name for p in self.disabled}


@record
class PluginConfig:
    """One pluginConfig entry: the plugin and its args as written."""

    name: str
    args: dict[str, Any] | None
    origin: str | None = None  # None when defaulting added the entry


@record
class ProfileV1:
    """One profile of a v1 KubeSchedulerConfiguration, as decoded."""

    path: str  # "profiles[0]"
    # The release being configured: which plugins exist and which are defaults.
    features: Features = V130
    scheduler_name: str | None = None
    percentage_of_nodes_to_score: int | None = None
    plugins: dict[str, PluginSet] | None = None
    plugin_config: list[PluginConfig] = field(default_factory=list)
    # v1.36's placementGenerate and placementScore sets, as given (config/placement.py).
    placement: dict[str, PluginSet] = field(default_factory=dict)

    def plugin_set(self, key: str) -> PluginSet:
        return (self.plugins or {}).get(key) or PluginSet()

    def args_entry(self, name: str) -> PluginConfig | None:
        return next((c for c in self.plugin_config if c.name == name), None)


@record
class ConfigV1:
    """A v1 KubeSchedulerConfiguration, as decoded."""

    parallelism: int | None = None
    leader_election: dict[str, Any] = field(default_factory=dict)
    client_connection: dict[str, Any] = field(default_factory=dict)
    enable_profiling: bool | None = None
    enable_contention_profiling: bool | None = None
    percentage_of_nodes_to_score: int | None = None
    pod_initial_backoff_seconds: int | None = None
    pod_max_backoff_seconds: int | None = None
    profiles: list[ProfileV1] = field(default_factory=list)
    extenders: list[dict[str, Any]] = field(default_factory=list)
    delay_cache_until_active: bool = False
    features: Features = V130


def _map(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _plugins(raw: list[Any], path: str) -> list[PluginEntry]:
    out = []
    for i, item in enumerate(raw):
        item = _map(item)
        out.append(PluginEntry(item.get("name") or "", item.get("weight"), child(path, i)))
    return out


def decode_plugins(
    raw: Mapping[str, Any], path: str, keys: tuple[str, ...] = PLUGIN_SET_KEYS
) -> dict[str, PluginSet]:
    sets = {}
    for key in keys:
        entry = _map(raw.get(key))
        base = child(path, key)
        sets[key] = PluginSet(
            _plugins(_list(entry.get("enabled")), child(base, "enabled")),
            _plugins(_list(entry.get("disabled")), child(base, "disabled")),
        )
    return sets


def decode_profile(raw: Mapping[str, Any], path: str) -> ProfileV1:
    plugins = raw.get("plugins")
    configs = []
    for i, item in enumerate(_list(raw.get("pluginConfig"))):
        item = _map(item)
        args = item.get("args")
        configs.append(
            PluginConfig(
                item.get("name") or "",
                dict(args) if isinstance(args, Mapping) else None,
                child(path, "pluginConfig", i),
            )
        )
    return ProfileV1(
        path=path,
        scheduler_name=raw.get("schedulerName"),
        percentage_of_nodes_to_score=raw.get("percentageOfNodesToScore"),
        plugins=decode_plugins(plugins, child(path, "plugins"))
        if isinstance(plugins, Mapping)
        else None,
        plugin_config=configs,
        placement=_placement_sets(plugins, child(path, "plugins")),
    )


def _placement_sets(plugins: Any, path: str) -> dict[str, PluginSet]:
    """The placement sets present (the schema pass dropped them before v1.36)."""
    if not isinstance(plugins, Mapping):
        return {}
    present = tuple(k for k in PLACEMENT_KEYS if k in plugins)
    return decode_plugins(plugins, path, present)


def decode(raw: Mapping[str, Any]) -> ConfigV1:
    """A ConfigV1 from well-typed plain data (the schema pass dropped wrongly typed values)."""
    profiles = [
        decode_profile(_map(p), child("profiles", i))
        for i, p in enumerate(_list(raw.get("profiles")))
    ]
    return ConfigV1(
        parallelism=raw.get("parallelism"),
        leader_election=dict(_map(raw.get("leaderElection"))),
        client_connection=dict(_map(raw.get("clientConnection"))),
        enable_profiling=raw.get("enableProfiling"),
        enable_contention_profiling=raw.get("enableContentionProfiling"),
        percentage_of_nodes_to_score=raw.get("percentageOfNodesToScore"),
        pod_initial_backoff_seconds=raw.get("podInitialBackoffSeconds"),
        pod_max_backoff_seconds=raw.get("podMaxBackoffSeconds"),
        profiles=profiles,
        extenders=[dict(_map(e)) for e in _list(raw.get("extenders"))],
        delay_cache_until_active=bool(raw.get("delayCacheUntilActive")),
    )
