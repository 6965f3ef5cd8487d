"""Extender filter failures merge into the statuses without touching shared ones."""

from __future__ import annotations

from ksched_cli.extender.scheduling import _merge_failures
from ksched_cli.framework.status import Code, Status


def test_failures_merge_into_copies_of_existing_statuses() -> None:
    shared = Status(Code.UNSCHEDULABLE, "Insufficient cpu", plugin="NodeResourcesFit")
    statuses = {"a": shared, "b": shared}
    _merge_failures({"a": "busy", "c": "down"}, {"b": "gone"}, statuses)
    assert shared.all_reasons() == ["Insufficient cpu"]
    assert statuses["a"] == Status(
        Code.UNSCHEDULABLE, "Insufficient cpu", "busy", plugin="NodeResourcesFit"
    )
    assert statuses["b"] == Status(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "Insufficient cpu", "gone", plugin="Extender"
    )
    assert statuses["c"] == Status(Code.UNSCHEDULABLE, "down", plugin="Extender")
