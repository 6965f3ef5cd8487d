from __future__ import annotations

from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.plugins import defaultbinder
from tests.fakes import FakeHandle, make_node, make_pod


def test_bind_succeeds() -> None:
    handle = FakeHandle([make_node("n")])
    plugin = defaultbinder.Plugin(None, handle)
    assert plugin.name == "DefaultBinder"
    assert plugin.bind(CycleState(), make_pod("p"), "n") is None
