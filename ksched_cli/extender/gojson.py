"""Reading a reply body as Go's ``json.NewDecoder(body).Decode`` does, with its errors.

The Decoder reads the first JSON value and ignores what follows it; a body that ends
inside the value is ``unexpected EOF``, an empty one ``EOF``, and a syntax error is
worded by encoding/json's scanner (``invalid character 'x' looking for beginning of
value``). Python's parser does the work; Go's scanner is replayed only to word an
error, so well-formed replies cost nothing extra.
"""

from __future__ import annotations

import json
import re
from typing import Any

# Python's parser recurses; Go's allows 10,000 levels. No extender reply is anywhere near
# this deep, so ksched stops here rather than exhaust the stack.
MAX_DEPTH = 500
_WS = b" \t\r\n"
_STRING_RUN = re.compile(rb'[^"\\\x00-\x1f]*')
_HEX = frozenset(b"0123456789abcdefABCDEF")
_ESCAPES = frozenset(b'bfnrt\\/"')
_LITERALS = {ord("t"): b"true", ord("f"): b"false", ord("n"): b"null"}


class GoJSONError(ValueError):
    """``str()`` is the error Go's Decoder returns for the same bytes."""


class JSONObject(dict[str, Any]):
    """A decoded object that remembers every key in order, repeated ones included."""

    pairs: list[tuple[str, Any]]


class GoFloat(float):
    """A JSON number with a fraction or exponent, keeping its text for Go's messages."""

    literal: str


def _object(pairs: list[tuple[str, Any]]) -> JSONObject:
    obj = JSONObject(pairs)
    obj.pairs = pairs
    return obj


def _float(text: str) -> GoFloat:
    number = GoFloat(text)
    number.literal = text
    return number


def _no_constant(name: str) -> Any:
    raise ValueError(name)  # NaN and Infinity are not JSON; the scanner words the error


_DECODER = json.JSONDecoder(
    object_pairs_hook=_object, parse_float=_float, parse_constant=_no_constant
)


def decode(data: bytes, complete: bool = True) -> Any:
    """The first JSON value of ``data``; ``complete`` is False when the body was cut short."""
    text = data.decode("utf-8", errors="replace")  # Go puts U+FFFD for invalid UTF-8
    start = len(text) - len(text.lstrip(" \t\r\n"))
    try:
        value, end = _DECODER.raw_decode(text, start)
    except (ValueError, RecursionError) as exc:
        raise GoJSONError(syntax_error(data, exc)) from None
    if data.count(b"[") + data.count(b"{") > MAX_DEPTH and deeper_than(value, MAX_DEPTH):
        raise GoJSONError(_too_deep())  # Python read it, but later steps recurse as deep
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if number and text[end : end + 1] in (".", "e", "E"):
        raise GoJSONError(syntax_error(data, None))  # "1." or "1e": Python stops, Go not
    if not complete and end == len(text) and number:
        # A number running to the cut needs the byte after it, which never came.
        raise GoJSONError("unexpected EOF")
    return value


def deeper_than(value: Any, limit: int) -> bool:
    """Whether lists and objects in ``value`` nest more than ``limit`` levels."""
    todo = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > limit:
                    return True
                todo.append((child, depth + 1))
    return False


def quote_char(c: int) -> str:
    """encoding/json's quoteChar: the byte as Go's strconv.Quote shows a rune, in '...'."""
    if c == ord("'"):
        return "'\\''"
    if c == ord('"'):
        return "'\"'"
    special = {7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}
    if c in special:
        return f"'{special[c]}'"
    if c == ord("\\"):
        return "'\\\\'"
    char = chr(c)
    if c < 0x20 or c == 0x7F:
        return f"'\\x{c:02x}'"
    if not char.isprintable():
        return f"'\\u{c:04x}'"
    return f"'{char}'"


def syntax_error(data: bytes, python_error: BaseException | None) -> str:
    """What Go's Decoder says about ``data``, which Python could not parse."""
    message = _Scanner(data).run()
    if message is not None:
        return message
    # Go's scanner accepts it: only Python's own limits refuse it (nesting, or a number
    # of more than 4,300 digits), and ksched keeps them.
    if isinstance(python_error, RecursionError):
        return _too_deep()
    return f"ksched cannot decode this reply: {python_error}"


def _too_deep() -> str:
    return f"exceeded max depth (ksched reads at most {MAX_DEPTH} levels)"


