"""Just enough of apimachinery v0.30's resource.Quantity to reproduce the minResources gap.

CheckClusterResource subtracts each node's free resources from the group's minResources
and, when something is left, reports the remaining ResourceList with ``%v``. Go prints a
Quantity value field by field (its String method needs a pointer), so the message shows
the internal int64Amount (value and scale), which depends on how each quantity was parsed
and on the scales of what was subtracted. This module keeps that representation.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ...api.quantity import parse_quantity
from ...record import record

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
NANO_SCALE = -9
MAX_INT64_FACTORS = 18

DECIMAL_SI = "DecimalSI"
BINARY_SI = "BinarySI"
DECIMAL_EXPONENT = "DecimalExponent"

# Go prints a pointer here, an address ksched cannot know; any fixed text stands in.
DEC_POINTER = "0xc000000000"

_DECIMAL_SUFFIXES = {"": 0, "n": -9, "u": -6, "m": -3, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15,
                     "E": 18}
_BINARY_SUFFIXES = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_SPLIT = re.compile(r"^([+-]?)(0*)(\d*)(?:\.(\d*))?(.*)$")


def _fits(value: int) -> bool:
    return INT64_MIN <= value <= INT64_MAX


@record(slots=True)
class GoQuantity:
    """int64Amount (value, scale), Format, the cached string ``s``, or an inf.Dec value."""

    value: int = 0
    scale: int = 0
    format: str = ""
    text: str = ""
    dec: Fraction | None = None

    def exact(self) -> Fraction:
        if self.dec is not None:
            return self.dec
        return Fraction(self.value) * Fraction(10) ** self.scale

    def sign(self) -> int:
        if self.dec is not None:
            return (self.dec > 0) - (self.dec < 0)
        return (self.value > 0) - (self.value < 0)

    def sub(self, other: GoQuantity) -> None:
        """Quantity.Sub: int64 arithmetic while it fits, else exact decimals."""
        self.text = ""
        if self.sign() == 0:
            self.format = other.format
        if self.dec is None and other.dec is None and self._add_int(-other.value, other.scale):
            return
        self.dec = self.exact() - other.exact()
        self.value = self.scale = 0

    def _add_int(self, value: int, scale: int) -> bool:
        """int64Amount.Add: the result takes the smaller scale; False on overflow."""
        if value == 0:
            return True
        if self.value == 0:
            self.value, self.scale = value, scale
            return True
        low = min(self.scale, scale)
        total = self.value * 10 ** (self.scale - low) + value * 10 ** (scale - low)
        mine = self.value * 10 ** (self.scale - low)
        theirs = value * 10 ** (scale - low)
        if not (_fits(mine) and _fits(theirs) and _fits(total)):
            return False
        self.value, self.scale = total, low
        return True

    def go_value_text(self) -> str:
        """``%v`` of the Quantity struct: {i d s Format}."""
        dec = "<nil>" if self.dec is None else DEC_POINTER
        return f"{{{{{self.value} {self.scale}}} {{{dec}}} {self.text} {self.format}}}"


def new_quantity(value: int, fmt: str, scale: int = 0) -> GoQuantity:
    """resource.NewQuantity / NewMilliQuantity (scale -3)."""
    return GoQuantity(value=value, scale=scale, format=fmt)


def parse_go_quantity(text: str) -> GoQuantity:
    """resource.ParseQuantity for a string ksched already validated."""
    if text == "0":
        return GoQuantity(format=DECIMAL_SI, text=text)
    match = _SPLIT.match(text)
    assert match is not None, text
    sign, _zeros, num, denom, suffix = match.groups()
    num, denom = num or "0", denom or ""
    base, exponent, fmt = _interpret(suffix)
    fast = _fast_path(text, sign != "-", num, denom, base, exponent, fmt)
    if fast is not None:
        return fast
    return _dec_path(text, fmt)


def _interpret(suffix: str) -> tuple[int, int, str]:
    if suffix in _DECIMAL_SUFFIXES:
        return 10, _DECIMAL_SUFFIXES[suffix], DECIMAL_SI
    if suffix in _BINARY_SUFFIXES:
        return 2, _BINARY_SUFFIXES[suffix], BINARY_SI
    return 10, int(suffix[1:]), DECIMAL_EXPONENT


def _fast_path(
    text: str, positive: bool, num: str, denom: str, base: int, exponent: int, fmt: str
) -> GoQuantity | None:
    mantissa = 1
    if base == 10:
        scale = exponent
        precision = MAX_INT64_FACTORS - (len(num) + len(denom))
    elif exponent >= 0 and not denom:
        scale = 0
        mantissa = 1 << exponent
        # Go computes float32(exponent)*3/10 and truncates it toward zero.
        precision = 15 - len(num) - int(exponent * 3 / 10) - 1
    else:
        return None
    if precision < 0:
        return None
    scale -= len(denom)
    if scale < NANO_SCALE:
        return None
    shifted = num + denom
    value = int(shifted)
    if not _fits(value) or not _fits(value * mantissa):
        return None
    result = value * mantissa if positive else -value * mantissa
    canonical = (
        exponent % 10 == 0 and value & 0x07 != 0
        if fmt == BINARY_SI
        else scale % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0"
    )
    return GoQuantity(value=result, scale=scale, format=fmt, text=text if canonical else "")


def _dec_path(text: str, fmt: str) -> GoQuantity:
    """The inf.Dec form: rounded away from zero to nanos, BinarySI capped at int64."""
    amount = parse_quantity(text)
    magnitude = abs(amount)
    nanos = -((-magnitude.numerator * 10**9) // magnitude.denominator)
    magnitude = Fraction(nanos, 10**9)
    if fmt == BINARY_SI and magnitude > INT64_MAX:
        magnitude = Fraction(INT64_MAX)
    if fmt == BINARY_SI and 0 < magnitude < 1:
        fmt = DECIMAL_SI
    return GoQuantity(format=fmt, dec=-magnitude if amount < 0 else magnitude)


def format_resource_list(items: dict[str, GoQuantity]) -> str:
    """``%v`` of a v1.ResourceList: Go prints map keys sorted."""
    body = " ".join(f"{name}:{items[name].go_value_text()}" for name in sorted(items))
    return f"map[{body}]"
