"""DefaultBinder (defaultbinder/default_binder.go).

kube-scheduler posts a Binding to the API server here; in ksched the engine applies
the binding itself, so the plugin only reports success.
"""

from __future__ import annotations

from typing import Any

from ..api.pod import Pod
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.status import Status

NAME = "DefaultBinder"


class Plugin:
    name = NAME

    def __init__(self, args: Any = None, handle: Handle | None = None) -> None:
        self.handle = handle

    def bind(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        return None
