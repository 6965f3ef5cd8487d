"""Extenders over HTTPS: enableHTTPS without a CA skips verification (as kube-scheduler's
transport does), a tlsConfig caFile verifies the server, a wrong CA fails the call."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .helpers import config_text, extender, outcome, plan, three_nodes
from .server import FakeExtender, node_names, serving

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl")


def _self_signed(directory: Path, name: str) -> tuple[str, str]:
    cert, key = directory / f"{name}.crt", directory / f"{name}.key"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return str(cert), str(key)


def _keep_only_b(body: Any) -> Any:
    return {"NodeNames": [n for n in node_names(body) if n == "b"], "FailedNodes": {}}


@pytest.mark.parametrize("verify", ["insecure", "ca-file"])
def test_https_extender_filters(tmp_path: Path, verify: str) -> None:
    cert, key = _self_signed(tmp_path, "server")
    with serving(FakeExtender({"filter": _keep_only_b}), tls=(cert, key)) as fake:
        fields: dict[str, Any] = {
            "filterVerb": "filter",
            "nodeCacheCapable": True,
            "enableHTTPS": True,
        }
        text = extender(fake.url, **fields)
        if verify == "ca-file":
            text += f"  tlsConfig:\n    caFile: {cert}\n"
        result = plan(tmp_path, config_text(text), three_nodes(tmp_path))
    assert outcome(result)[:2] == ("Scheduled", "b")
    assert fake.calls and fake.calls[0][0] == "filter"


def test_https_extender_with_the_wrong_ca_fails_the_attempt(tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path, "server")
    other, _ = _self_signed(tmp_path, "other")
    with serving(FakeExtender({"filter": _keep_only_b}), tls=(cert, key)) as fake:
        text = extender(fake.url, filterVerb="filter", nodeCacheCapable=True, enableHTTPS=True)
        text += f"  tlsConfig:\n    caFile: {other}\n"
        result = plan(tmp_path, config_text(text), three_nodes(tmp_path))
    status, node, message = outcome(result)
    assert (status, node) == ("SchedulerError", "")
    assert message == (
        f'Post "{fake.url}/filter": tls: failed to verify certificate: '
        "x509: certificate signed by unknown authority"
    )
