"""ValidateKubeSchedulerConfiguration (v1.30) on a defaulted ConfigV1, same rules and wording."""

from __future__ import annotations

from functools import partial
from typing import Any

from ..versions.features import Features
from .catalog import IN_TREE_VOLUME_LIMITS, lookup
from .extenders import validate_extenders
from .godur import format_duration, parse_duration
from .model import API_VERSION, MULTI_POINT, ConfigV1, PluginSet, ProfileV1
from .problems import GoRepr, Problem, child, duplicate, go_value, invalid, required, warning
from .validation_args import (
    CONFIG_VALIDATORS,
    validate_dynamic_resources,
    validate_volume_binding,
)


def _client_connection(cc: dict[str, Any]) -> list[Problem]:
    burst = cc.get("burst") or 0
    if burst < 0:
        return [invalid("clientConnection.burst", burst, "must be non-negative")]
    return []


def _duration(le: dict[str, Any], key: str) -> int:
    return parse_duration(le.get(key) or "0")


def _shown(ns: int) -> GoRepr:
    return GoRepr(format_duration(ns))


def _leader_election(le: dict[str, Any]) -> list[Problem]:
    if not le.get("leaderElect"):
        return []
    problems = []
    lease, renew = _duration(le, "leaseDuration"), _duration(le, "renewDeadline")
    for key in ("leaseDuration", "renewDeadline", "retryPeriod"):
        value = _duration(le, key)
        if value <= 0:
            problems.append(
                invalid(f"leaderElection.{key}", _shown(value), "must be greater than zero")
            )
    if lease <= renew:
        detail = "LeaseDuration must be greater than RenewDeadline"
        problems.append(invalid("leaderElection.leaseDuration", _shown(renew), detail))
    for key in ("resourceLock", "resourceNamespace", "resourceName"):
        if not le.get(key):
            problems.append(invalid(f"leaderElection.{key}", "", f"{key} is required"))
    if le.get("resourceLock") != "leases":
        detail = 'resourceLock value must be "leases"'
        problems.append(
            invalid("leaderElection.resourceLock", le.get("resourceLock") or "", detail)
        )
    return problems


def _percentage(path: str, value: int | None) -> list[Problem]:
    if value is not None and not 0 <= value <= 100:
        return [invalid(path, value, "not in valid range [0-100]")]
    return []


def _plugin_config(profile: ProfileV1) -> list[Problem]:
    problems = []
    seen: set[str] = set()
    for config in profile.plugin_config:
        if config.origin is None:  # added by defaulting, hence valid
            continue
        if config.name in seen:
            problems.append(duplicate(config.origin, config.name))
        seen.add(config.name)
        if profile.features.invalid_in_tree_volume_limits and config.name in IN_TREE_VOLUME_LIMITS:
            problems.append(invalid(config.origin, config.name, _INVALID_DETAIL))
            continue  # its args are not checked
        validate = CONFIG_VALIDATORS.get(config.name)
        if config.name == "DynamicResources" and profile.features.dra_in_default_profile:
            validate = validate_dynamic_resources  # DynamicResourcesArgs exist from v1.34
        if config.name == "VolumeBinding" and profile.features.storage_capacity_scoring_gate:
            validate = partial(validate_volume_binding, gate="StorageCapacityScoring")
        if validate is not None and config.args is not None:
            problems += validate(child(config.origin, "args"), config.args)
        problems += _ignored_args(config.name, config.args, config.origin, profile.features)
    return problems


# validation.go invalidPluginsByVersion (v1.31+): a v1 configuration may no longer name the
# in-tree volume-limit plugins.
_INVALID_DETAIL = (
    f'was invalid in version "{API_VERSION}" (KubeSchedulerConfiguration is version '
    f'"{API_VERSION}")'
)


def _invalid_plugins(profile: ProfileV1) -> list[Problem]:
    """validatePluginSetForInvalidPlugins: the extension points' enabled lists (not
    multiPoint; pluginConfig names are checked in _plugin_config). Go walks the points in
    map order, ksched in the configuration's."""
    if not profile.features.invalid_in_tree_volume_limits:
        return []
    problems = []
    for key, plugins in (profile.plugins or {}).items():
        if key == MULTI_POINT:
            continue
        for j, entry in enumerate(plugins.enabled):
            if entry.origin and entry.name in IN_TREE_VOLUME_LIMITS:
                path = child(profile.path, "plugins", key, f"enabled[{j}]")
                problems.append(invalid(path, entry.name, _INVALID_DETAIL, entry.origin))
    return problems


def _ignored_args(
    name: str, args: dict[str, Any] | None, origin: str, features: Features
) -> list[Problem]:
    """Args kube-scheduler accepts and drops: a likely typo, so say so without failing."""
    info = lookup(name, features)
    if info is None:
        message = (
            f'plugin "{name}" does not exist; '
            f"kube-scheduler v{features.version} ignores args of unknown plugins"
        )

        return [warning(child(origin, "name"), message)]
    if info.args_kind is None and args:
        return [warning(child(origin, "args"), f'plugin "{name}" takes no args; they are ignored')]
    return []


