"""A progress line on stderr for long plans, only when stderr is a terminal."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

MIN_PODS = 500


def progress_reporter() -> Callable[[int, int], None] | None:
    if not sys.stderr.isatty():
        return None
    started = time.monotonic()
    last = [0.0]

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if total < MIN_PODS or now - last[0] < 0.2:
            return
        last[0] = now
        rate = done / max(now - started, 1e-9)
        eta = max(total - done, 0) / rate if rate else 0.0
        sys.stderr.write(f"\r{done}/{total} attempts  {rate:,.0f} pods/s  ETA {eta:,.0f}s ")
        sys.stderr.flush()

    return report
