"""How the framework sees scheduler extenders (framework/extender.go's Extender).

The framework calls extenders only through these protocols; ``ksched_cli.extender``
implements them over HTTP or a recorded stub. The reply types (``Victims``,
``FilterResult``) are in ``extender_types.py``, imported only when extenders are
configured.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..api.pod import Pod
    from .extender_types import FilterResult, Victims
    from .nodeinfo import NodeInfo


class ExtenderError(Exception):
    """A failed extender call; ``str()`` is the error kube-scheduler would report."""


class Extender(Protocol):
    """One extender (framework.Extender); its verbs raise ExtenderError."""

    @property
    def name(self) -> str: ...

    @property
    def ignorable(self) -> bool: ...

    def is_interested(self, pod: Pod) -> bool: ...

    def is_binder(self) -> bool: ...

    def supports_preemption(self) -> bool: ...

    def filter(self, pod: Pod, nodes: Sequence[NodeInfo]) -> FilterResult: ...

    def prioritize(
        self, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[list[tuple[str, int]], int]: ...

    def process_preemption(
        self, pod: Pod, victims: Mapping[str, Victims], nodes: Mapping[str, NodeInfo]
    ) -> dict[str, Victims]: ...

    def bind(self, pod: Pod, node: str) -> None: ...


class Extenders(Protocol):
    """The scheduler's extenders as preemption reaches them (handle.Extenders()).

    False when none is configured. ``process_preemption`` is callExtenders: each
    preempting extender narrows the candidates in turn, ignorable failures skipped.
    """

    def __bool__(self) -> bool: ...

    def process_preemption(
        self, pod: Pod, victims: dict[str, Victims], nodes: Mapping[str, NodeInfo]
    ) -> dict[str, Victims]: ...
