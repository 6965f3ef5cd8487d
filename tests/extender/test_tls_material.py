"""Extender TLS material: inline data stays in memory (or in a private directory removed
at once), bad material stops the run before planning with one line naming the field."""

from __future__ import annotations

import base64
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ksched_cli.cli.plan_cmd import plan as plan_cmd
from ksched_cli.cli.validate_cmd import validate
from ksched_cli.config.extenders import base64_error_offset
from ksched_cli.config.types import Extender, ExtenderTLSConfig
from ksched_cli.extender.tls import ssl_context
from ksched_cli.extender.transport import TLSSetupError

from .helpers import config_text, extender, outcome, plan, three_nodes
from .server import FakeExtender, node_names, serving
from .test_https import _self_signed

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl")


def _b64(path: str) -> str:
    return base64.b64encode(Path(path).read_bytes()).decode()


def _keep_b(body: Any) -> Any:
    return {"NodeNames": [n for n in node_names(body) if n == "b"]}


@needs_openssl
def test_inline_material_leaves_no_file_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cert, key = _self_signed(tmp_path, "server")
    client_cert, client_key = _self_signed(tmp_path, "client")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    with serving(FakeExtender({"filter": _keep_b}), tls=(cert, key)) as fake:
        text = extender(fake.url, filterVerb="filter", nodeCacheCapable=True)
        text += (
            f"  tlsConfig:\n    caData: {_b64(cert)}\n"
            f"    certData: {_b64(client_cert)}\n    keyData: {_b64(client_key)}\n"
        )
        more = "".join(
            f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\n"
            "spec: {containers: [{name: c, image: x}]}\n"
            for i in range(5)
        )
        result = plan(tmp_path, config_text(text), three_nodes(tmp_path, more))
    assert outcome(result)[:2] == ("Scheduled", "b")
    assert len(fake.calls) == 6
    assert list(scratch.iterdir()) == []  # no key, certificate or directory left


@pytest.mark.parametrize(
    ("tls", "field", "message"),
    [
        (
            ExtenderTLSConfig(ca_data=base64.b64encode(b"not a certificate").decode()),
            "tlsConfig.caData",
            "unable to load root certificates: unable to parse bytes as PEM block",
        ),
        (
            ExtenderTLSConfig(
                ca_data=base64.b64encode(b"-----BEGIN KEY-----\nAAAA\n-----END KEY-----\n").decode()
            ),
            "tlsConfig.caData",
            "unable to load root certificates: no valid certificate authority data seen",
        ),
        (
            ExtenderTLSConfig(ca_file="/nonexistent/ca.pem"),
            "tlsConfig.caFile",
            "open /nonexistent/ca.pem: no such file or directory",
        ),
        (
            ExtenderTLSConfig(insecure=True, ca_file="/etc/hosts"),
            "tlsConfig.insecure",
            "specifying a root certificates file with the insecure flag is not allowed",
        ),
        (
            ExtenderTLSConfig(
                insecure=True,
                cert_data=base64.b64encode(b"junk").decode(),
                key_data=base64.b64encode(b"junk").decode(),
            ),
            "tlsConfig.certData",
            "tls: failed to find any PEM data in certificate input",
        ),
    ],
)
def test_bad_material_names_the_field(tls: ExtenderTLSConfig, field: str, message: str) -> None:
    with pytest.raises(TLSSetupError) as caught:
        ssl_context(Extender("https://e", tls_config=tls))
    assert (caught.value.field, caught.value.message) == (field, message)


def test_a_certificate_without_a_key_is_not_used() -> None:
    # HasCertAuth wants both; client-go ignores a lone certificate.
    tls = ExtenderTLSConfig(cert_data=base64.b64encode(b"junk").decode())
    ssl_context(Extender("https://e", tls_config=tls))


@pytest.mark.parametrize("scheme", ["https", "http"])  # makeTransport ignores the scheme
def test_bad_ca_data_stops_plan_before_planning(tmp_path: Path, scheme: str) -> None:
    config = tmp_path / "config.yaml"
    junk = base64.b64encode(b"junk").decode()
    text = (
        extender(f"{scheme}://127.0.0.1:9", filterVerb="filter")
        + f"  tlsConfig:\n    caData: {junk}\n"
    )
    config.write_text(config_text(text))
    result = CliRunner().invoke(plan_cmd, [str(three_nodes(tmp_path)), "--config", str(config)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{config}: error: extenders[0].tlsConfig.caData: unable to load root certificates: "
        "unable to parse bytes as PEM block\n"
    )


def test_invalid_base64_is_a_configuration_error(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    text = extender("https://e", filterVerb="filter") + "  tlsConfig:\n    keyData: QQ=x\n"
    config.write_text(config_text(text))
    result = CliRunner().invoke(validate, [str(config)])
    assert result.exit_code == 1
    # The value itself is never printed: it may be a private key.
    assert result.stdout == (
        f"{config}:7:5: error: extenders[0].tlsConfig.keyData: "
        "illegal base64 data at input byte 2\n"
    )


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ("", None),
        ("QUJD", None),
        ("QQ==", None),
        ("QU\nJD", None),  # CR and LF are skipped
        ("QQ=", 3),
        ("Q", 0),
        ("QQ", 0),
        ("Q===", 1),
        ("QQ=x", 2),
        ("QUJDRA==x", 8),
        ("QUJD====", 4),
        ("!!!!", 0),
    ],
)
def test_go_base64_error_offsets(text: str, offset: int | None) -> None:
    assert base64_error_offset(text) == offset


