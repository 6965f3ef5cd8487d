"""PodTopologySpread's array Score and NormalizeScore equal the per-node arithmetic."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_cli.framework.types import NodeScore
from ksched_cli.plugins.podtopologyspread.common import go_round
from ksched_cli.plugins.podtopologyspread.score_vector import go_round_array, normalize_array
from ksched_cli.plugins.podtopologyspread.scoring import PreScoreState, normalize_scores

BELOW_HALF = math.nextafter(0.5, 0.0)  # 0.49999999999999994: floor(x + 0.5) gets it wrong


@pytest.mark.parametrize(
    ("value", "want"),
    [
        (0.0, 0),
        (BELOW_HALF, 0),
        (0.5, 1),
        (1.5, 2),
        (2.5, 3),
        (2.4999999999999996, 2),
        (-0.5, -1),
        (-2.5, -3),
        (7.0 * math.log(6) + 1, 14),
        (2.0**52 + 1, 2**52 + 1),
    ],
)
def test_go_round_array_rounds_halves_away_from_zero(value: float, want: int) -> None:
    assert go_round(value) == want
    assert go_round_array(np.array([value], dtype=np.float64)).tolist() == [want]


def _normalize_per_node(raw: list[int], ignored: list[bool]) -> list[int]:
    names = [f"n{i}" for i in range(len(raw))]
    state = PreScoreState([], [], {n for n, skip in zip(names, ignored, strict=True) if skip},
                          {}, [])
    scores = [NodeScore(n, v) for n, v in zip(names, raw, strict=True)]
    normalize_scores(state, scores)
    return [s.score for s in scores]


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(min_value=0, max_value=10**6), st.booleans()),
        min_size=1,
        max_size=30,
    )
)
def test_normalize_array_equals_normalize_scores(rows: list[tuple[int, bool]]) -> None:
    raw = [v for v, _ in rows]
    ignored = [skip for _, skip in rows]
    state = PreScoreState([], [], set(), {}, [], np.arange(len(raw), dtype=np.int64),
                          np.array(ignored, dtype=np.bool_))
    out = normalize_array(state, np.array(raw, dtype=np.int64))
    assert out is not None
    assert out.tolist() == _normalize_per_node(raw, ignored)


def test_normalize_array_declines_scores_of_other_nodes() -> None:
    state = PreScoreState([], [], set(), {}, [], np.arange(3, dtype=np.int64),
                          np.zeros(3, dtype=np.bool_))
    assert normalize_array(state, np.array([1, 2], dtype=np.int64)) is None
    assert normalize_array(PreScoreState([], [], set(), {}, []), np.array([1])) is None
