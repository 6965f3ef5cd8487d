"""The extender package's errors, apart so that tls.py and transport.py share them."""

from __future__ import annotations

from ..framework.extender import ExtenderError

__all__ = ["ExtenderError", "TLSSetupError"]


class TLSSetupError(Exception):
    """TLS material that does not load: ``field`` under the extender
    (``tlsConfig.caData``) and client-go's message."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
