from __future__ import annotations

import pytest

from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code, Status
from ksched_cli.plugins import nodename
from tests.fakes import FakeHandle, make_node, make_pod

REJECT = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) didn't match the requested node name")


@pytest.mark.parametrize(
    ("pod_node_name", "expected"),
    [("", None), ("foo", None), ("bar", REJECT)],
    ids=["no host specified", "host matches", "host doesn't match"],
)
def test_filter(pod_node_name: str, expected: Status | None) -> None:
    handle = FakeHandle([make_node("foo")])
    pod = make_pod("p", spec={"nodeName": pod_node_name} if pod_node_name else None)
    got = nodename.Plugin(None, handle).filter(CycleState(), pod, handle.node("foo"))
    assert got == expected
