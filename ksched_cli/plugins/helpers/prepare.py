"""What plugins' ``prepare`` hooks share: the live columns, one pod per shape.

``Framework.prepare`` calls a plugin's ``prepare(pods, points)`` once, before the first
attempt, with the pending pods and the extension points the plugin is enabled at; the
plugin builds the live tables and static masks those pods' attempts will read, which
the first pod of each shape would otherwise build (so nothing a plan decides changes).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from ...api.pod import Pod
from ...framework.columns import NodeColumns


def live_columns(handle: Any) -> NodeColumns | None:
    """The live node columns when array paths are on."""
    if handle is None or not getattr(handle, "vectorize", False):
        return None
    infos = handle.snapshot.list()
    columns: NodeColumns | None = infos[0].columns if infos else None
    return columns


def one_per_shape(pods: Iterable[Pod], shape: Callable[[Pod], Hashable]) -> list[Pod]:
    """The first pod of each distinct ``shape(pod)``."""
    seen: dict[Hashable, Pod] = {}
    for pod in pods:
        seen.setdefault(shape(pod), pod)
    return list(seen.values())
