"""One extender call over HTTP(S), bounded as kube-scheduler's http.Client bounds it, and more.

* ``httpTimeout`` is a deadline on the wall clock for the whole call (connect, TLS,
  request, headers and body), as Go's ``Client.Timeout``: every socket read waits only
  for what is left of it, so a server dripping bytes cannot stretch a call.
* A reply body larger than ``MAX_REPLY_BYTES`` is an error (Go reads any size).
* Redirects are not followed: a 3xx is the non-200 error kube-scheduler reports for any
  other code (Go's client would follow it, as a body-less GET for 301-303).
Errors are worded as Go's client words them (``Post "URL": dial tcp ...: connect:
connection refused``, ``context deadline exceeded (...)``).
"""

from __future__ import annotations

import http.client
import io
import json
import re
import socket
import ssl
import time
from urllib.parse import quote, urlsplit

from ..record import record

MAX_REPLY_BYTES = 64 * 1024 * 1024  # 64 MiB
_CHUNK = 64 * 1024
_LONGEST_WAIT = 1e8  # seconds; a socket cannot wait longer (an httpTimeout of years)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
AWAITING_HEADERS = "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
READING_BODY = (
    "context deadline exceeded (Client.Timeout or context cancellation while reading body)"
)


@record(frozen=True)
class Reply:
    status: int
    location: str  # the Location header of a redirect
    body: bytes
    complete: bool  # False when the connection closed before the announced end


class CallFailed(Exception):
    """A call that got no usable reply; ``unreachable`` when the extender itself failed
    (no answer, refused, timed out, broken TLS), as opposed to a reply ksched refuses."""

    def __init__(self, message: str, unreachable: bool) -> None:
        super().__init__(message)
        self.message = message
        self.unreachable = unreachable


def post(
    url: str,
    body: bytes,
    timeout: float,
    context: ssl.SSLContext | None = None,
    server_name: str = "",
) -> Reply:
    """POST ``body`` as application/json to ``url``; raises CallFailed."""
    scheme, host, port, target = _split(url)
    deadline = time.monotonic() + timeout
    tls = (context or ssl.create_default_context()) if scheme == "https" else None
    try:
        conn = _Connection(host, port, deadline, tls, server_name or host)
    except (ValueError, http.client.HTTPException):  # http.client refuses the host name
        raise CallFailed(f"parse {_quote(url)}: invalid host name {_quote(host)}", True) from None
    try:
        try:
            conn.request("POST", target, body=body, headers={"Content-Type": "application/json"})
            response = conn.getresponse()
        except TimeoutError:
            raise CallFailed(f'Post "{url}": {AWAITING_HEADERS}', True) from None
        except (OSError, http.client.HTTPException, ValueError) as exc:
            raise CallFailed(f'Post "{url}": {_reason(exc, host, port)}', True) from None
        try:
            if response.status != 200:
                return Reply(response.status, response.getheader("Location") or "", b"", True)
            return _body(response)
        finally:
            response.close()
    finally:
        conn.close()


def _split(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, request target) as Go's url.Parse and http.Client take them."""
    if _CONTROL.search(url):
        raise CallFailed(f"parse {_quote(url)}: net/url: invalid control character in URL", True)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise CallFailed(f"parse {_quote(url)}: {str(exc).lower()}", True) from None
    if parts.scheme not in ("http", "https"):
        raise CallFailed(f'Post "{url}": unsupported protocol scheme "{parts.scheme}"', True)
    if not parts.hostname:
        raise CallFailed(f'Post "{url}": http: no Host in request URL', True)
    # The path goes out escaped, as Go's URL.RequestURI() escapes it.
    target = quote(parts.path or "/", safe="/:@!$&'()*+,;=-._~%")
    if parts.query:
        target += "?" + quote(parts.query, safe="/:@!$&'()*+,;=-._~%?")
    return (
        parts.scheme,
        parts.hostname or "",
        port or (443 if parts.scheme == "https" else 80),
        target,
    )


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _body(response: http.client.HTTPResponse) -> Reply:
    if response.length is not None and response.length > MAX_REPLY_BYTES:
        raise CallFailed(_too_large(), False)
    chunks: list[bytes] = []
    size = 0
    complete = True
    try:
        while chunk := response.read1(_CHUNK):
            size += len(chunk)
            if size > MAX_REPLY_BYTES:
                raise CallFailed(_too_large(), False)
            chunks.append(chunk)
        complete = not response.length  # bytes announced but never sent
    except TimeoutError:
        raise CallFailed(READING_BODY, True) from None
    except http.client.IncompleteRead as exc:
        chunks.append(exc.partial)
        complete = False
    except (OSError, http.client.HTTPException) as exc:
        raise CallFailed(_reason(exc, "", 0), True) from None
    return Reply(200, "", b"".join(chunks), complete)


