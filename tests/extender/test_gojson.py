"""Reply bodies read as Go's json.Decoder reads them, errors in encoding/json's words."""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.extender.gojson import GoFloat, GoJSONError, decode, quote_char
from ksched_cli.extender.replies import errorf


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "EOF"),
        (b" \n\t", "EOF"),
        (b'{"a":1', "unexpected EOF"),
        (b"tru", "unexpected EOF"),
        (b"-", "unexpected EOF"),
        (b"1.", "unexpected EOF"),
        (b'{"a" 1}', "invalid character '1' after object key"),
        (b'{"a":1 x}', "invalid character 'x' after object key:value pair"),
        (b"[1 2]", "invalid character '2' after array element"),
        (b"{1:2}", "invalid character '1' looking for beginning of object key string"),
        (b"trux", "invalid character 'x' in literal true (expecting 'e')"),
        (b"nul!", "invalid character '!' in literal null (expecting 'l')"),
        (b"-x", "invalid character 'x' in numeric literal"),
        (b"1.x", "invalid character 'x' after decimal point in numeric literal"),
        (b"1ex", "invalid character 'x' in exponent of numeric literal"),
        (b'"\x01"', "invalid character '\\x01' in string literal"),
        (b'"\\x"', "invalid character 'x' in string escape code"),
        (b'"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"),
        (b"NaN", "invalid character 'N' looking for beginning of value"),
        (b"\xef\xbb\xbf{}", "invalid character '\u00ef' looking for beginning of value"),
        (b"'a'", "invalid character '\\'' looking for beginning of value"),
        (b"[" * 600, "exceeded max depth (ksched reads at most 500 levels)"),
    ],
)
def test_syntax_errors(data: bytes, message: str) -> None:
    with pytest.raises(GoJSONError) as caught:
        decode(data)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("data", "value"),
    [
        (b'{"a":1} trailing', {"a": 1}),  # Decode stops after the first value
        (b"01", 0),
        (b" [true, null] ", [True, None]),
    ],
)
def test_first_value_only(data: bytes, value: Any) -> None:
    assert decode(data) == value


def test_a_cut_body_needs_the_whole_value() -> None:
    assert decode(b'{"a": 1}', complete=False) == {"a": 1}
    with pytest.raises(GoJSONError, match=r"^unexpected EOF$"):
        decode(b"123", complete=False)


def test_numbers_keep_their_text_and_keys_their_repeats() -> None:
    value = decode(b'{"n": 1e2, "k": 1, "k": 2}')
    assert isinstance(value["n"], GoFloat) and value["n"].literal == "1e2"
    assert value.pairs == [("n", 100.0), ("k", 1), ("k", 2)]


@pytest.mark.parametrize(
    ("c", "text"), [(ord("a"), "'a'"), (10, "'\\n'"), (0, "'\\x00'"), (0x80, "'\\u0080'")]
)
def test_quote_char(c: int, text: str) -> None:
    assert quote_char(c) == text


@pytest.mark.parametrize(
    ("error", "text"),
    [
        ("no room", "no room"),
        ("100% sure", "100%!s(MISSING)ure"),
        ("50%% off", "50% off"),
        ("cut %", "cut %!(NOVERB)"),
        ("%d nodes", "%!d(MISSING) nodes"),
    ],
)
def test_reply_errors_go_through_errorf(error: str, text: str) -> None:
    assert errorf(error) == text


def test_nesting_python_reads_is_still_capped() -> None:
    # Recording re-encodes replies recursively: deeper values never get that far.
    with pytest.raises(GoJSONError, match=r"^exceeded max depth \(ksched reads at most 500"):
        decode(b"[" * 501 + b"]" * 501)
    assert decode(b"[" * 500 + b"]" * 500) is not None


def test_numbers_beyond_pythons_digit_limit() -> None:
    with pytest.raises(GoJSONError, match=r"^ksched cannot decode this reply: Exceeds the limit"):
        decode(b"[" + b"1" * 5000 + b"]")
