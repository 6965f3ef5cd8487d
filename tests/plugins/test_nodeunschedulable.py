from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code, Status
from ksched_cli.plugins import nodeunschedulable
from tests.fakes import FakeHandle, make_node, make_pod

REJECT = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) were unschedulable")
UNSCHED_KEY = "node.kubernetes.io/unschedulable"


@pytest.mark.parametrize(
    ("unschedulable", "tolerations", "expected"),
    [
        (True, [], REJECT),
        (False, [], None),
        (True, [{"key": UNSCHED_KEY, "operator": "Exists", "effect": "NoSchedule"}], None),
        # An empty key with Exists tolerates every taint, this one included.
        (True, [{"operator": "Exists"}], None),
        # An empty effect tolerates every effect.
        (True, [{"key": UNSCHED_KEY, "operator": "Exists"}], None),
        (True, [{"key": UNSCHED_KEY, "operator": "Exists", "effect": "NoExecute"}], REJECT),
        # The taint's value is empty: Equal "" tolerates it, Equal "x" does not.
        (True, [{"key": UNSCHED_KEY, "operator": "Equal", "effect": "NoSchedule"}], None),
        (True, [{"key": UNSCHED_KEY, "value": "x", "effect": "NoSchedule"}], REJECT),
    ],
)
def test_filter(
    unschedulable: bool, tolerations: list[dict[str, Any]], expected: Status | None
) -> None:
    node = make_node("n", unschedulable=unschedulable)
    handle = FakeHandle([node])
    pod = make_pod("p", spec={"tolerations": tolerations})
    got = nodeunschedulable.Plugin(None, handle).filter(CycleState(), pod, handle.node("n"))
    assert got == expected
