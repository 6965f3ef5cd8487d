"""Plugin result codes and statuses (framework/interface.go). ``None`` means Success."""

from __future__ import annotations

from enum import IntEnum


class Code(IntEnum):
    SUCCESS = 0
    ERROR = 1
    UNSCHEDULABLE = 2
    UNSCHEDULABLE_AND_UNRESOLVABLE = 3
    WAIT = 4
    SKIP = 5
    PENDING = 6

    @property
    def go_name(self) -> str:
        return _GO_NAMES[self]


_GO_NAMES = {
    Code.SUCCESS: "Success",
    Code.ERROR: "Error",
    Code.UNSCHEDULABLE: "Unschedulable",
    Code.UNSCHEDULABLE_AND_UNRESOLVABLE: "UnschedulableAndUnresolvable",
    Code.WAIT: "Wait",
    Code.SKIP: "Skip",
    Code.PENDING: "Pending",
}


class Status:
    """A non-success result. Plugins return ``None`` for Success, as Go returns nil."""

    __slots__ = ("code", "error", "plugin", "reasons")

    def __init__(
        self, code: Code, *reasons: str, error: str | None = None, plugin: str = ""
    ) -> None:
        self.code = code
        self.reasons = list(reasons)
        self.error = error
        self.plugin = plugin

    def all_reasons(self) -> list[str]:
        """Status.Reasons(): an error's text comes first."""
        return [self.error, *self.reasons] if self.error is not None else list(self.reasons)

    def message(self) -> str:
        return ", ".join(self.all_reasons())

    def with_plugin(self, plugin: str) -> Status:
        self.plugin = plugin
        return self

    def is_rejected(self) -> bool:
        return self.code in _REJECTED

    def __repr__(self) -> str:
        return f"Status({self.code.go_name}, {self.all_reasons()!r}, plugin={self.plugin!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Status):
            return NotImplemented
        return (self.code, self.all_reasons(), self.plugin) == (
            other.code,
            other.all_reasons(),
            other.plugin,
        )

    __hash__ = None  # type: ignore[assignment]


_REJECTED = frozenset((Code.UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE, Code.PENDING))


def code_of(status: Status | None) -> Code:
    return Code.SUCCESS if status is None else status.code


def is_success(status: Status | None) -> bool:
    return status is None or status.code == Code.SUCCESS


def unschedulable(*reasons: str) -> Status:
    return Status(Code.UNSCHEDULABLE, *reasons)


def unresolvable(*reasons: str) -> Status:
    return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, *reasons)


def as_error(message: str) -> Status:
    return Status(Code.ERROR, error=message)


SKIP = Status(Code.SKIP)
