"""`benchmarks/run.py --real-loop`: reading the outside command's rate, and the rounds'
median ratios."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from benchmarks.commands import real_loop
from benchmarks.run import _summarize, best_fifths


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "loop.sh"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('echo "rep 1: 10 pods/s"\necho "best 1087.2 pods/s"\n', 1087.2),
        ('echo "best 99.6 pods/s"\necho "best 3040 pods/s"\n', 3040.0),  # the last line
        ('echo "best 12 pods/s" >&2\n', None),  # stderr does not count
        ('echo "best 12 pods/s"\necho done\n', None),  # not the last line
        ('echo "best 12 pods/s"\nexit 3\n', None),  # a failed run
        ("", None),
    ],
)
def test_real_loop_reads_the_last_line(tmp_path: Path, body: str, expected: float | None) -> None:
    assert real_loop(_script(tmp_path, body), tmp_path / "w.yaml") == expected


def test_real_loop_gets_the_file_last(tmp_path: Path) -> None:
    wanted = tmp_path / "w.yaml"
    command = _script(tmp_path, f'test "$2" = "{wanted}" || exit 1\necho "best $1 pods/s"\n')
    assert real_loop(f"{command} 7.5", wanted) == 7.5  # the command's own arguments first
    assert real_loop(f"{command} 7.5", tmp_path / "other.yaml") is None


def test_summary_gives_medians_over_rounds_with_a_real_loop(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _summarize("basic", [(2000.0, 900.0, 1000.0, None), (3000.0, None, 1000.0, None),
                         (4000.0, 1200.0, None, 1.0)])
    _summarize("basic", [(3000.0, 1100.0, 1000.0, 1.3), (2000.0, 1000.0, 1000.0, 1.25),
                         (1.0, 1.0, 1.0, 1.1)])
    assert capsys.readouterr().out.splitlines() == [
        "basic: over 2 rounds, engine 2.50x (median; 2.00-3.00x), whole command 0.90x "
        "(median; 0.90-0.90x) the real loop measured beside it",
        "basic: over 3 rounds, engine 2.00x (median; 1.00-3.00x), whole command 1.00x "
        "(median; 1.00-1.10x) the real loop measured beside it; fifths' max/min 1.25x "
        "(median; 1.10-1.30x), within 1.25 in 2 of 3 rounds",
    ]


def test_summary_needs_two_rounds_with_a_real_loop(capsys: pytest.CaptureFixture[str]) -> None:
    _summarize("basic", [(2000.0, 900.0, 1000.0, 1.0), (3000.0, 1000.0, None, 1.0)])
    _summarize("basic", [])
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("runs", "expected"),
    [
        # A slow spell in one run's fifth is outrun by another run's same fifth.
        ([[10.0, 5.0, 10.0, 10.0, 10.0], [8.0, 9.0, 9.0, 4.0, 9.0]],
         [10.0, 9.0, 10.0, 10.0, 10.0]),
        # A fifth slow in every run stays slow: a cost growing with the plan shows.
        ([[10.0, 10.0, 10.0, 10.0, 5.0], [9.0, 9.0, 9.0, 9.0, 6.0]],
         [10.0, 10.0, 10.0, 10.0, 6.0]),
        ([[1.0, 2.0, 3.0, 4.0, 5.0]], [1.0, 2.0, 3.0, 4.0, 5.0]),
        ([[1.0, 2.0, 3.0, 4.0, 5.0], []], []),  # a run with too few pods for fifths
        ([], []),
    ],
)
def test_best_fifths_takes_each_fifths_fastest_run(
    runs: list[list[float]], expected: list[float]
) -> None:
    assert best_fifths(runs) == expected
