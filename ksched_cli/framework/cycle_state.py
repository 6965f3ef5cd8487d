"""Per-attempt plugin state (framework/cycle_state.go)."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class StateData(Protocol):
    def clone(self) -> StateData: ...


class CycleState:
    """Data that plugins share within one scheduling attempt; cloned for preemption dry runs."""

    __slots__ = ("_data", "active_filters", "skip_filter_plugins", "skip_score_plugins")

    def __init__(self) -> None:
        self._data: dict[str, Any] = {}
        self.skip_filter_plugins: set[str] = set()
        self.skip_score_plugins: set[str] = set()
        # The Filter plugins PreFilter did not skip, in order (set once per attempt).
        self.active_filters: list[Any] | None = None

    def write(self, key: str, value: Any) -> None:
        self._data[key] = value

    def read(self, key: str) -> Any:
        """The value under ``key``; a missing key is a plugin bug, as in kube-scheduler."""
        try:
            return self._data[key]
        except KeyError:
            raise KeyError(f"{key} not found") from None

    def get(self, key: str) -> Any:
        return self._data.get(key)

    def delete(self, key: str) -> None:
        self._data.pop(key, None)

    def clone(self) -> CycleState:
        copy = CycleState()
        for key, value in self._data.items():
            copy._data[key] = value.clone() if hasattr(value, "clone") else value
        copy.skip_filter_plugins = set(self.skip_filter_plugins)
        copy.skip_score_plugins = set(self.skip_score_plugins)
        copy.active_filters = self.active_filters
        return copy