def _disabled_warnings(profile: ProfileV1) -> list[Problem]:
    problems = []
    for plugins in (profile.plugins or {}).values():
        for entry in plugins.disabled:
            if entry.origin and entry.name != "*" and lookup(entry.name, profile.features) is None:
                message = f'plugin "{entry.name}" does not exist; disabling it has no effect'
                problems.append(warning(entry.origin, message))
    return problems


def validate_profile(profile: ProfileV1) -> list[Problem]:
    problems = []
    if not profile.scheduler_name:
        problems.append(required(child(profile.path, "schedulerName")))
    problems += _percentage(
        child(profile.path, "percentageOfNodesToScore"), profile.percentage_of_nodes_to_score
    )
    problems += _invalid_plugins(profile)
    return problems + _plugin_config(profile) + _disabled_warnings(profile)


def _plugin_set_repr(plugins: PluginSet) -> GoRepr:
    def items(entries: list[Any], weights: bool) -> str:
        if not entries:
            return "[]config.Plugin(nil)"
        body = ", ".join(
            f'config.Plugin{{Name:"{p.name}", Weight:{(p.weight or 0) if weights else 0}}}'
            for p in entries
        )
        return f"[]config.Plugin{{{body}}}"

    enabled, disabled = items(plugins.enabled, True), items(plugins.disabled, False)
    return GoRepr(f"config.PluginSet{{Enabled:{enabled}, Disabled:{disabled}}}")


def _same_set(a: PluginSet, b: PluginSet) -> bool:
    def key(s: PluginSet) -> tuple[Any, ...]:
        return ([(p.name, p.weight or 0) for p in s.enabled], [p.name for p in s.disabled])

    return key(a) == key(b)


def _args_repr(kind: str, args: dict[str, Any]) -> GoRepr:
    fields = ", ".join(
        f"{key[:1].upper()}{key[1:]}:{go_value(value)}"
        for key, value in args.items()
        if key not in ("apiVersion", "kind")
    )
    return GoRepr(f"config.{kind}{{{fields}}}")


def _args_of(profile: ProfileV1, name: str) -> dict[str, Any] | None:
    entry = profile.args_entry(name)
    return entry.args if entry else None


def _same_queue_sort(features: Features) -> str:
    detail = "must be the same for all profiles"
    return detail if features.validation_messages_v134 else "queueSort " + detail


def validate_common_queue_sort(profiles: list[ProfileV1]) -> tuple[list[Problem], set[int]]:
    """validateCommonQueueSort; also returns the profiles it complained about."""
    problems: list[Problem] = []
    flagged: set[int] = set()
    first = profiles[0]
    canon = first.plugin_set("queueSort")
    name = canon.enabled[0].name if canon.enabled else ""
    if len(canon.enabled) > 1:
        path = child(first.path, "plugins", "queueSort", "Enabled")
        problems.append(
            invalid(path, len(canon.enabled), "only one queue sort plugin can be enabled")
        )
        flagged.add(0)
    canon_args = _args_of(first, name) if name else None
    for i, profile in enumerate(profiles[1:], start=1):
        current = profile.plugin_set("queueSort")
        if not _same_set(canon, current):
            path = child(profile.path, "plugins", "queueSort")
            detail = _same_queue_sort(first.features)
            problems.append(invalid(path, _plugin_set_repr(current), detail))
            flagged.add(i)
        for config in profile.plugin_config:
            if name and config.name == name and config.args != canon_args:
                # v1.30 reports this at pluginConfig.args, without the index.
                path = child(profile.path, "pluginConfig", "args")
                at = child(config.origin, "args") if config.origin else path
                shown = _args_repr(f"{name}Args", config.args or {})
                problems.append(
                    invalid(path, shown, _same_queue_sort(first.features), at)
                )
                flagged.add(i)
    return problems, flagged


def _profiles(config: ConfigV1) -> tuple[list[Problem], set[int]]:
    if not config.profiles:
        return [required("profiles")], set()
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for i, profile in enumerate(config.profiles):
        problems += validate_profile(profile)
        name = profile.scheduler_name or ""
        if name in seen:
            problems.append(duplicate(child(profile.path, "schedulerName"), name))
        seen[name] = i
    queue_sort, flagged = validate_common_queue_sort(config.profiles)
    return problems + queue_sort, flagged


def validate(config: ConfigV1) -> tuple[list[Problem], set[int]]:
    """Every problem in ``config``, and the profiles whose queue sort was flagged."""
    problems = _client_connection(config.client_connection) + _leader_election(
        config.leader_election
    )
    parallelism = config.parallelism or 0
    if parallelism <= 0:
        problems.append(
            invalid("parallelism", parallelism, "should be an integer value greater than zero")
        )
    profile_problems, flagged = _profiles(config)
    problems += profile_problems
    problems += _percentage("percentageOfNodesToScore", config.percentage_of_nodes_to_score)
    initial = config.pod_initial_backoff_seconds or 0
    maximum = config.pod_max_backoff_seconds or 0
    if initial <= 0:
        problems.append(invalid("podInitialBackoffSeconds", initial, "must be greater than 0"))
    if maximum < initial:
        detail = "must be greater than or equal to PodInitialBackoffSeconds"
        problems.append(invalid("podMaxBackoffSeconds", maximum, detail))
    return problems + validate_extenders(config.extenders), flagged
