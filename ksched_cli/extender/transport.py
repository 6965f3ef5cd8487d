"""How extender requests travel: HTTP, a recorded stub, or a recorder around HTTP.

A transport takes (extender name, verb, url, JSON body, timeout) and returns the decoded
JSON reply or raises ExtenderError with the message kube-scheduler would log.
"""

from __future__ import annotations

import base64
import json
import socket
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..config.types import Extender

if TYPE_CHECKING:
    import ssl

# ssl and urllib are imported where calls are made: most plans have no extenders, and
# their import is a noticeable part of the command's start-up time.


class ExtenderError(Exception):
    """A failed extender call; ``str()`` is the error kube-scheduler would report."""


class Transport(Protocol):
    def post(self, ext: Extender, verb: str, url: str, body: Any) -> Any: ...


def _pem_file(data: str, suffix: str) -> str:
    # ssl wants files; inline *Data fields are base64 PEM in the configuration.
    with tempfile.NamedTemporaryFile("wb", suffix=suffix, delete=False) as handle:
        handle.write(base64.b64decode(data))
    return handle.name


def ssl_context(ext: Extender) -> ssl.SSLContext:
    import ssl

    """makeTransport: with enableHTTPS and no CA, the server certificate is not verified."""
    tls = ext.tls_config
    ca_file = tls.ca_file if tls else ""
    if tls and tls.ca_data:
        ca_file = _pem_file(tls.ca_data, ".ca.pem")
    context = ssl.create_default_context(cafile=ca_file or None)
    if (tls is not None and tls.insecure) or (ext.enable_https and not ca_file):
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    if tls is not None:
        cert = _pem_file(tls.cert_data, ".crt.pem") if tls.cert_data else tls.cert_file
        key = _pem_file(tls.key_data, ".key.pem") if tls.key_data else tls.key_file
        if cert:
            context.load_cert_chain(cert, key or None)
    return context


def _reason(err: BaseException | str) -> str:
    if isinstance(err, (TimeoutError, socket.timeout)):
        return "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
    if isinstance(err, ConnectionRefusedError):
        return "connect: connection refused"
    return str(err)


class HTTPTransport:
    """POST with a JSON body; one timeout on the wall clock for the whole exchange."""

    def post(self, ext: Extender, verb: str, url: str, body: Any) -> Any:
        import urllib.error
        import urllib.request

        data = json.dumps(body).encode()
        request = urllib.request.Request(
            url, data=data, method="POST", headers={"Content-Type": "application/json"}
        )
        https = url.startswith("https:")
        context = ssl_context(ext) if https else None
        try:
            with urllib.request.urlopen(
                request, timeout=ext.http_timeout_seconds, context=context
            ) as response:
                if response.status != 200:
                    raise ExtenderError(
                        f"failed {verb} with extender at URL {url}, code {response.status}"
                    )
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            raise ExtenderError(
                f"failed {verb} with extender at URL {url}, code {err.code}"
            ) from err
        except urllib.error.URLError as err:
            raise ExtenderError(f'Post "{url}": {_reason(err.reason)}') from err
        except (OSError, ValueError) as err:
            raise ExtenderError(f'Post "{url}": {_reason(err)}') from err


def stub_key(ext: Extender, verb: str) -> str:
    return f"{ext.url_prefix.rstrip('/')}/{verb}"


class StubTransport:
    """Replays recorded replies: ``{"<urlPrefix>/<verb>": [{"request": ..., "response": ...}]}``.

    A reply matches on the exact request body; a recorded error replays as the error.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.entries: dict[str, list[dict[str, Any]]] = json.loads(
            Path(path).read_text(encoding="utf-8")
        )

    def post(self, ext: Extender, verb: str, url: str, body: Any) -> Any:
        for entry in self.entries.get(stub_key(ext, verb), []):
            if entry.get("request") == body:
                if entry.get("error"):
                    raise ExtenderError(str(entry["error"]))
                return entry.get("response")
        raise ExtenderError(f"{self.path}: no recorded reply for {verb} at {url}")


class RecordingTransport:
    """Calls through ``inner`` and keeps every exchange in the stub file's format."""

    def __init__(self, inner: Transport) -> None:
        self.inner = inner
        self.entries: dict[str, list[dict[str, Any]]] = {}

    def post(self, ext: Extender, verb: str, url: str, body: Any) -> Any:
        # Round-trip through JSON so the recorded request equals what a stub replay compares.
        entry: dict[str, Any] = {"request": json.loads(json.dumps(body))}
        self.entries.setdefault(stub_key(ext, verb), []).append(entry)
        try:
            entry["response"] = self.inner.post(ext, verb, url, body)
        except ExtenderError as err:
            entry["error"] = str(err)
            raise
        return entry["response"]

    def save(self, path: str) -> None:
        text = json.dumps(self.entries, indent=2, sort_keys=True) + "\n"
        Path(path).write_text(text, encoding="utf-8")
