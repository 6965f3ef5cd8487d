"""No control character from an input or an extender reaches a text output: each is
escaped as Go's strconv.Quote would write it, and a line break inside a cell or a reason
stays inside its line (issue 25 item 8)."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from ksched_cli.engine.records import Attempt, FilteredNode
from ksched_cli.errors import printable, printable_text
from ksched_cli.render.explain import render_attempt
from ksched_cli.render.plain import format_rows
from ksched_cli.render.tabular import tabulate

from ..extender.helpers import config_text, extender, three_nodes
from ..extender.server import FakeExtender, node_names, serving
from ..properties import bounded
from .helpers import ksched, write

HOSTILE = "\x1b[31mred\x1b[0m\rover\awrite\nsecond line\x85\u2028end"


def _controls(text: str) -> list[str]:
    """Characters a terminal could act on: C0 (line breaks aside), DEL, C1, separators."""
    return [ch for ch in text if ch != "\n" and unicodedata.category(ch) in ("Cc", "Zl", "Zp")]


def _reject_all(body: Any) -> Any:
    return {"NodeNames": [], "FailedNodes": {n: HOSTILE for n in node_names(body)}}


def test_extender_reasons_are_escaped_in_the_table_and_explanations(tmp_path: Path) -> None:
    with serving(FakeExtender({"filter": _reject_all})) as fake:
        config = write(tmp_path, "config.yaml",
                       config_text(extender(fake.url, filterVerb="filter", nodeCacheCapable=True)))
        cluster = str(three_nodes(tmp_path))
        table = ksched("plan", cluster, "-c", config, "--kubernetes-version", "1.30")
        explained = ksched("plan", cluster, "-c", config, "--kubernetes-version", "1.30",
                           "--explain", "--explain-pod", "default/web", "-o", "wide")
    for result in (table, explained):
        assert result.exit_code == 2, result.output
        assert _controls(result.stdout) == []
        assert "\\x1b[31mred\\x1b[0m\\rover\\awrite\\nsecond line\\u0085\\u2028end" in result.stdout
    rows = [line for line in table.stdout.splitlines() if line.startswith("default/web")]
    assert len(rows) == 1  # the reason's line break did not split the row
    assert not [line for line in explained.stdout.splitlines() if line.startswith("second")]


TEXT = st.text(st.characters(codec="utf-8"), max_size=40)


@bounded(200)
@given(cells=st.lists(st.lists(TEXT, min_size=3, max_size=3), min_size=1, max_size=5))
def test_a_table_keeps_one_line_per_row(cells: list[list[str]]) -> None:
    for text in (format_rows(["A", "B", "C"], cells),
                 tabulate(cells, headers=["A", "B", "C"], tablefmt="plain",
                          disable_numparse=True).split("\n")):
        assert len(text) == len(cells) + 1
        assert _controls("\n".join(text)) == []


@bounded(200)
@given(reasons=st.lists(TEXT, min_size=1, max_size=4), message=TEXT, node=TEXT)
def test_an_explanation_has_no_control_character(
    reasons: list[str], message: str, node: str
) -> None:
    attempt = Attempt("default/p", 0.0, "Unschedulable", message=message,
                      filtered={node: FilteredNode("Extender", reasons)})
    text = render_attempt(attempt, 1, 3)
    assert _controls(text) == []
    # The lines are the summary's: attempt, filtered, one per distinct reason, message.
    expected = 2 + len(set(reasons)) + (1 if message else 0)
    assert len(text.split("\n")) == expected


@bounded(300)
@given(text=TEXT)
def test_printable_text_keeps_line_breaks_only(text: str) -> None:
    out = printable_text(text)
    assert _controls(out) == []
    assert out.count("\n") == text.count("\n")
    assert "\n" not in printable(text)
