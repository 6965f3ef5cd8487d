"""A scripted extender on loopback: each verb answers with a function of the request."""

from __future__ import annotations

import json
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = Callable[[Any], Any]


class FakeExtender:
    def __init__(self, replies: dict[str, Reply], delay: float = 0.0, status: int = 200):
        self.replies = replies
        self.delay = delay
        self.status = status
        self.calls: list[tuple[str, Any]] = []
        self.url = ""


def _handler(fake: FakeExtender) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"null")
            verb = self.path.strip("/")
            fake.calls.append((verb, body))
            if fake.delay:
                time.sleep(fake.delay)
            reply = fake.replies.get(verb)
            data = json.dumps(reply(body) if reply else {}).encode()
            try:
                self.send_response(fake.status if reply else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client timed out: that is what the test wanted

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output quiet

    return Handler


@contextmanager
def serving(fake: FakeExtender, tls: tuple[str, str] | None = None) -> Iterator[FakeExtender]:
    """Serve ``fake`` on an ephemeral loopback port for the ``with`` block.

    ``tls`` is (certificate file, key file) to serve HTTPS instead of HTTP.
    """
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    scheme = "http"
    if tls is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        scheme = "https"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    fake.url = f"{scheme}://127.0.0.1:{server.server_address[1]}"
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def node_names(body: Any) -> list[str]:
    """The nodes of an ExtenderArgs body, whether names or full objects were sent."""
    if body.get("NodeNames") is not None:
        return list(body["NodeNames"])
    return [n["metadata"]["name"] for n in body["Nodes"]["items"]]
