"""Reports of the examples, and reading them back: the embedded data and the shown numbers."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from html.parser import HTMLParser
from typing import Any

import pytest

from tests.cli.helpers import config_args, manifest_path, plan_json, run

_DATA = re.compile(r'<script id="ksched-data" type="application/json">(.*?)</script>', re.S)


def plan_html(monkeypatch: pytest.MonkeyPatch, example: str) -> tuple[int, str]:
    """Exit code and ``-o html`` report of an example, planned as its README says."""
    result = run(monkeypatch, manifest_path(example), *config_args(example), "-o", "html")
    # Warnings (ignored kinds, a CronJob planned as one run) are the plan's, not the page's.
    problems = [line for line in result.stderr.splitlines() if not line.startswith("warning: ")]
    assert problems == [], result.stderr
    return result.exit_code, result.stdout


@dataclass(frozen=True)
class Reports:
    """An example planned twice, as its README says: ``-o json --explain`` and ``-o html``."""

    example: str
    code: int
    doc: dict[str, Any]
    html_code: int
    html: str


@cache
def reports(example: str) -> Reports:
    """Planned once per test session: the structure and the browser tests share them."""
    with pytest.MonkeyPatch.context() as mp:
        code, doc = plan_json(mp, example)
        html_code, html = plan_html(mp, example)
    return Reports(example, code, doc, html_code, html)


def page_data(html: str) -> dict[str, Any]:
    match = _DATA.search(html)
    assert match is not None, "no embedded page data"
    data: dict[str, Any] = json.loads(match[1])
    return data


class Shown(HTMLParser):
    """What the server-rendered part of a page shows: chips, reason rows, zone rows."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.chips: dict[str, str] = {}
        self.reasons: list[list[str]] = []
        self.zones: list[list[str]] = []
        self.tags: set[str] = set()
        self.urls: list[str] = []
        self._chip: str | None = None
        self._row: list[str] | None = None
        self._rows: list[list[str]] | None = None
        self._text: list[str] = []
        self._table: str = ""
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.add(tag)
        self.urls += [v for k, v in attrs if k in ("src", "href", "action") and v]
        if tag == "table":
            self._table = a.get("id") or ""
        if tag == "span" and ("data-outcome" in a or "data-category" in a):
            self._chip = a.get("data-outcome") or a.get("data-category")
            self._text = []
        if tag == "tr" and self._table in ("reasons", "zones") and (
            "data-reason" in a or "data-zone" in a
        ):
            self._rows = self.reasons if self._table == "reasons" else self.zones
            self._row = []
        if tag == "td" and self._row is not None:
            self._text = []

    def handle_data(self, data: str) -> None:
        self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self._chip is not None:
            self.chips[self._chip] = "".join(self._text).split()[-1]
            self._chip = None
        elif tag == "td" and self._row is not None:
            self._row.append(" ".join("".join(self._text).split()))
        elif tag == "tr" and self._row is not None and self._rows is not None:
            self._rows.append(self._row)
            self._row = None
