"""A loopback TCP server whose every connection runs a script: misbehaving extenders."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

Script = Callable[[socket.socket], None]


def read_request(conn: socket.socket, lines: list[bytes] | None = None) -> bytes:
    """The body of a request with a Content-Length (what ksched sends); its request line
    ("POST /filter HTTP/1.1") is added to ``lines`` if given."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    if lines is not None:
        lines.append(head.split(b"\r\n", 1)[0])
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return body


def reply(status: str, body: bytes, headers: str = "", length: int | None = None) -> bytes:
    size = len(body) if length is None else length
    head = f"HTTP/1.1 {status}\r\nContent-Length: {size}\r\n{headers}Connection: close\r\n\r\n"
    return head.encode() + body


@contextmanager
def raw_server(script: Script) -> Iterator[str]:
    """``http://127.0.0.1:PORT`` for the ``with`` block; each connection runs ``script``."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.05)
    stop = threading.Event()

    def serve_one(conn: socket.socket) -> None:
        with conn, suppress(OSError):
            script(conn)

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=serve_one, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=5)
        listener.close()
