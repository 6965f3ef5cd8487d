"""NodeDeclaredFeatures (default profile from v1.36).

Port of nodedeclaredfeatures/nodedeclaredfeatures.go (v1.35.7). The plugin infers the
node features a pod needs from pod-spec fields (RestartAllContainers rules, alpha volume
and DRA features) and skips pods that need none. ksched's pod model reads none of those
fields, so every pod it plans needs no declared feature and the plugin skips at
PreFilter, as kube-scheduler does for such pods.
"""

from __future__ import annotations

from typing import Any

from ..api.pod import Pod
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import NodeInfo
from ..framework.status import SKIP, Status
from ..framework.types import PreFilterResult

NAME = "NodeDeclaredFeatures"


class Plugin:
    name = NAME

    def __init__(self, args: Any = None, handle: Handle | None = None) -> None:
        pass

    def pre_filter(self, state: CycleState, pod: Pod) -> tuple[PreFilterResult | None, Status]:
        return None, SKIP

    def pre_filter_extensions(self) -> None:
        return None

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        return None
