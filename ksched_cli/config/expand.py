"""Per-extension-point plugin lists, built the way the v1.30 framework builds them.

The framework first fills each point from its explicit (merged) list, then expands
multiPoint into every point each plugin implements: plugins also named explicitly
at a point keep their explicit place and settings and come first, then the
multiPoint ones, then the remaining explicit ones. Where Go stops at the first
error, this collects every error so ``ksched validate`` can report them all.
"""

from __future__ import annotations

from dataclasses import field

from ..record import record
from .catalog import GO_INTERFACE, IN_TREE_VOLUME_LIMITS, lookup
from .model import MULTI_POINT, PluginEntry, PluginSet, ProfileV1
from .placement import lookup_any
from .problems import Problem, child, plain
from .types import EXTENSION_POINTS, PluginRef

# frameworkImpl.getExtensionPoints order; it decides which error Go reports first.
FRAMEWORK_ORDER = (
    "preFilter",
    "filter",
    "postFilter",
    "reserve",
    "preScore",
    "score",
    "preBind",
    "bind",
    "postBind",
    "permit",
    "preEnqueue",
    "queueSort",
)
MAX_NODE_SCORE = 100
MAX_TOTAL_SCORE = 2**63 - 1


@record
class BuiltProfile:
    """A profile's plugins per extension point, as the framework builds them."""

    plugins: dict[str, list[PluginRef]]
    weights: dict[str, int]
    needed: set[str]  # every plugin the framework instantiates (enabled anywhere)
    problems: list[Problem] = field(default_factory=list)

    def queue_sort(self) -> str | None:
        names = self.plugins.get("queueSort", [])
        return names[0].name if len(names) == 1 else None


def _where(profile: ProfileV1, entry: PluginEntry) -> str:
    return entry.origin or child(profile.path, "plugins")


def _refused_by_validation(profile: ProfileV1, name: str) -> bool:
    """v1.31+ validation already refused an in-tree volume-limit plugin in an enabled list."""
    return profile.features.invalid_in_tree_volume_limits and name in IN_TREE_VOLUME_LIMITS


class _Builder:
    def __init__(self, profile: ProfileV1) -> None:
        self.profile = profile
        self.problems: list[Problem] = []
        self.lists: dict[str, list[str]] = {}
        self.reported: set[int] = set()  # ids of multiPoint entries already reported

    def error(self, entry: PluginEntry, message: str) -> None:
        self.problems.append(plain(_where(self.profile, entry), message))

    def explicit(self, point: str, plugins: PluginSet) -> list[str]:
        """updatePluginList: the point's own enabled plugins, checked one by one."""
        kind = GO_INTERFACE[point]
        names: list[str] = []
        for entry in plugins.enabled:
            info = lookup_any(entry.name, self.profile)
            if info is None and _refused_by_validation(self.profile, entry.name):
                continue  # kube-scheduler stops at its validation error for this entry
            if info is None:
                self.error(entry, f'{kind} "{entry.name}" does not exist')
            elif not info.implements(point):
                self.error(entry, f'plugin "{entry.name}" does not extend {kind} plugin')
            elif entry.name in names:
                self.error(entry, f'plugin "{entry.name}" already registered as "{kind}"')
            else:
                names.append(entry.name)
        return names

    def expand(self, point: str, plugins: PluginSet, explicit: list[str]) -> list[str]:
        """expandMultiPointPlugins for one point."""
        disabled = plugins.disabled_names()
        if "*" in disabled:
            return explicit
        kind = GO_INTERFACE[point]
        overrides: list[str] = []
        multi: list[str] = []
        for entry in self.profile.plugin_set(MULTI_POINT).enabled:
            info = lookup_any(entry.name, self.profile)
            if info is None:
                self._report_once(entry, f'{kind} "{entry.name}" does not exist')
            elif not info.implements(point) or entry.name in disabled:
                continue
            elif entry.name in explicit:
                if entry.name not in overrides:
                    overrides.append(entry.name)
            elif entry.name in multi:
                self._report_once(entry, f'plugin "{entry.name}" already registered as "{kind}"')
            else:
                multi.append(entry.name)
        first = [n for n in explicit if n in overrides]
        rest = [n for n in explicit if n not in overrides]
        return first + multi + rest

    def _report_once(self, entry: PluginEntry, message: str) -> None:
        if id(entry) not in self.reported:
            self.reported.add(id(entry))
            self.error(entry, message)

    def build(self) -> dict[str, list[str]]:
        has_multi = bool(self.profile.plugin_set(MULTI_POINT).enabled)
        for point in FRAMEWORK_ORDER:
            plugins = self.profile.plugin_set(point)
            names = self.explicit(point, plugins)
            self.lists[point] = self.expand(point, plugins, names) if has_multi else names
        return self.lists


