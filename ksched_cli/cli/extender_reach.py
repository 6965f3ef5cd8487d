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
from ..extender.transport import ExtenderError, Transport

HINT = (
    "start it, or plan offline: --extender-mode stub=FILE replays replies recorded with "
    "--record-extenders, --extender-mode skip plans without extenders"
)


class ExtenderUnreachable(KschedError):
    pass


def _unreachable(err: ExtenderError) -> bool:
    # The transport chains the connection error (refused, unknown host, timeout) to the
    # ExtenderError; an HTTP reply, even an error status, means the extender is there.
    import urllib.error

    cause = err.__cause__
    if isinstance(cause, urllib.error.HTTPError):
        return False
    return isinstance(cause, urllib.error.URLError | OSError)


class ReachCheck:
    """A transport that turns a non-ignorable extender's connection failure into an error."""

    def __init__(self, inner: Transport) -> None:
        self.inner = inner

    def post(self, ext: Extender, verb: str, url: str, body: Any) -> Any:
        try:
            return self.inner.post(ext, verb, url, body)
        except ExtenderError as err:
            if ext.ignorable or not _unreachable(err):
                raise
            raise ExtenderUnreachable(
                f"extender {ext.url_prefix} cannot be reached ({err}); {HINT}",
                field="extenders",
            ) from err
