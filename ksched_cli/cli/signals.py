"""SIGTERM and SIGHUP end a command the way an error does: its temporary files are removed.

Python's default for these signals is to die at once, so no ``finally`` block and no
context manager runs: ``plan -o json --explain`` would leave its spool directory behind.
The handler raises instead; once the command has unwound, the process ends by the same
signal (default action restored), so its parent sees what it would have seen anyway
(a shell reports 128 + the signal's number).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from types import FrameType

HANDLED = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class Terminated(BaseException):
    """Raised in the main thread by a handled signal; not an Exception, so no
    ``except Exception`` swallows it, while every ``finally`` still runs."""

    def __init__(self, signo: int) -> None:
        super().__init__(signo)
        self.signo = signo


def _raise(signo: int, frame: FrameType | None) -> None:
    for other in HANDLED:  # a second signal must not interrupt the clean-up
        signal.signal(other, signal.SIG_IGN)
    raise Terminated(signo)


def install() -> None:
    for signo in HANDLED:
        signal.signal(signo, _raise)


def die_by(signo: int) -> None:
    """End the process by ``signo`` (128 + signo if the signal somehow returns)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing to keep
            stream.flush()
    signal.signal(signo, signal.SIG_DFL)
    os.kill(os.getpid(), signo)
    sys.exit(128 + signo)
