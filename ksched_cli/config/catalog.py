"""Every plugin ksched knows: the extension points it implements, its args type, its defaults.

This is the single source of truth the config layer validates against; the engine's
plugin registry must cover exactly these names. Extension points were read off each
v1.30 plugin's methods (an interface is implemented when its methods exist), not off
the default configuration, because multiPoint expansion follows the methods.
"""

from __future__ import annotations

from ..record import record
from ..versions.features import V130, Features
from .types import EXTENSION_POINTS

KUBE_ORIGIN = "kube-scheduler v1.30"
COSCHEDULING_ORIGIN = "scheduler-plugins v0.30"

# The framework's Go interface names, used verbatim in its error messages.
GO_INTERFACE = {
    "preEnqueue": "PreEnqueuePlugin",
    "queueSort": "QueueSortPlugin",
    "preFilter": "PreFilterPlugin",
    "filter": "FilterPlugin",
    "postFilter": "PostFilterPlugin",
    "preScore": "PreScorePlugin",
    "score": "ScorePlugin",
    "reserve": "ReservePlugin",
    "permit": "PermitPlugin",
    "preBind": "PreBindPlugin",
    "bind": "BindPlugin",
    "postBind": "PostBindPlugin",
}


@record(frozen=True)
class PluginInfo:
    """What ksched knows of a plugin: its extension points, args and defaults."""

    name: str
    points: tuple[str, ...]  # in EXTENSION_POINTS order
    args_kind: str | None  # e.g. "DefaultPreemptionArgs"; None when the plugin takes no args
    default_weight: int | None  # score weight in the default multiPoint set (None: not scored)
    in_defaults: bool  # part of v1.30's default multiPoint plugin set
    origin: str
    summary: str

    def implements(self, point: str) -> bool:
        return point in self.points


def _info(
    name: str,
    points: str,
    summary: str,
    *,
    args: bool = False,
    weight: int | None = None,
    default: bool = True,
    origin: str = KUBE_ORIGIN,
) -> PluginInfo:
    wanted = set(points.split())
    unknown = wanted - set(EXTENSION_POINTS)
    if unknown:  # a typo here would silently drop an extension point
        raise ValueError(f"unknown extension points for {name}: {sorted(unknown)}")
    ordered = tuple(p for p in EXTENSION_POINTS if p in wanted)
    return PluginInfo(
        name, ordered, f"{name}Args" if args else None, weight, default, origin, summary
    )


