"""The client on its own: TLS settings, quantities on the wire, interest, stub replies."""

from __future__ import annotations

import ssl
from fractions import Fraction
from pathlib import Path

import pytest

from ksched_cli.config.types import Extender, ExtenderTLSConfig
from ksched_cli.extender.stub import StubTransport
from ksched_cli.extender.tls import ssl_context
from ksched_cli.extender.transport import ExtenderError
from ksched_cli.extender.wire import _quantity, field


def test_https_without_a_ca_does_not_verify() -> None:
    # makeTransport: enableHTTPS and no CA file or data means Insecure.
    context = ssl_context(Extender("https://e", enable_https=True))
    assert context.verify_mode == ssl.CERT_NONE and not context.check_hostname


def test_insecure_tls_config_does_not_verify() -> None:
    tls = ExtenderTLSConfig(insecure=True)
    assert ssl_context(Extender("https://e", tls_config=tls)).verify_mode == ssl.CERT_NONE


def test_https_url_without_enable_https_verifies() -> None:
    assert ssl_context(Extender("https://e")).verify_mode == ssl.CERT_REQUIRED


@pytest.mark.parametrize(
    ("value", "text"), [(Fraction(4), "4"), (Fraction(1, 2), "500m"), (Fraction(1, 3000), "1m")]
)
def test_quantities(value: Fraction, text: str) -> None:
    assert _quantity(value) == text


def test_fields_match_case_insensitively_as_go_decodes() -> None:
    assert field({"nodeNames": ["a"]}, "NodeNames") == ["a"]
    assert field({"NodeNames": ["b"], "nodenames": ["a"]}, "NodeNames") == ["b"]


def test_stub_replays_errors(tmp_path: Path) -> None:
    path = tmp_path / "stub.json"
    path.write_text('{"http://e/bind": [{"request": {"x": 1}, "error": "boom"}]}')
    stub = StubTransport(str(path))
    with pytest.raises(ExtenderError, match=r"^boom$"):
        stub.post(Extender("http://e"), "bind", "http://e/bind", {"x": 1})
