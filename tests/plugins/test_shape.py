"""Broken linear scoring shapes, ported from TestBrokenLinearFunction."""

from __future__ import annotations

import pytest

from ksched_cli.plugins.helpers.shape import FunctionShapePoint, build_broken_linear_function

RISING = [(10, 1), (90, 9)]
PEAK = [(0, 2), (40, 10), (100, 0)]
FLAT = [(0, 2), (40, 2), (100, 2)]
FALLING = [(0, 100), (100, 0)]


@pytest.mark.parametrize(
    ("points", "p", "want"),
    [
        (RISING, -10, 1), (RISING, 0, 1), (RISING, 9, 1), (RISING, 10, 1), (RISING, 15, 1),
        (RISING, 19, 1), (RISING, 20, 2), (RISING, 89, 8), (RISING, 90, 9), (RISING, 99, 9),
        (RISING, 100, 9), (RISING, 110, 9),
        (PEAK, -10, 2), (PEAK, 0, 2), (PEAK, 20, 6), (PEAK, 30, 8), (PEAK, 40, 10),
        (PEAK, 70, 5), (PEAK, 100, 0), (PEAK, 110, 0),
        (FLAT, -10, 2), (FLAT, 0, 2), (FLAT, 20, 2), (FLAT, 30, 2), (FLAT, 40, 2),
        (FLAT, 70, 2), (FLAT, 100, 2), (FLAT, 110, 2),
        # A falling segment truncates toward zero: 100 + (-100 * 75) / 100 = 25.
        (FALLING, 75, 25), ([(0, 10), (3, 0)], 1, 7),
    ],
)
def test_broken_linear_function(points: list[tuple[int, int]], p: int, want: int) -> None:
    shape = [FunctionShapePoint(u, s) for u, s in points]
    assert build_broken_linear_function(shape)(p) == want
