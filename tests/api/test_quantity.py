from __future__ import annotations

from fractions import Fraction

import pytest

from ksched_cli.api.quantity import QuantityError, ceil_int, milli_value, parse_quantity


@pytest.mark.parametrize(
    ("text", "exact", "milli", "value"),
    [
        ("100m", Fraction(1, 10), 100, 1),
        ("1.5", Fraction(3, 2), 1500, 2),
        ("1Gi", Fraction(2**30), 2**30 * 1000, 2**30),
        ("500Mi", Fraction(500 * 2**20), 500 * 2**20 * 1000, 500 * 2**20),
        ("1e3", Fraction(1000), 1_000_000, 1000),
        ("2k", Fraction(2000), 2_000_000, 2000),
        ("0.0001", Fraction(1, 10000), 1, 1),  # milli-value rounds up, as Quantity.MilliValue
        ("1E", Fraction(10**18), 10**21, 10**18),
        ("-1", Fraction(-1), -1000, -1),
        (".5", Fraction(1, 2), 500, 1),
        ("3", Fraction(3), 3000, 3),
        (2, Fraction(2), 2000, 2),
        ("1n", Fraction(1, 10**9), 1, 1),
    ],
)
def test_parse_quantity(text: str | int, exact: Fraction, milli: int, value: int) -> None:
    q = parse_quantity(text)
    assert q == exact
    assert milli_value(q) == milli
    assert ceil_int(q) == value


@pytest.mark.parametrize("text", ["", "abc", "1.2.3", "1Qi", " 1", "1 Gi", "Gi"])
def test_unparsable(text: str) -> None:
    with pytest.raises(QuantityError, match="quantities must match the regular expression"):
        parse_quantity(text)
