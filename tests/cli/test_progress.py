"""The progress line: silent unless stderr is a terminal, and blank again before output."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from ksched_cli.cli import plan_cmd
from ksched_cli.cli.progress import (
    ProgressLine,
    loading_line,
    progress_line,
    progress_reporter,
)
from ksched_cli.render.text_plan import TextPlanWriter

from .helpers import run


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def visible(written: str) -> str:
    """What a terminal shows on the current line after ``written`` (``\\r`` returns the cursor)."""
    line: list[str] = []
    for segment in written.split("\r"):
        line[: len(segment)] = segment
    return "".join(line)


def test_not_a_terminal_means_no_reporter_and_no_output() -> None:
    stream = io.StringIO()
    assert progress_reporter(stream) is None
    with progress_line(stream) as progress:
        assert progress is None
    assert stream.getvalue() == ""


def test_plan_under_a_pipe_writes_nothing_to_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    # CliRunner's stderr is not a terminal, as in CI logs and redirections.
    result = run(monkeypatch, "examples/gang", "--config", "gang")
    assert result.stderr == ""


def test_a_terminal_gets_a_line_that_is_cleared_at_the_end() -> None:
    stream = FakeTTY()
    with progress_line(stream) as progress:
        assert isinstance(progress, ProgressLine)
        progress(600, 1000)  # the first report is always drawn
        assert visible(stream.getvalue()).startswith("600/1000 attempts")
    assert stream.getvalue().endswith("\r")
    assert visible(stream.getvalue()).strip() == ""


def test_the_line_is_cleared_on_errors_too() -> None:
    stream = FakeTTY()
    with pytest.raises(RuntimeError), progress_line(stream) as progress:
        assert progress is not None
        progress(600, 1000)
        raise RuntimeError("boom")
    assert visible(stream.getvalue()).strip() == ""


def test_small_plans_and_fast_redraws_are_skipped() -> None:
    stream, clock = FakeTTY(), Clock()
    progress = ProgressLine(stream, min_pods=500, interval=0.2, clock=clock)
    progress(10, 20)  # fewer pods than min_pods: not worth a line
    assert stream.getvalue() == ""
    clock.now += 1
    progress(1, 1000)
    first = stream.getvalue()
    clock.now += 0.1
    progress(2, 1000)  # within the interval
    assert stream.getvalue() == first
    clock.now += 0.2
    progress(3, 1000)
    assert visible(stream.getvalue()).startswith("3/1000 attempts")


def test_a_shorter_text_leaves_no_stale_characters() -> None:
    stream, clock = FakeTTY(), Clock()
    progress = ProgressLine(stream, min_pods=0, interval=0, clock=clock)
    clock.now += 3
    progress(99999, 100000)
    clock.now += 997
    progress(100000, 100000)
    shown = visible(stream.getvalue())
    assert shown.rstrip() == "100000/100000 attempts  100 pods/s  ETA 0s"


def test_rate_and_eta_wait_for_enough_time_and_attempts() -> None:
    stream, clock = FakeTTY(), Clock()
    progress = ProgressLine(stream, min_pods=0, interval=0, clock=clock)
    clock.now += 0.01
    progress(1, 100000)  # one fast attempt would promise a wild ETA
    assert visible(stream.getvalue()).rstrip() == "1/100000 attempts  (measuring the rate)"
    clock.now += 5
    progress(40, 100000)  # time enough, but too few attempts
    assert "ETA" not in visible(stream.getvalue())
    clock.now += 4.99
    progress(1000, 100000)
    assert visible(stream.getvalue()).rstrip() == "1000/100000 attempts  100 pods/s  ETA 990s"


def test_loading_line_shows_while_loading_and_is_cleared() -> None:
    stream = FakeTTY()
    with loading_line("manifests", stream, after=0.0):
        time.sleep(0.5)
    written = stream.getvalue()
    assert "loading manifests  0." in written
    assert visible(written).strip() == ""


def test_short_loads_show_nothing() -> None:
    stream = FakeTTY()
    with loading_line("manifests", stream, after=10.0):
        pass
    assert stream.getvalue() == ""


def test_clear_without_output_writes_nothing() -> None:
    stream = FakeTTY()
    ProgressLine(stream).clear()
    assert stream.getvalue() == ""


def test_plan_clears_the_line_before_printing(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = FakeTTY()
    at_render: list[str] = []

    @contextmanager
    def fake_line() -> Iterator[ProgressLine]:
        reporter = ProgressLine(stream, min_pods=0, interval=0)
        try:
            yield reporter
        finally:
            reporter.clear()

    real_finish = TextPlanWriter.finish

    def spy_finish(self: TextPlanWriter, out: Any) -> None:
        at_render.append(stream.getvalue())
        real_finish(self, out)

    monkeypatch.setattr(plan_cmd, "progress_line", fake_line)
    monkeypatch.setattr(TextPlanWriter, "finish", spy_finish)
    result = run(monkeypatch, "examples/basic")
    assert result.exit_code == 0
    (written,) = at_render
    assert "4/4 attempts" in written  # the engine reported each attempt...
    assert visible(written).strip() == ""  # ...and the line was blank before the table
