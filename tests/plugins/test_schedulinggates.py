from __future__ import annotations

import pytest

from ksched_cli.framework.status import Code, Status
from ksched_cli.plugins import schedulinggates
from tests.fakes import make_pod


@pytest.mark.parametrize(
    ("gates", "expected"),
    [
        ([], None),
        (
            ["foo"],
            Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "waiting for scheduling gates: [foo]"),
        ),
        (
            ["foo", "bar"],
            Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "waiting for scheduling gates: [foo bar]"),
        ),
    ],
)
def test_pre_enqueue(gates: list[str], expected: Status | None) -> None:
    pod = make_pod("p", spec={"schedulingGates": [{"name": g} for g in gates]})
    assert schedulinggates.Plugin(None, None).pre_enqueue(pod) == expected
