from __future__ import annotations

import pytest

from ksched_cli.framework.types import NodeScore
from ksched_cli.plugins.helpers.normalize import default_normalize_score, go_div


@pytest.mark.parametrize(
    ("reverse", "scores", "expected"),
    [
        (False, [1, 2, 3, 4], [25, 50, 75, 100]),
        (True, [1, 2, 3, 4], [75, 50, 25, 0]),
        (False, [1000, 10, 20, 30], [100, 1, 2, 3]),
        (True, [1000, 10, 20, 30], [0, 99, 98, 97]),
        (False, [1, 1, 1, 1], [100, 100, 100, 100]),
        (True, [1, 1, 1, 1], [0, 0, 0, 0]),
        (False, [0, 0, 0, 0], [0, 0, 0, 0]),
        (True, [0, 0, 0, 0], [100, 100, 100, 100]),
        (False, [], []),
        (True, [], []),
        (False, [0, 1, 3], [0, 33, 100]),
        (True, [0, 1, 3], [100, 67, 0]),
    ],
)
def test_default_normalize_score(reverse: bool, scores: list[int], expected: list[int]) -> None:
    node_scores = [NodeScore(f"n{i}", s) for i, s in enumerate(scores)]
    assert default_normalize_score(100, reverse, node_scores) is None
    assert [s.score for s in node_scores] == expected


@pytest.mark.parametrize(
    ("a", "b", "q"), [(7, 2, 3), (-7, 2, -3), (7, -2, -3), (-7, -2, 3), (0, 5, 0)]
)
def test_go_div_truncates_toward_zero(a: int, b: int, q: int) -> None:
    assert go_div(a, b) == q
