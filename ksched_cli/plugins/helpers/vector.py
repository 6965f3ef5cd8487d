"""Array forms of shared score helpers, exact to their per-node Go counterparts."""

from __future__ import annotations

from ...framework.columns import IntArray
from ...lazy_numpy import np


def go_div_array(a: IntArray, b: int) -> IntArray:
    """Go's int64 division by a positive scalar, truncating toward zero."""
    q: IntArray = np.abs(a) // b
    return np.where(a >= 0, q, -q)


def default_normalize_array(max_priority: int, reverse: bool, scores: IntArray) -> IntArray:
    """helper.DefaultNormalizeScore on an array (see helpers/normalize.py)."""
    max_count = int(scores.max(initial=0))
    if max_count <= 0:
        return np.zeros_like(scores) + max_priority if reverse else scores
    scaled = go_div_array(max_priority * scores, max_count)
    return max_priority - scaled if reverse else scaled