class _Scanner:
    """encoding/json's scanner states, enough to word the first error it meets."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.i = 0
        self.stack: list[str] = []  # "key" / "value" (inside an object) or "array"

    def _skip_ws(self) -> int | None:
        data, n = self.data, len(self.data)
        while self.i < n and data[self.i] in _WS:
            self.i += 1
        return data[self.i] if self.i < n else None

    def run(self) -> str | None:
        """Go's error for the data, or None when Go's scanner accepts it."""
        if self._skip_ws() is None:
            return "EOF"
        expect = "value"
        try:
            while expect != "end" or self.stack:
                if expect == "value":
                    expect = self._value()
                elif expect == "key":
                    self._key()
                    expect = "end"
                else:
                    expect = self._after_value()
        except _Stop as stop:
            return stop.message
        return None

    def _bad(self, c: int, context: str) -> _Stop:
        return _Stop(f"invalid character {quote_char(c)} {context}")

    def _next(self) -> int:
        if self.i >= len(self.data):
            raise _Stop("unexpected EOF")
        c = self.data[self.i]
        self.i += 1
        return c

    def _value(self) -> str:
        """stateBeginValue; returns what the scanner expects next."""
        c = self._skip_ws()
        if c is None:
            raise _Stop("unexpected EOF")
        self.i += 1
        if c in (ord("{"), ord("[")):
            return self._open("key" if c == ord("{") else "array", c + 2)  # '}' / ']'
        if c == ord('"'):
            self._string()
        elif c == ord("-") or ord("0") <= c <= ord("9"):
            self._number(c)
        elif c in _LITERALS:
            word = _LITERALS[c]
            for expected in word[1:]:
                got = self._next()
                if got != expected:
                    literal = word.decode()
                    raise self._bad(got, f"in literal {literal} (expecting {quote_char(expected)})")
        else:
            raise self._bad(c, "looking for beginning of value")
        return "end"

    def _open(self, kind: str, close: int) -> str:
        if len(self.stack) >= MAX_DEPTH:
            raise _Stop(_too_deep())
        if self._skip_ws() == close:
            self.i += 1
            return "end"
        self.stack.append(kind)
        return "key" if kind == "key" else "value"

    def _key(self) -> None:
        c = self._skip_ws()
        if c is None:
            raise _Stop("unexpected EOF")
        self.i += 1
        if c != ord('"'):
            raise self._bad(c, "looking for beginning of object key string")
        self._string()

    def _after_value(self) -> str:
        """stateEndValue: what may follow a value inside an object or array."""
        c = self._skip_ws()
        if c is None:
            raise _Stop("unexpected EOF")
        self.i += 1
        top = self.stack[-1]
        if top == "key":
            if c != ord(":"):
                raise self._bad(c, "after object key")
            self.stack[-1] = "value"
            return "value"
        if top == "value":
            if c == ord(","):
                self.stack[-1] = "key"
                return "key"
            if c != ord("}"):
                raise self._bad(c, "after object key:value pair")
        elif c == ord(","):
            return "value"
        elif c != ord("]"):
            raise self._bad(c, "after array element")
        self.stack.pop()
        return "end"

    def _string(self) -> None:
        while True:
            match = _STRING_RUN.match(self.data, self.i)
            self.i = match.end() if match else self.i
            c = self._next()
            if c == ord('"'):
                return
            if c < 0x20:
                raise self._bad(c, "in string literal")
            c = self._next()  # after a backslash
            if c == ord("u"):
                for _ in range(4):
                    h = self._next()
                    if h not in _HEX:
                        raise self._bad(h, "in \\u hexadecimal character escape")
            elif c not in _ESCAPES:
                raise self._bad(c, "in string escape code")

    def _digits(self) -> int:
        start = self.i
        while self.i < len(self.data) and ord("0") <= self.data[self.i] <= ord("9"):
            self.i += 1
        return self.i - start

    def _peek(self) -> int | None:
        return self.data[self.i] if self.i < len(self.data) else None

    def _number(self, first: int) -> None:
        if first == ord("-"):
            c = self._next()
            if not ord("0") <= c <= ord("9"):
                raise self._bad(c, "in numeric literal")
            first = c
        if first != ord("0"):
            self._digits()
        if self._peek() == ord("."):
            self.i += 1
            if not self._digits():
                raise self._bad(self._next(), "after decimal point in numeric literal")
        if self._peek() in (ord("e"), ord("E")):
            self.i += 1
            if self._peek() in (ord("+"), ord("-")):
                self.i += 1
            if not self._digits():
                raise self._bad(self._next(), "in exponent of numeric literal")


class _Stop(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
