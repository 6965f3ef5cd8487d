"""v1.36's placementGenerate and placementScore plugin sets (TopologyAwareWorkloadScheduling,
alpha and off by default).

kube-scheduler v0.36.3's ``config/v1/types.go`` gives them the ``PluginSet`` shape (a weight
counts for PlacementScore plugins); the framework builds them like every other point
(``getExtensionPoints`` lists both, so ``updatePluginList`` checks each enabled plugin).
ksched accepts and checks them but runs no pod-group placement: they change no plan.
Which plugins implement the two interfaces is read from 1.37 development trees and the
v1.36 documentation (docs/versions.md); their weights and multiPoint expansion into
them are not checked, since v1.36's code for that could not be read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .catalog import PluginInfo, lookup
from .model import PLACEMENT_KEYS, PluginSet, ProfileV1
from .problems import Problem, child, plain

if TYPE_CHECKING:
    from .schema import SchemaIssue

GO_INTERFACE = {
    "placementGenerate": "PlacementGeneratePlugin",
    "placementScore": "PlacementScorePlugin",
}
IMPLEMENTS = {
    "placementGenerate": frozenset({"TopologyPlacementGenerator"}),
    "placementScore": frozenset({"NodeResourcesFit", "PodGroupPodsCount"}),
}
# Registered in v1.36 for the placement points only (no extension point ksched models).
PLACEMENT_ONLY = frozenset({"TopologyPlacementGenerator", "PodGroupPodsCount"})


def lookup_any(name: str, profile: ProfileV1) -> PluginInfo | None:
    """``catalog.lookup``, plus (from v1.36) the plugins registered for the placement points
    only: they exist but extend no point ksched models."""
    info = lookup(name, profile.features)
    if info is None and name in PLACEMENT_ONLY and profile.features.placement_plugin_sets:
        return PluginInfo(name, (), None, None, False, "kube-scheduler v1.36", "placement only")
    return info


def _is_placement_key(path: tuple[str | int, ...]) -> bool:
    return (
        len(path) == 4
        and path[0] == "profiles"
        and path[2] == "plugins"
        and path[3] in PLACEMENT_KEYS
    )


def accept(document: Any, issues: list[SchemaIssue]) -> list[SchemaIssue]:
    """The schema issues of a v1.36 document: the sets are known fields there, checked
    against the ``pluginSet`` definition instead."""
    from .schema import check_definition  # jsonschema only for files a user wrote

    kept = [
        i
        for i in issues
        if not (i.problem.message.startswith("unknown field") and _is_placement_key(i.path))
    ]
    profiles = document.get("profiles") if isinstance(document, dict) else None
    for index, profile in enumerate(profiles if isinstance(profiles, list) else []):
        plugins = profile.get("plugins") if isinstance(profile, dict) else None
        if not isinstance(plugins, dict):
            continue
        for key in PLACEMENT_KEYS:
            if key in plugins:
                at = ("profiles", index, "plugins", key)
                kept += check_definition(plugins[key], "pluginSet", at)
    return kept


def _exists(name: str, profile: ProfileV1) -> bool:
    return name in PLACEMENT_ONLY or lookup(name, profile.features) is not None


def _check_set(profile: ProfileV1, key: str, plugins: PluginSet) -> list[Problem]:
    """updatePluginList for one placement point."""
    kind = GO_INTERFACE[key]
    problems = []
    seen: set[str] = set()
    for entry in plugins.enabled:
        where = entry.origin or child(profile.path, "plugins", key)
        if not _exists(entry.name, profile):
            problems.append(plain(where, f'{kind} "{entry.name}" does not exist'))
        elif entry.name not in IMPLEMENTS[key]:
            problems.append(plain(where, f'plugin "{entry.name}" does not extend {kind} plugin'))
        elif entry.name in seen:
            problems.append(plain(where, f'plugin "{entry.name}" already registered as "{kind}"'))
        else:
            seen.add(entry.name)
    return problems


def problems(profile: ProfileV1) -> list[Problem]:
    found: list[Problem] = []
    for key, plugins in profile.placement.items():
        found += _check_set(profile, key, plugins)
    return found


def effective(profile: ProfileV1) -> dict[str, Any]:
    """The sets as given, for the effective configuration (no defaults: the gate is off)."""
    out: dict[str, Any] = {}
    for key, plugins in profile.placement.items():
        entries = []
        for entry in plugins.enabled:
            item: dict[str, Any] = {"name": entry.name}
            if entry.weight is not None:
                item["weight"] = entry.weight
            entries.append(item)
        out[key] = {"enabled": entries} if entries else {}
    return out
