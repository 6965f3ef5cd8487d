"""How extender requests travel: over HTTP here, from a recorded stub in stub.py.

A transport takes (extender, verb, url, JSON body) and returns the reply as decoded JSON
(Go's Decoder rules, see gojson.py) or raises ExtenderError with the message
kube-scheduler would log. The client (client.py) then decodes that value into the
reply's Go type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..config.types import Extender
from .errors import ExtenderError, TLSSetupError

if TYPE_CHECKING:
    import ssl

# ssl, http.client and the TLS helpers are imported where calls are made: most plans
# have no extenders, and those imports are a noticeable part of the start-up time.


__all__ = ["ExtenderError", "HTTPTransport", "TLSSetupError", "Transport", "encode"]


class Transport(Protocol):
    def prepare(self, ext: Extender) -> None:
        """Get ready to call ``ext`` (TLS set-up); raises TLSSetupError."""

    def post(self, ext: Extender, verb: str, url: str, body: Any) -> Any: ...


def encode(body: Any) -> bytes:
    """Go's json.Marshal layout: no spaces."""
    import json  # here: a plan without extenders never needs it

    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()


# Failed answers (an HTTP error status, a reply over the size cap, malformed JSON) one
# extender may give in a run before ksched stops calling it.
MAX_BAD_ANSWERS = 10


class BadAnswers:
    """Failed answers per extender: an identical request is not sent again, and after
    MAX_BAD_ANSWERS the extender is not called again in this run."""

    def __init__(self) -> None:
        self._by_request: dict[tuple[str, str, bytes], str] = {}
        self._count: dict[str, int] = {}
        self._given_up: dict[str, str] = {}

    @staticmethod
    def _key(prefix: str, url: str, data: bytes) -> tuple[str, str, bytes]:
        import hashlib  # OpenSSL loads only for a plan that calls an extender

        return prefix, url, hashlib.sha256(data).digest()

    def known(self, prefix: str, url: str, data: bytes) -> str | None:
        """The error to give at once, without a call, or None."""
        given_up = self._given_up.get(prefix)
        if given_up is not None:
            return given_up
        return self._by_request.get(self._key(prefix, url, data))

    def add(self, prefix: str, url: str, data: bytes, message: str) -> str:
        """Record a failed answer; returns the error to report for it."""
        self._by_request[self._key(prefix, url, data)] = message
        count = self._count[prefix] = self._count.get(prefix, 0) + 1
        if count >= MAX_BAD_ANSWERS:
            message = (
                f"{message} (ksched calls an extender no more after {MAX_BAD_ANSWERS} failed "
                "answers in one run)"
            )
            self._given_up[prefix] = message
        return message


class HTTPTransport:
    """Calls extenders over HTTP(S); see httpcall.py for the limits of one call.

    An extender that failed to answer (refused, unreachable, timed out, broken TLS) is
    not called again in this run: later calls fail at once with the same error. In
    kube-scheduler each of them would wait for the same failure again; a plan is one
    moment of the cluster, so the outcome is the same, without costing ``httpTimeout``
    on every attempt of every pod.
    """

    def __init__(self) -> None:
        self._contexts: dict[Extender, ssl.SSLContext] = {}
        self._unreachable: dict[str, str] = {}
        self._bad = BadAnswers()

    def unreachable(self, ext: Extender) -> str | None:
        """The failure that made ``ext`` unreachable in this run (refused, unknown host,
        timed out, broken TLS), or None while it answers."""
        return self._unreachable.get(ext.url_prefix)

    def prepare(self, ext: Extender) -> None:
        # makeTransport builds the TLS settings whatever the URL's scheme, so bad material
        # fails even an http:// extender, as kube-scheduler fails to start.
        wanted = (
            ext.tls_config is not None or ext.enable_https or ext.url_prefix.startswith("https:")
        )
        if wanted and ext not in self._contexts:
            from .tls import ssl_context

            self._contexts[ext] = ssl_context(ext)

    def post(self, ext: Extender, verb: str, url: str, body: Any) -> Any:

        failure = self._unreachable.get(ext.url_prefix)
        if failure is not None:
            raise ExtenderError(failure)
        data = encode(body)
        known = self._bad.known(ext.url_prefix, url, data)
        if known is not None:
            raise ExtenderError(known)
        try:
            return self._call(ext, verb, url, data)
        except ExtenderError as err:
            if self._unreachable.get(ext.url_prefix) is None:
                raise ExtenderError(self._bad.add(ext.url_prefix, url, data, str(err))) from None
            raise

    def _call(self, ext: Extender, verb: str, url: str, data: bytes) -> Any:
        from . import httpcall
        from .gojson import GoJSONError, decode

        try:
            self.prepare(ext)
        except TLSSetupError as err:  # normally raised before the plan (build_extenders)
            raise ExtenderError(str(err)) from None
        server_name = ext.tls_config.server_name if ext.tls_config else ""
        try:
            reply = httpcall.post(
                url, data, ext.http_timeout_seconds, self._contexts.get(ext), server_name
            )
        except httpcall.CallFailed as failed:
            if failed.unreachable:
                self._unreachable[ext.url_prefix] = failed.message
            raise ExtenderError(failed.message) from None
        if reply.status != 200:
            message = f"failed {verb} with extender at URL {url}, code {reply.status}"
            if 300 <= reply.status < 400:
                message += f" (redirect to {reply.location or '?'} not followed)"
            raise ExtenderError(message)
        try:
            return decode(reply.body, reply.complete)
        except GoJSONError as err:
            raise ExtenderError(str(err)) from None
