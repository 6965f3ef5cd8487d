"""Plain YAML scalars typed as go-yaml v2 types them (kubectl, kube-scheduler).

sigs.k8s.io/yaml decodes YAML with go-yaml v2 into ``interface{}`` before turning it
into JSON. go-yaml v2 does not follow PyYAML's YAML 1.1 resolver: the first character
picks the candidates (a sign or digit: a number; one of ``yYnNtTfFoO~``: a word of
its table; ``.``: a float), integers are Go's ``strconv.ParseInt(s, 0, 64)`` after
dropping every ``_`` (so ``0o17``, ``0B1``, ``0X1F`` are numbers and ``08`` is the
float 8), then ``ParseUint``, then a decimal float (``1e3`` with no dot is one), and
anything Go cannot represent stays a string (an integer past uint64 that no float64
holds, ``1e400``). Sexagesimal numbers (``1:30``), ``=`` and timestamps are strings:
decoded into ``interface{}`` go-yaml keeps a timestamp's text.

``resolve_plain`` gives (tag, Go value) for a plain scalar; ``resolve_tagged`` the Go
value of a scalar with an explicit tag (``!!int "12"``), or raises ``TagMismatch`` with
go-yaml's message. ``json_value`` is what a value becomes once sigs.k8s.io/yaml has
written it as JSON (json.Marshal): a whole float below 1e21 is written as an integer
(``1e3`` is ``1000``), and NaN or an infinity is refused (``NonFinite``). Mapping keys
are not values: they keep the Go value for ``gotyping.go_key``.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from typing import Any

STR = "tag:yaml.org,2002:str"
BOOL = "tag:yaml.org,2002:bool"
INT = "tag:yaml.org,2002:int"
FLOAT = "tag:yaml.org,2002:float"
NULL = "tag:yaml.org,2002:null"
BINARY = "tag:yaml.org,2002:binary"
TIMESTAMP = "tag:yaml.org,2002:timestamp"
MERGE = "tag:yaml.org,2002:merge"
_RESOLVABLE = frozenset((STR, BOOL, INT, FLOAT, NULL, TIMESTAMP))

INT64_MAX = 2**63 - 1
UINT64_MAX = 2**64 - 1
# Decimal digits of the largest uint64: a longer decimal literal cannot be an integer to Go.
_UINT64_DIGITS = 20

_WORDS: dict[str, tuple[str, Any]] = {}
for _value, _tag, _spellings in (
    (True, BOOL, "y Y yes Yes YES true True TRUE on On ON"),
    (False, BOOL, "n N no No NO false False FALSE off Off OFF"),
    (None, NULL, "~ null Null NULL"),
    (math.nan, FLOAT, ".nan .NaN .NAN"),
    (math.inf, FLOAT, ".inf .Inf .INF +.inf +.Inf +.INF"),
    (-math.inf, FLOAT, "-.inf -.Inf -.INF"),
):
    for _spelling in _spellings.split():
        _WORDS[_spelling] = (_tag, _value)
_WORDS[""] = (NULL, None)

# The first character's hint: S(ign), D(igit), M(ap word), "." (float); others: a string.
_HINTS = {"+": "S", "-": "S", ".": ".", **dict.fromkeys("0123456789", "D"),
          **dict.fromkeys("yYnNtTfFoO~", "M")}
_YAML_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
# What Go's ParseFloat reads when the text starts with a dot (underscores checked apart).
_DOT_FLOAT = re.compile(r"\.[0-9_]+(?:[eE][-+]?[0-9][0-9_]*)?")
_DIGITS = {2: frozenset("01"), 8: frozenset("01234567"), 10: frozenset("0123456789"),
           16: frozenset("0123456789abcdefABCDEF")}
_PREFIXES = {"b": 2, "o": 8, "x": 16}


class NonFinite(ValueError):
    """A NaN or infinite value: json.Marshal refuses it, so kubectl refuses the file."""

    def __init__(self, value: float) -> None:
        text = "NaN" if math.isnan(value) else "+Inf" if value > 0 else "-Inf"
        super().__init__(f"json: unsupported value: {text}")


class TagMismatch(ValueError):
    """An explicit tag its text cannot have (go-yaml: ``cannot decode !!str `x` as a !!int``)."""


def resolve_plain(text: str) -> tuple[str, Any]:
    """The go-yaml v2 tag and Go value of the plain scalar ``text`` (timestamps: their text)."""
    return _resolve(text, timestamps=True)


# json.Marshal writes a float64 in fixed notation below this magnitude (an integer
# literal when it is whole), in exponent notation from it on.
_FIXED_LIMIT = 1e21


def json_value(value: Any) -> Any:
    """A decoded scalar as it reads back from the JSON sigs.k8s.io/yaml writes."""
    if type(value) is not float:
        return value
    if not math.isfinite(value):
        raise NonFinite(value)
    if value.is_integer() and abs(value) < _FIXED_LIMIT:
        return int(value)
    return value


def plain_value(text: str) -> Any:
    """A plain scalar in value position, as the API server receives it."""
    return json_value(_resolve(text, timestamps=True)[1])


def _resolve(text: str, timestamps: bool) -> tuple[str, Any]:
    hint = _HINTS.get(text[:1], "") if text else "M"
    if not hint:
        return STR, text
    word = _WORDS.get(text)
    if word is not None:
        return word
    if hint == "M":
        return STR, text
    if hint == ".":
        number = _dot_float(text)
        return (STR, text) if number is None else (FLOAT, number)
    if timestamps and _TIMESTAMP_START.match(text) and parse_timestamp(text):
        return TIMESTAMP, text
    return _number(text.replace("_", ""), text)


def _number(plain: str, text: str) -> tuple[str, Any]:
    integer = parse_int(plain, 0)
    if integer is None:
        integer = parse_uint(plain, 0)
    if integer is not None:
        return INT, integer
    if _YAML_FLOAT.fullmatch(plain):
        number = float(plain)
        if not math.isinf(number):  # ParseFloat's range error: the text stays a string
            return FLOAT, number
    if plain.startswith("0b"):
        integer = parse_int(plain[2:], 2)
        if integer is None:
            integer = parse_uint(plain[2:], 2)
    elif plain.startswith("-0b"):
        integer = parse_int("-" + plain[3:], 2)
    return (STR, text) if integer is None else (INT, integer)


def parse_uint(text: str, base: int) -> int | None:
    """strconv.ParseUint(text, base, 64) (base 0: a 0b/0o/0x/0 prefix picks it), or None."""
    if not text:
        return None
    if base == 0:
        base = 10
        if text[0] == "0":
            prefix = _PREFIXES.get(text[1:2].lower()) if len(text) >= 3 else None
            base, text = (prefix, text[2:]) if prefix else (8, text[1:])
    if not set(text) <= _DIGITS[base]:
        return None
    if base == 10 and len(text) > _UINT64_DIGITS:
        return None  # out of range, and spares int() Python's digit limit
    value = int(text, base) if text else 0
    return value if value <= UINT64_MAX else None


def parse_int(text: str, base: int) -> int | None:
    """strconv.ParseInt(text, base, 64), or None."""
    negative = text[:1] == "-"
    unsigned = parse_uint(text[1:] if text[:1] in ("-", "+") else text, base)
    if unsigned is None:
        return None
    if negative:
        return -unsigned if unsigned <= INT64_MAX + 1 else None
    return unsigned if unsigned <= INT64_MAX else None


def underscores_ok(text: str) -> bool:
    """Go's rule for ``_`` in a number: only between digits (or after a base prefix)."""
    saw = "^"
    body = text[1:] if text[:1] in ("-", "+") else text
    start, hexadecimal = 0, False
    if len(body) >= 2 and body[0] == "0" and body[1].lower() in "box":
        start, saw, hexadecimal = 2, "0", body[1].lower() == "x"
    for char in body[start:]:
        if char.isascii() and (char.isdigit() or (hexadecimal and char.lower() in "abcdef")):
            saw = "0"
        elif char == "_":
            if saw != "0":
                return False
            saw = "_"
        elif saw == "_":
            return False
        else:
            saw = "!"
    return saw != "_"


