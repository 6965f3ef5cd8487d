"""A resource.Quantity with its format, printed as Go's ``Quantity.String`` prints it.

Only messages need the format: amounts stay exact Fractions everywhere else.
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import ObjectError
from ..record import record
from .fields import Raw, mapping
from .quantity import QuantityError, parse_quantity

DECIMAL_SI = "DecimalSI"
BINARY_SI = "BinarySI"
DECIMAL_EXPONENT = "DecimalExponent"

_BINARY_SUFFIXES = ("Ki", "Mi", "Gi", "Ti", "Pi", "Ei")
_DECIMAL_SUFFIXES = {-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T",
                     15: "P", 18: "E"}


@record(frozen=True, slots=True)
class Quantity:
    """A resource.Quantity: its exact value and the format Go prints it in."""

    value: Fraction
    format: str = DECIMAL_SI

    def plus(self, other: Quantity) -> Quantity:
        """Quantity.Add: the sum keeps the receiver's format unless the receiver is zero."""
        fmt = other.format if self.value == 0 else self.format
        return Quantity(self.value + other.value, fmt)

    def go_quote(self) -> str:
        return f'"{self}"'  # quantity text is always printable

    def __str__(self) -> str:
        value, fmt = self.value, self.format
        if value == 0:
            return "0"
        if fmt == BINARY_SI and (abs(value) < 1024 or value.denominator != 1):
            fmt = DECIMAL_SI
        if fmt == BINARY_SI:
            return _binary(int(value))
        mantissa, exponent = _canonical_decimal(value)
        if fmt == DECIMAL_SI and exponent in _DECIMAL_SUFFIXES:
            return f"{mantissa}{_DECIMAL_SUFFIXES[exponent]}"
        return f"{mantissa}e{exponent}" if exponent else str(mantissa)


def format_of(text: object) -> str:
    """The format ParseQuantity gives a quantity written as ``text``."""
    if isinstance(text, str):
        stripped = text.rstrip("0123456789+-")
        if stripped.endswith("i"):
            return BINARY_SI
        if stripped[-1:] in ("e", "E"):
            return DECIMAL_EXPONENT
    return DECIMAL_SI


def _binary(value: int) -> str:
    """AsCanonicalBase1024Bytes: the largest power of 1024 that divides exactly."""
    power = 0
    while power < len(_BINARY_SUFFIXES) and value % 1024 == 0:
        value //= 1024
        power += 1
    return f"{value}{_BINARY_SUFFIXES[power - 1]}" if power else str(value)


def _canonical_decimal(value: Fraction) -> tuple[int, int]:
    """AsCanonicalBytes: mantissa and an exponent that is a multiple of 3, as large as exact.

    Amounts are held to nano precision as the API server holds them (rounded up).
    """
    nanos = -((-value.numerator * 10**9) // value.denominator)
    exponent = -9
    while nanos % 1000 == 0 and exponent < 18:
        nanos //= 1000
        exponent += 3
    return nanos, exponent


def parse_list(raw: Raw, key: str, path: str) -> dict[str, Quantity]:
    """A resource list with each quantity's format (as parse_resource_list, plus formats)."""
    out: dict[str, Quantity] = {}
    for name, text in mapping(raw, key, path).items():
        try:
            out[str(name)] = Quantity(parse_quantity(text), format_of(text))
        except (QuantityError, TypeError) as exc:
            raise ObjectError(f"{path}.{key}.{name}", str(exc)) from None
    return out
