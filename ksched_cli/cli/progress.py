"""A progress line on stderr for long plans, only when stderr is a terminal."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

MIN_PODS = 500
INTERVAL = 0.2  # seconds between redraws: often enough to look alive, rarely enough to be free
# A rate measured over a few attempts or a fraction of a second is noise (the first frame
# once said "ETA 9,954s"): rate and ETA wait for this much time and work.
RATE_AFTER_SECONDS = 2.0
RATE_AFTER_ATTEMPTS = 50
LOADING_AFTER = 0.5  # seconds of loading before the loading line appears


class ProgressLine:
    """``progress(done, total)`` for the engine: one line redrawn in place with ``\\r``.

    ``clear()`` blanks the line again; call it before printing the plan, or the
    table would start on the same line as the last progress text.
    """

    def __init__(
        self,
        stream: TextIO,
        min_pods: int = MIN_PODS,
        interval: float = INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._stream = stream
        self._min_pods = min_pods
        self._interval = interval
        self._clock = clock
        self._started = clock()
        self._last: float | None = None
        self._width = 0  # characters currently shown; 0 when the line is blank

    def __call__(self, done: int, total: int) -> None:
        now = self._clock()
        if total < self._min_pods or (self._last is not None and now - self._last < self._interval):
            return
        self._last = now
        elapsed = now - self._started
        if elapsed < RATE_AFTER_SECONDS or done < RATE_AFTER_ATTEMPTS:
            self._show(f"{done}/{total} attempts  (measuring the rate)")
            return
        rate = done / elapsed
        eta = max(total - done, 0) / rate
        self._show(f"{done}/{total} attempts  {rate:,.0f} pods/s  ETA {eta:,.0f}s")

    def _show(self, text: str) -> None:
        # Pad to the previous width so a shorter text leaves no stale characters behind.
        self._stream.write("\r" + text.ljust(self._width))
        self._stream.flush()
        self._width = max(self._width, len(text))

    def clear(self) -> None:
        if not self._width:
            return
        self._stream.write("\r" + " " * self._width + "\r")
        self._stream.flush()
        self._width = 0


@contextmanager
def loading_line(
    what: str, stream: TextIO | None = None, after: float = LOADING_AFTER
) -> Iterator[None]:
    """``loading WHAT  3.2s`` redrawn from a background thread while the body runs (the
    loader reports no progress of its own); nothing for loads shorter than ``after``."""
    out = sys.stderr if stream is None else stream
    if not out.isatty():
        yield
        return
    line = ProgressLine(out)
    done = threading.Event()

    def tick() -> None:
        started = time.monotonic()
        if done.wait(after):
            return
        while not done.wait(INTERVAL):
            line._show(f"loading {what}  {time.monotonic() - started:.1f}s")

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        line.clear()


def progress_reporter(stream: TextIO | None = None) -> ProgressLine | None:
    """A progress line on ``stream`` (stderr), or None when it is not a terminal:
    redirected output and CI logs get no ``\\r`` noise."""
    out = sys.stderr if stream is None else stream
    return ProgressLine(out) if out.isatty() else None


@contextmanager
def progress_line(stream: TextIO | None = None) -> Iterator[ProgressLine | None]:
    """``progress_reporter`` whose line is cleared on the way out, even on errors."""
    reporter = progress_reporter(stream)
    try:
        yield reporter
    finally:
        if reporter is not None:
            reporter.clear()
