from __future__ import annotations

import pytest

from ksched_cli.framework.types import QueuedPodInfo
from ksched_cli.plugins import queuesort
from tests.fakes import make_pod


def _info(priority: int, timestamp: float, load_index: int) -> QueuedPodInfo:
    pod = make_pod(f"p{priority}-{timestamp}-{load_index}", priority=priority)
    pod.load_index = load_index
    return QueuedPodInfo(pod=pod, timestamp=timestamp)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        # p1 > p2
        ((100, 0.0, 1), (50, 0.0, 0), True),
        ((50, 0.0, 0), (100, 0.0, 1), False),
        # equal priority: earlier timestamp first, whatever the load order
        ((100, 1.0, 0), (100, 2.0, 1), True),
        ((100, 2.0, 0), (100, 1.0, 1), False),
        # priority beats timestamp
        ((10, 5.0, 0), (5, 1.0, 1), True),
        # equal priority and timestamp: load order
        ((100, 1.0, 3), (100, 1.0, 4), True),
        ((100, 1.0, 4), (100, 1.0, 3), False),
        ((100, 1.0, 4), (100, 1.0, 4), False),
        # negative priorities compare as ints
        ((-5, 0.0, 0), (-10, 0.0, 1), True),
    ],
)
def test_less(
    a: tuple[int, float, int], b: tuple[int, float, int], expected: bool
) -> None:
    plugin = queuesort.Plugin(None, None)
    assert plugin.name == queuesort.NAME == "PrioritySort"
    assert plugin.less(_info(*a), _info(*b)) is expected