_PLUGINS = [
    _info("SchedulingGates", "preEnqueue", "holds pods that still have spec.schedulingGates"),
    _info("PrioritySort", "queueSort", "orders the queue by priority, then arrival time"),
    _info("NodeUnschedulable", "filter", "rejects nodes with spec.unschedulable unless tolerated"),
    _info("NodeName", "filter", "honours spec.nodeName"),
    _info(
        "TaintToleration",
        "filter preScore score",
        "taints vs tolerations; prefers nodes with fewer PreferNoSchedule taints",
        weight=3,
    ),
    _info(
        "NodeAffinity",
        "preFilter filter preScore score",
        "nodeSelector and node affinity (plus addedAffinity from args)",
        args=True,
        weight=2,
    ),
    _info("NodePorts", "preFilter filter", "host port conflicts"),
    _info(
        "NodeResourcesFit",
        "preFilter filter preScore score",
        "resource requests fit; scores by the configured scoring strategy",
        args=True,
        weight=1,
    ),
    _info("VolumeRestrictions", "preFilter filter", "volume access-mode and disk conflicts"),
    _info("EBSLimits", "preFilter filter", "AWS EBS attach limit (in-tree volumes)"),
    _info("GCEPDLimits", "preFilter filter", "GCE PD attach limit (in-tree volumes)"),
    _info("NodeVolumeLimits", "preFilter filter", "CSI attach limits from CSINode"),
    _info("AzureDiskLimits", "preFilter filter", "Azure disk attach limit (in-tree volumes)"),
    _info(
        "CinderLimits",
        "preFilter filter",
        "OpenStack Cinder attach limit (registered, not in the default set)",
        default=False,
    ),
    _info(
        "VolumeBinding",
        "preFilter filter preScore score reserve preBind",
        "binds PVCs; scoring needs VolumeCapacityPriority, which is off in v1.30",
        args=True,
        weight=1,
    ),
    _info("VolumeZone", "preFilter filter", "volume topology zone constraints"),
    _info(
        "PodTopologySpread",
        "preFilter filter preScore score",
        "topologySpreadConstraints, with cluster default constraints from args",
        args=True,
        weight=2,
    ),
    _info(
        "InterPodAffinity",
        "preFilter filter preScore score",
        "pod affinity and anti-affinity",
        args=True,
        weight=2,
    ),
    _info("DefaultPreemption", "postFilter", "preempts lower-priority pods", args=True),
    _info(
        "NodeResourcesBalancedAllocation",
        "preScore score",
        "prefers nodes whose resource usage stays balanced",
        args=True,
        weight=1,
    ),
    _info("ImageLocality", "score", "prefers nodes that already have the images", weight=1),
    _info("DefaultBinder", "bind", "binds the pod to the chosen node"),
    _info(
        "DynamicResources",
        "preEnqueue preFilter filter postFilter preScore reserve preBind postBind",
        "DynamicResourceAllocation gate is off in v1.30: registered but does nothing",
        default=False,
    ),
    _info(
        "NodeDeclaredFeatures",
        "preFilter filter",
        "node features a pod needs (v1.36+); skips pods that need none",
    ),
    _info(
        "GangScheduling",
        "preEnqueue reserve permit",
        "all-or-nothing for Workload pod groups (v1.35+; its gates are off, so no pod has a "
        "group and it lets every pod through)",
        default=False,
    ),
    _info(
        "Coscheduling",
        "queueSort preFilter postFilter reserve permit",
        "gang scheduling of PodGroups (all-or-nothing at Permit)",
        args=True,
        default=False,
        origin=COSCHEDULING_ORIGIN,
    ),
]

CATALOG: dict[str, PluginInfo] = {p.name: p for p in _PLUGINS}


IN_TREE_VOLUME_LIMITS = ("EBSLimits", "GCEPDLimits", "AzureDiskLimits", "CinderLimits")


def registered(name: str, features: Features = V130) -> bool:
    """Whether the release being replayed has plugin ``name`` in its registry."""
    if name in IN_TREE_VOLUME_LIMITS:
        return features.in_tree_volume_limits_registered
    if name == "NodeDeclaredFeatures":
        return features.node_declared_features
    if name == "GangScheduling":
        return features.gang_scheduling_registered
    return name in CATALOG


# DynamicResources once DRA is on by default (v1.34+; points of v1.35.7's plugin).
_DRA_ON = _info(
    "DynamicResources",
    "preEnqueue preFilter filter postFilter score reserve preBind",
    "DRA claims; skips pods without resource claims (ksched reads none)",
    args=True,
    weight=2,
)


# v1.34's DynamicResources has no Score point (it came with v1.35), so no weight either.
_DRA_ON_UNSCORED = _info(
    "DynamicResources",
    "preEnqueue preFilter filter postFilter reserve preBind",
    "DRA claims; skips pods without resource claims (ksched reads none)",
    args=True,
)


def lookup(name: str, features: Features = V130) -> PluginInfo | None:
    """The plugin's catalog entry, or None when the release has no such plugin."""
    if not registered(name, features):
        return None
    if name == _DRA_ON.name and features.dra_in_default_profile:
        return _DRA_ON if features.dra_scoring else _DRA_ON_UNSCORED
    return CATALOG.get(name)


def plugins_with_args(features: Features = V130) -> dict[str, str]:
    """Plugin name -> args kind, for every plugin that takes args in the release."""
    kinds = {p.name: p.args_kind for p in _PLUGINS if p.args_kind is not None}
    if features.dra_in_default_profile and _DRA_ON.args_kind is not None:
        kinds[_DRA_ON.name] = _DRA_ON.args_kind
    return kinds