def _too_large() -> str:
    mib, rest = divmod(MAX_REPLY_BYTES, 1024 * 1024)
    size = f"{mib} MiB" if not rest else f"{MAX_REPLY_BYTES} bytes"
    return f"reply body larger than {size} (ksched's limit)"


def _reason(exc: BaseException, host: str, port: int) -> str:
    """Go's wording for the common transport failures."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if isinstance(exc, ConnectionRefusedError):
        return f"dial tcp {where}: connect: connection refused"
    if isinstance(exc, (socket.gaierror, UnicodeError)):  # UnicodeError: not a valid name
        return f"dial tcp: lookup {host}: no such host"
    if isinstance(exc, http.client.RemoteDisconnected):
        return "EOF"
    if isinstance(exc, ConnectionResetError):
        return "read: connection reset by peer"
    if isinstance(exc, ssl.SSLCertVerificationError):
        detail = exc.verify_message or str(exc)
        if "self-signed" in detail or "local issuer" in detail:
            detail = "certificate signed by unknown authority"
        return f"tls: failed to verify certificate: x509: {detail}"
    if isinstance(exc, ssl.SSLError):
        if "WRONG_VERSION_NUMBER" in str(exc):
            return "http: server gave HTTP response to HTTPS client"
        return f"tls: {exc.reason or exc}"
    if isinstance(exc, http.client.BadStatusLine):
        line = _quote(str(exc.args[0] if exc.args else "").strip()[:200])
        return f"net/http: HTTP/1.x transport connection broken: malformed HTTP response {line}"
    if isinstance(exc, http.client.HTTPException):
        detail = _one_line(str(exc))
        return f"net/http: HTTP/1.x transport connection broken: malformed HTTP response: {detail}"
    return _one_line(str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc))


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError
    return min(left, _LONGEST_WAIT)


class _Connection(http.client.HTTPConnection):
    """An HTTP(S) connection whose every socket operation waits only until ``deadline``."""

    def __init__(
        self,
        host: str,
        port: int,
        deadline: float,
        context: ssl.SSLContext | None,
        server_name: str,
    ) -> None:
        super().__init__(host, port)
        self.deadline = deadline
        self.context = context
        self.server_name = server_name

    def connect(self) -> None:
        raw = socket.create_connection((self.host, self.port), _left(self.deadline))
        sock = raw
        if self.context is not None:
            raw.settimeout(_left(self.deadline))  # the handshake, as one operation
            sock = self.context.wrap_socket(raw, server_hostname=self.server_name)
        self.sock = _DeadlineSocket(sock, self.deadline)


class _DeadlineSocket:
    """What http.client needs of a socket, each operation bounded by the deadline."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self.sock = sock
        self.deadline = deadline

    def sendall(self, data: bytes) -> None:
        self.sock.settimeout(_left(self.deadline))
        self.sock.sendall(data)

    def makefile(self, mode: str) -> io.BufferedReader:
        return io.BufferedReader(_DeadlineReader(self.sock, self.deadline))

    def close(self) -> None:
        self.sock.close()


class _DeadlineReader(io.RawIOBase):
    def __init__(self, sock: socket.socket, deadline: float) -> None:
        super().__init__()
        self.sock = sock
        # The socket's own raw file keeps it open until the response is read, as
        # http.client expects when it closes the connection before the body.
        self.raw = sock.makefile("rb", buffering=0)
        self.deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        self.sock.settimeout(_left(self.deadline))
        count = self.raw.readinto(buffer)
        return count or 0

    def close(self) -> None:
        self.raw.close()
        super().close()
