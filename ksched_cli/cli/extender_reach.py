"""An extender that cannot be reached stops the plan with a hint, instead of making every
pod Unschedulable as if the cluster were full.

kube-scheduler retries such pods until the extender comes back; an offline plan has no
"later", and the user most likely wants a stub or to skip the extenders. Ignorable
extenders keep kube-scheduler's rule: their failures are skipped (and warned about).
"""

from __future__ import annotations

from typing import Any

from ..config.types import Extender
from ..errors import KschedError
from ..extender.transport import ExtenderError, HTTPTransport, Transport

HINT = (
    "start it, or plan offline: --extender-mode stub=FILE replays replies recorded with "
    "--record-extenders, --extender-mode skip plans without extenders"
)


class ExtenderUnreachable(KschedError):
    pass


class ReachCheck:
    """A transport that turns a non-ignorable extender's connection failure into an error.

    ``http`` is the HTTP transport underneath ``inner`` (``inner`` may be a recorder
    around it); it knows which extenders could not be reached.
    """

    def __init__(self, inner: Transport, http: HTTPTransport) -> None:
        self.inner = inner
        self.http = http

    def prepare(self, ext: Extender) -> None:
        self.inner.prepare(ext)

    def post(self, ext: Extender, verb: str, url: str, body: Any) -> Any:
        try:
            return self.inner.post(ext, verb, url, body)
        except ExtenderError as err:
            if ext.ignorable or self.http.unreachable(ext) is None:
                raise
            raise ExtenderUnreachable(
                f"extender {ext.url_prefix} cannot be reached ({err}); {HINT}",
                field="extenders",
            ) from err