def test_the_private_key_never_reaches_an_output(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    secret = base64.b64encode(b"-----BEGIN PRIVATE KEY-----\nsecret\n").decode()
    text = extender("https://e", filterVerb="filter") + f"  tlsConfig:\n    keyData: {secret}\n"
    config.write_text(config_text(text))
    result = CliRunner().invoke(validate, [str(config), "--print-effective"])
    assert result.exit_code == 0, result.output
    assert secret not in result.output
    assert "keyData: '--- REDACTED ---'" in result.stdout


def _special_tls_files(tmp_path: Path) -> tuple[Path, Path]:
    fifo = tmp_path / "ca.fifo"
    os.mkfifo(fifo)
    big = tmp_path / "big.pem"
    with big.open("wb") as handle:
        handle.truncate(5 << 20)  # sparse: 5 MiB over the 4 MiB limit, no disk used
    return fifo, big


@pytest.mark.parametrize("field", ["caFile", "certFile", "keyFile"])
def test_tls_files_must_be_regular_and_bounded(tmp_path: Path, field: str) -> None:
    fifo, big = _special_tls_files(tmp_path)
    name = {"caFile": "ca", "certFile": "cert", "keyFile": "key"}[field]
    for path, problem in (
        (fifo, "not a regular file (a named pipe)"),
        (big, "larger than the 4 MiB limit for a TLS file (5.0 MiB)"),
        (tmp_path, "not a regular file (a directory)"),
    ):
        other = {"cert": "key", "key": "cert"}.get(name)
        extra = {f"{other}_data": base64.b64encode(b"x").decode()} if other else {}
        tls = ExtenderTLSConfig(**{f"{name}_file": str(path)}, **extra)  # type: ignore[arg-type]
        with pytest.raises(TLSSetupError) as caught:
            ssl_context(Extender("https://e", tls_config=tls))
        assert (caught.value.field, caught.value.message) == (
            f"tlsConfig.{field}", f"{path}: {problem} (ksched reads regular files only)"
        )


def test_validate_lists_every_unreadable_tls_file(tmp_path: Path) -> None:
    fifo, big = _special_tls_files(tmp_path)
    config = tmp_path / "config.yaml"
    text = extender("https://e", filterVerb="filter") + (
        f"  tlsConfig:\n    caFile: {fifo}\n    certFile: {big}\n    keyFile: {tmp_path}\n"
    )
    config.write_text(config_text(text))
    result = CliRunner().invoke(validate, [str(config)])
    assert result.exit_code == 1
    suffix = "(ksched reads regular files only)"
    assert result.stdout == (
        f"{config}:7:5: error: extenders[0].tlsConfig.caFile: {fifo}: "
        f"not a regular file (a named pipe) {suffix}\n"
        f"{config}:8:5: error: extenders[0].tlsConfig.certFile: {big}: "
        f"larger than the 4 MiB limit for a TLS file (5.0 MiB) {suffix}\n"
        f"{config}:9:5: error: extenders[0].tlsConfig.keyFile: {tmp_path}: "
        f"not a regular file (a directory) {suffix}\n"
    )


def test_plan_refuses_a_fifo_ca_file_before_planning(tmp_path: Path) -> None:
    fifo, _ = _special_tls_files(tmp_path)
    config = tmp_path / "config.yaml"
    text = extender("https://127.0.0.1:9", filterVerb="filter")
    text += f"  tlsConfig:\n    caFile: {fifo}\n"
    config.write_text(config_text(text))
    result = CliRunner().invoke(plan_cmd, [str(three_nodes(tmp_path)), "--config", str(config)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.count("\n") == 1
    assert result.stderr == (
        f"{config}:7:5: error: extenders[0].tlsConfig.caFile: {fifo}: not a regular file "
        "(a named pipe) (ksched reads regular files only)\n"
    )