def score_weights(profile: ProfileV1) -> tuple[dict[str, int], list[Problem]]:
    """getScoreWeights: explicit score entries first, then multiPoint; 0 or unset means 1."""
    weights: dict[str, int] = {}
    total = 0
    entries = [*profile.plugin_set("score").enabled, *profile.plugin_set(MULTI_POINT).enabled]
    for entry in entries:
        info = lookup(entry.name, profile.features)
        if info is None or not info.implements("score") or entry.name in weights:
            continue
        weight = entry.weight or 1
        weights[entry.name] = weight
        if weight * MAX_NODE_SCORE > MAX_TOTAL_SCORE - total:
            where = child(profile.path, "plugins", "score")
            return weights, [plain(where, "total score of Score plugins could overflow")]
        total += weight * MAX_NODE_SCORE
    return weights, []


def _count_checks(profile: ProfileV1, lists: dict[str, list[str]]) -> list[Problem]:
    name = profile.scheduler_name or ""
    problems = []
    if len(lists["queueSort"]) != 1:
        message = (
            f'only one queue sort plugin required for profile with scheduler name "{name}", '
            f"but got {len(lists['queueSort'])}"
        )
        problems.append(plain(child(profile.path, "plugins", "queueSort"), message))
    if not lists["bind"]:
        message = f'at least one bind plugin is needed for profile with scheduler name "{name}"'
        problems.append(plain(child(profile.path, "plugins", "bind"), message))
    return problems


def build_profile(profile: ProfileV1) -> BuiltProfile:
    """The plugins each point runs, their score weights, and the framework's errors."""
    builder = _Builder(profile)
    lists = builder.build()
    problems = builder.problems
    weights: dict[str, int] = {}
    if not problems:  # Go only gets this far when every plugin resolved
        problems = _count_checks(profile, lists)
        weights, overflow = score_weights(profile)
        problems += overflow
    needed = {p.name for s in (profile.plugins or {}).values() for p in s.enabled}
    plugins = {
        point: [PluginRef(n, weights.get(n, 1) if point == "score" else 0) for n in lists[point]]
        for point in EXTENSION_POINTS
    }
    return BuiltProfile(plugins, weights, needed, problems)


def queue_sort_consistency(
    profiles: list[ProfileV1], built: list[BuiltProfile], skip: set[int]
) -> list[Problem]:
    """profile.go's cross-profile check: one queue sort plugin, with the same args, everywhere."""
    if not built or built[0].queue_sort() is None:
        return []
    first = built[0].queue_sort()
    first_args = _queue_sort_args(profiles[0], first)
    problems = []
    for i in range(1, len(profiles)):
        current = built[i].queue_sort()
        if i in skip or current is None:
            continue
        where = child(profiles[i].path, "plugins")
        name = profiles[i].scheduler_name or ""
        if current != first:
            message = (
                f'different queue sort plugins for profile "{name}": "{current}", first: "{first}"'
            )
            problems.append(plain(where, message))
        elif _queue_sort_args(profiles[i], current) != first_args:
            problems.append(plain(where, f'different queue sort plugin args for profile "{name}"'))
    return problems


def _queue_sort_args(profile: ProfileV1, name: str | None) -> object:
    entry = profile.args_entry(name or "")
    return entry.args if entry else None