def _dot_float(text: str) -> float | None:
    """strconv.ParseFloat of a text that starts with a dot, or None."""
    if not _DOT_FLOAT.fullmatch(text) or ("_" in text and not underscores_ok(text)):
        return None
    number = float(text.replace("_", ""))
    return None if math.isinf(number) else number


# go-yaml v2's timestamp layouts (time.Parse): date, optional time with a T, t or space,
# fractional seconds, and with a T or t a zone (Z or +hh:mm); one- or two-digit fields.
_TIMESTAMP_START = re.compile(r"[0-9]{4}-")
_TIMESTAMP = re.compile(
    r"(?P<y>[0-9]{4})-(?P<m>[0-9]{1,2})-(?P<d>[0-9]{1,2})"
    r"(?:(?P<sep>[Tt ])(?P<H>[0-9]{1,2}):(?P<M>[0-9]{1,2}):(?P<S>[0-9]{1,2})(?:[.,][0-9]+)?"
    r"(?P<zone>Z|[-+][0-9]{2}:[0-9]{2})?)?"
)
_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def parse_timestamp(text: str) -> bool:
    """Whether one of go-yaml v2's timestamp layouts reads ``text`` (time.Parse's ranges)."""
    found = _TIMESTAMP.fullmatch(text)
    if found is None:
        return False
    if (found["sep"] in ("T", "t")) != (found["zone"] is not None):
        return False  # a zone goes with T or t only; a space-separated time has none
    year, month, day = int(found["y"]), int(found["m"]), int(found["d"])
    if not 1 <= month <= 12 or not 1 <= day <= _DAYS[month - 1]:
        return False
    if month == 2 and day == 29 and not (year % 4 == 0 and (year % 100 or year % 400 == 0)):
        return False
    if found["sep"] is None:
        return True
    return int(found["H"]) < 24 and int(found["M"]) < 60 and int(found["S"]) < 60


def _short(tag: str) -> str:
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix):] if tag.startswith(prefix) else tag


def resolve_tagged(tag: str, text: str) -> Any:
    """The Go value of a scalar written with an explicit tag, decoded into interface{}."""
    if tag == BINARY:
        try:
            return base64.b64decode(text, validate=True).decode("utf-8", "replace")
        except (binascii.Error, ValueError):
            raise TagMismatch("!!binary value contains invalid base64 data") from None
    if tag not in _RESOLVABLE or tag == STR:
        return text  # any other tag: go-yaml keeps the text
    found, value = _resolve(text, timestamps=tag == TIMESTAMP)
    if found == tag:
        return value
    if tag == FLOAT and found == INT:
        return float(value)
    raise TagMismatch(f"cannot decode {_short(found)} `{text}` as a {_short(tag)}")
