"""kubectl-style plain tables, written row by row.

The layout is tabulate's "plain" format (the one earlier ksched versions printed):
cells left-aligned and stripped, two spaces between columns, a column at least two
characters wider than its header, trailing spaces removed. Computing the widths in a
first pass over a row generator, then writing each row, keeps a 150,000-row plan table
from ever being held as one string.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TextIO

from ..errors import printable

HEADER_PADDING = 2
SEPARATOR = "  "

Rows = Callable[[], Iterable[Sequence[str]]]


def widths(headers: Sequence[str], rows: Iterable[Sequence[str]], no_headers: bool) -> list[int]:
    found = [0 if no_headers else len(h) + HEADER_PADDING for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            size = len(printable(cell.strip()))
            if size > found[i]:
                found[i] = size
    return found


def _line(cells: Sequence[str], sizes: Sequence[int]) -> str:
    # A cell is one line: a line break or a control character in it is escaped.
    return SEPARATOR.join(
        printable(c.strip()).ljust(w) for c, w in zip(cells, sizes, strict=True)
    ).rstrip()


def lines(headers: Sequence[str], rows: Rows, no_headers: bool = False) -> Iterator[str]:
    """The table's lines; ``rows`` is called twice (widths, then lines)."""
    sizes = widths(headers, rows(), no_headers)
    if not no_headers:
        yield _line(headers, sizes)
    for row in rows():
        yield _line(row, sizes)


def format_rows(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return list(lines(headers, lambda: rows))


def write_table(out: TextIO, headers: Sequence[str], rows: Rows, no_headers: bool = False) -> None:
    for line in lines(headers, rows, no_headers):
        out.write(line + "\n")
