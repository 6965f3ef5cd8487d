"""The Go Quantity model behind Coscheduling's minResources gap message."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ksched_cli.api.podgroup import parse_pod_group
from ksched_cli.plugins.coscheduling.quantity import (
    BINARY_SI,
    DECIMAL_EXPONENT,
    DECIMAL_SI,
    GoQuantity,
    format_resource_list,
    new_quantity,
    parse_go_quantity,
)


@pytest.mark.parametrize(
    ("text", "value", "scale", "fmt", "cached"),
    [
        ("0", 0, 0, DECIMAL_SI, "0"),
        ("00", 0, 0, DECIMAL_SI, ""),
        ("1", 1, 0, DECIMAL_SI, "1"),
        ("-1", -1, 0, DECIMAL_SI, "-1"),
        ("1000", 1000, 0, DECIMAL_SI, ""),
        ("1k", 1, 3, DECIMAL_SI, "1k"),
        ("1.5", 15, -1, DECIMAL_SI, ""),
        ("0.5", 5, -1, DECIMAL_SI, ""),
        ("1.", 1, 0, DECIMAL_SI, "1."),
        ("100m", 100, -3, DECIMAL_SI, "100m"),
        ("1500m", 1500, -3, DECIMAL_SI, "1500m"),
        ("1000m", 1000, -3, DECIMAL_SI, ""),
        ("1n", 1, -9, DECIMAL_SI, "1n"),
        ("4Gi", 4 * 2**30, 0, BINARY_SI, "4Gi"),
        ("8Gi", 8 * 2**30, 0, BINARY_SI, ""),
        ("1024Ki", 2**20, 0, BINARY_SI, ""),
        ("1e3", 1, 3, DECIMAL_EXPONENT, "1e3"),
        ("5E-3", 5, -3, DECIMAL_EXPONENT, "5E-3"),
    ],
)
def test_parse_fast_path(text: str, value: int, scale: int, fmt: str, cached: str) -> None:
    assert parse_go_quantity(text) == GoQuantity(value, scale, fmt, cached)


@pytest.mark.parametrize(
    ("text", "fmt", "dec"),
    [
        ("1.5Gi", BINARY_SI, Fraction(3 * 2**29)),
        ("0.1n", DECIMAL_SI, Fraction(1, 10**9)),
        ("-0.1n", DECIMAL_SI, Fraction(-1, 10**9)),
        ("0.5Ki", BINARY_SI, Fraction(512)),
        ("12345678901234567890", DECIMAL_SI, Fraction(12345678901234567890)),
    ],
)
def test_parse_decimal_path(text: str, fmt: str, dec: Fraction) -> None:
    assert parse_go_quantity(text) == GoQuantity(format=fmt, dec=dec)


@pytest.mark.parametrize(
    ("start", "minus", "want"),
    [
        (parse_go_quantity("10"), new_quantity(4000, DECIMAL_SI, -3), (6000, -3, DECIMAL_SI)),
        (parse_go_quantity("1k"), new_quantity(500, BINARY_SI), (500, 0, DECIMAL_SI)),
        (parse_go_quantity("0.5"), new_quantity(1, DECIMAL_SI), (-5, -1, DECIMAL_SI)),
        (parse_go_quantity("4Gi"), GoQuantity(), (4 * 2**30, 0, BINARY_SI)),
        (new_quantity(0, DECIMAL_SI), new_quantity(-3, BINARY_SI), (3, 0, BINARY_SI)),
    ],
)
def test_sub(start: GoQuantity, minus: GoQuantity, want: tuple[int, int, str]) -> None:
    start.sub(minus)
    assert (start.value, start.scale, start.format, start.text, start.dec) == (*want, "", None)


def test_sub_overflow_falls_back_to_decimal() -> None:
    q = parse_go_quantity("9E")  # 9 * 10^18 does not fit an int64 at scale -3
    q.sub(new_quantity(1, DECIMAL_SI, -3))
    assert q.dec == Fraction(9 * 10**18) - Fraction(1, 1000)
    assert (q.value, q.scale, q.sign()) == (0, 0, 1)
    assert q.go_value_text() == "{{0 0} {0xc000000000}  DecimalSI}"


def test_format_resource_list_sorts_keys() -> None:
    items = {"pods": new_quantity(1, DECIMAL_SI), "cpu": parse_go_quantity("2")}
    assert format_resource_list(items) == (
        "map[cpu:{{2 0} {<nil>} 2 DecimalSI} pods:{{1 0} {<nil>}  DecimalSI}]"
    )


def test_pod_group_keeps_min_resources_text() -> None:
    def group(spec: dict[str, object]) -> dict[str, object]:
        return {"metadata": {"name": "g", "namespace": "ns"}, "spec": spec}

    pg = parse_pod_group(group({"minMember": 2, "minResources": {"cpu": 8, "memory": "4Gi"}}))
    assert pg.min_resources_text == {"cpu": "8", "memory": "4Gi"}
    assert pg.min_resources == {"cpu": 8000, "memory": 4 * 2**30}
    floats = parse_pod_group(group({"minResources": {"cpu": 1.5, "x/y": 2.0}}))
    assert floats.min_resources_text == {"cpu": "1.5", "x/y": "2"}
    assert parse_pod_group(group({"minResources": {}})).min_resources_text == {}
    assert parse_pod_group(group({"minMember": 1})).min_resources_text is None
