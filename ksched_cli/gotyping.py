"""YAML read as kubectl reads it: go-yaml v2 (YAML 1.1) through sigs.k8s.io/yaml.

kubectl converts YAML to JSON before decoding (sigs.k8s.io/yaml's YAMLToJSON, with no
target type): every mapping key becomes a string there (a boolean key ``true`` or
``false``, a number its decimal or shortest float32 form; a null key is refused), while
values keep their YAML type, so a boolean or a number where the API has a string (a
label value) is refused by the API server's typed decoding. How go-yaml v2 types a
plain scalar in the first place is ``goresolve``'s.
"""

from __future__ import annotations

import math
import struct
from typing import Any


class NullKey(ValueError):
    """A mapping key that is null: sigs.k8s.io/yaml refuses it."""

    def __init__(self, value: Any) -> None:
        super().__init__(
            "Unsupported map key of type: %!s(<nil>), key: <nil> (a mapping key must not be null)"
        )
        self.value = value


class UnsupportedKey(NullKey):
    """A key go-yaml v2 decodes as uint64 (past int64): sigs.k8s.io/yaml has no case for it."""

    def __init__(self, value: int) -> None:
        ValueError.__init__(self, f"unsupported map key of type: uint64, key: {value:#x}")
        self.value = value


INT64_MAX = 2**63 - 1


def go_key(key: Any) -> str:
    """A mapping key as convertToJSONableObject turns it into a JSON key."""
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, int):
        if key > INT64_MAX:
            raise UnsupportedKey(key)
        return str(key)
    if isinstance(key, float):
        return go_float32_g(key)
    if key is None:
        raise NullKey(key)
    return str(key)  # dates and other PyYAML types: their text, as go-yaml v2 keeps it


def go_float32_g(value: float) -> str:
    """strconv.FormatFloat(value, 'g', -1, 32), spelled as go-yaml spells infinities."""
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    single = struct.unpack("f", struct.pack("f", value))[0] if abs(value) < 3.5e38 else value
    digits, exponent = _shortest32(single)
    sign = "-" if math.copysign(1.0, single) < 0 else ""
    if exponent < -4 or exponent >= 6:  # shortest: %e when the exponent is outside [-4, 6)
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{mantissa}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"
    point = exponent + 1
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return f"{sign}{digits}{'0' * (point - len(digits))}"
    return f"{sign}{digits[:point]}.{digits[point:]}"


def _shortest32(value: float) -> tuple[str, int]:
    """The fewest significant digits that read back as the same float32, and the
    decimal exponent of the first one."""
    if value == 0:
        return "0", 0
    target = struct.pack("f", value)
    for precision in range(1, 10):
        text = f"{abs(value):.{precision - 1}e}"
        if struct.pack("f", float(text)) == target:
            mantissa, exp = text.split("e")
            return mantissa.replace(".", "").rstrip("0") or "0", int(exp)
    text = f"{abs(value):.8e}"
    mantissa, exp = text.split("e")
    return mantissa.replace(".", "").rstrip("0"), int(exp)
