"""The effective-config diff: two defaulted v1 objects (``validate --print-effective``).

Comparing the effective objects rather than the files means a change is reported
only when it changes what runs: writing a default explicitly is no change, and
multiPoint is already expanded per extension point.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..config.types import EXTENSION_POINTS
from .model import (
    ABSENT,
    ArgsChange,
    ConfigDiff,
    PluginChange,
    ProfileDiff,
    SettingChange,
)

# Fields diffed separately (profiles) or constant (apiVersion, kind).
_GLOBAL_SKIP = frozenset({"apiVersion", "kind", "profiles"})
_PROFILE_SKIP = frozenset({"schedulerName", "plugins", "pluginConfig"})
_ARGS_SKIP = frozenset({"apiVersion", "kind"})


def leaf_changes(base: Any, head: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """(dotted path, base, head) for every differing leaf; ABSENT where a side lacks it.

    Mappings recurse by key (sorted), equal-length lists by index; a list whose
    length changed is reported whole, as positions no longer correspond.
    """
    if isinstance(base, Mapping) and isinstance(head, Mapping):
        for key in sorted(set(base) | set(head)):
            sub = f"{path}.{key}" if path else str(key)
            yield from leaf_changes(base.get(key, ABSENT), head.get(key, ABSENT), sub)
        return
    if isinstance(base, list) and isinstance(head, list) and len(base) == len(head):
        for i, (b, h) in enumerate(zip(base, head, strict=True)):
            yield from leaf_changes(b, h, f"{path}[{i}]")
        return
    if base is ABSENT and isinstance(head, Mapping):
        yield from leaf_changes({}, head, path)
        return
    if head is ABSENT and isinstance(base, Mapping):
        yield from leaf_changes(base, {}, path)
        return
    if base != head or type(base) is not type(head):
        yield path, base, head


def _settings(base: Mapping[str, Any], head: Mapping[str, Any], skip: frozenset[str]) -> list[
    SettingChange
]:
    b = {k: v for k, v in base.items() if k not in skip}
    h = {k: v for k, v in head.items() if k not in skip}
    return [SettingChange(path, bv, hv) for path, bv, hv in leaf_changes(b, h)]


def _enabled(profile: Mapping[str, Any], point: str) -> list[tuple[str, int]]:
    section = profile.get("plugins", {}).get(point) or {}
    return [(e["name"], int(e.get("weight", 0))) for e in section.get("enabled", [])]


def _point_changes(point: str, base: list[tuple[str, int]], head: list[tuple[str, int]]) -> list[
    PluginChange
]:
    weights_b, weights_h = dict(base), dict(head)
    score = point == "score"
    out: list[PluginChange] = []
    for name in sorted(set(weights_b) | set(weights_h)):
        if name not in weights_b:
            head_weight = weights_h[name] if score else ABSENT
            out.append(PluginChange(point, name, "enabled", head=head_weight))
        elif name not in weights_h:
            base_weight = weights_b[name] if score else ABSENT
            out.append(PluginChange(point, name, "disabled", base=base_weight))
        elif score and weights_b[name] != weights_h[name]:
            out.append(PluginChange(point, name, "weight", weights_b[name], weights_h[name]))
    # Run order matters (e.g. which Filter's reasons a node reports), so say when it changed.
    common_b = [n for n, _ in base if n in weights_h]
    common_h = [n for n, _ in head if n in weights_b]
    if common_b != common_h:
        out.append(PluginChange(point, "", "reordered", [n for n, _ in base], [n for n, _ in head]))
    return out


def _args_by_plugin(profile: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        c["name"]: {k: v for k, v in (c.get("args") or {}).items() if k not in _ARGS_SKIP}
        for c in profile.get("pluginConfig", [])
    }


def _profile_diff(name: str, base: Mapping[str, Any], head: Mapping[str, Any]) -> ProfileDiff:
    plugins: list[PluginChange] = []
    for point in EXTENSION_POINTS:
        plugins += _point_changes(point, _enabled(base, point), _enabled(head, point))
    args_b, args_h = _args_by_plugin(base), _args_by_plugin(head)
    # Args of a plugin that runs on one side only are moot there; its plugin rows say so.
    args = [
        ArgsChange(plugin, path, b, h)
        for plugin in sorted(set(args_b) & set(args_h))
        for path, b, h in leaf_changes(args_b[plugin], args_h[plugin])
    ]
    return ProfileDiff(name, "modified", _settings(base, head, _PROFILE_SKIP), plugins, args)


def diff_configs(base: Mapping[str, Any], head: Mapping[str, Any]) -> ConfigDiff:
    """Differences between two effective configuration objects; profiles match by name."""
    out = ConfigDiff(settings=_settings(base, head, _GLOBAL_SKIP))
    profiles_b = {p.get("schedulerName", ""): p for p in base.get("profiles", [])}
    profiles_h = {p.get("schedulerName", ""): p for p in head.get("profiles", [])}
    # Base's profile order, then profiles only head has, in head's order.
    names = list(profiles_b) + [n for n in profiles_h if n not in profiles_b]
    for name in names:
        if name not in profiles_h:
            out.profiles.append(ProfileDiff(name, "removed"))
        elif name not in profiles_b:
            out.profiles.append(ProfileDiff(name, "added"))
        else:
            diff = _profile_diff(name, profiles_b[name], profiles_h[name])
            if diff.settings or diff.plugins or diff.args:
                out.profiles.append(diff)
    return out
