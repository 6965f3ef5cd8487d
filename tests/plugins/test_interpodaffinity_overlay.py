"""A cloned state's counts (an overlay on the original's) behave as a copied dict."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_cli.plugins.interpodaffinity.filtering import _bump
from ksched_cli.plugins.interpodaffinity.overlay import CountsOverlay, overlay

PAIRS = [("zone", z) for z in "abc"] + [("host", h) for h in "xyz"]
bumps = st.lists(st.tuples(st.sampled_from(PAIRS), st.sampled_from([-2, -1, 1, 2])))


def _apply(counts: dict[tuple[str, str], int] | CountsOverlay, ops: list) -> None:  # type: ignore[type-arg]
    for pair, n in ops:
        _bump(counts, pair, n)


def _same(view: CountsOverlay, want: dict[tuple[str, str], int]) -> None:
    assert view == want
    assert len(view) == len(want)
    assert bool(view) == bool(want)
    assert dict(view.items()) == want
    assert set(view) == set(want)
    for pair in PAIRS:
        assert view.get(pair, 0) == want.get(pair, 0)
        assert (pair in view) == (pair in want)


@settings(max_examples=200, deadline=None)
@given(bumps, bumps, bumps)
def test_overlay_counts_as_a_copied_dict(base_ops: list, ops: list, more: list) -> None:  # type: ignore[type-arg]
    base: dict[tuple[str, str], int] = {}
    _apply(base, base_ops)
    frozen = dict(base)
    view, want = overlay(base), dict(base)
    _apply(view, ops)
    _apply(want, ops)
    _same(view, want)
    # A clone of the clone goes its own way; neither changes the base.
    again, want_again = overlay(view), dict(want)
    _apply(again, more)
    _apply(want_again, more)
    _same(again, want_again)
    _same(view, want)
    assert base == frozen
