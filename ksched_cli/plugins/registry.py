"""The explicit registry of plugins ksched can run: name -> module defining ``Plugin``.

Modules are imported on first use so that a profile only pays for the plugins it enables.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..framework.interface import Handle, Plugin

_MODULES: dict[str, str] = {
    "PrioritySort": "queuesort",
    "SchedulingGates": "schedulinggates",
    "NodeUnschedulable": "nodeunschedulable",
    "NodeName": "nodename",
    "TaintToleration": "tainttoleration",
    "NodeAffinity": "nodeaffinity",
    "NodePorts": "nodeports",
    "NodeResourcesFit": "noderesources.fit",
    "NodeResourcesBalancedAllocation": "noderesources.balanced_allocation",
    "ImageLocality": "imagelocality",
    "PodTopologySpread": "podtopologyspread.plugin",
    "InterPodAffinity": "interpodaffinity.plugin",
    "DefaultPreemption": "defaultpreemption",
    "DefaultBinder": "defaultbinder",
    "VolumeRestrictions": "volumerestrictions",
    "EBSLimits": "nodevolumelimits.non_csi_ebs",
    "GCEPDLimits": "nodevolumelimits.non_csi_gce",
    "AzureDiskLimits": "nodevolumelimits.non_csi_azure",
    "CinderLimits": "nodevolumelimits.non_csi_cinder",
    "NodeVolumeLimits": "nodevolumelimits.csi",
    "VolumeBinding": "volumebinding.plugin",
    "VolumeZone": "volumezone",
    "DynamicResources": "dynamicresources",
    "NodeDeclaredFeatures": "nodedeclaredfeatures",
    "GangScheduling": "gangscheduling",
    "Coscheduling": "coscheduling.plugin",
}


def known_plugins() -> list[str]:
    return list(_MODULES)


def build_plugin(name: str, args: Any, handle: Handle) -> Plugin:
    """Instantiate plugin ``name`` with its typed args."""
    module_name = _MODULES.get(name)
    if module_name is None:
        raise KeyError(f"plugin {name!r} does not exist")
    module = importlib.import_module(f"{__package__}.{module_name}")
    plugin: Plugin = module.Plugin(args, handle)
    return plugin
