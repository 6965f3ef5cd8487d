"""The what-if examples' answers as JSON and as ``-o html``, run once per test session."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from html.parser import HTMLParser
from typing import Any

import click
import pytest
from click.testing import CliRunner

from ksched_cli.cli.capacity_cmd import capacity
from ksched_cli.cli.plan_cmd import plan
from ksched_cli.cli.simulate_cmd import simulate
from tests.cli.helpers import REPO

DRAIN = "examples/drain/cluster.yaml"
# The examples' READMEs' questions (examples/drain, capacity, scenario).
PLAN_OPERATIONS = {
    "drain": ("--drain", "node-a"),
    # kubectl gives up before its first retry: the refused eviction stays refused.
    "drain-timeout": ("--drain", "node-a", "--drain-timeout", "1s"),
    "remove-node": ("--remove-node", "node-a"),
    "add-then-drain": ("--add-nodes", "examples/drain/templates/big-node.yaml=1",
                       "--drain", "node-a"),
}
CAPACITY = "examples/capacity/cluster.yaml"
CAPACITY_QUESTIONS = {
    "api": ("examples/capacity/workloads/api-deployment.yaml", CAPACITY),
    "worker": ("examples/capacity/workloads/worker-pod.yaml", CAPACITY),
    "worker-max": ("examples/capacity/workloads/worker-pod.yaml", CAPACITY, "--max", "3"),
    "worker-drained": ("examples/capacity/workloads/worker-pod.yaml", CAPACITY,
                       "--drain", "node-3"),
}
SCENARIO = ("examples/scenario/scenario.yaml", "examples/scenario/cluster.yaml")


@dataclass(frozen=True)
class Answer:
    code: int
    doc: dict[str, Any]
    html_code: int
    html: str


def _both(command: click.Command, args: tuple[str, ...], json_args: tuple[str, ...]) -> Answer:
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(REPO)
        as_json = CliRunner().invoke(command, [*args, *json_args])
        as_html = CliRunner().invoke(command, [*args, "-o", "html"])
    assert as_json.exception is None or isinstance(as_json.exception, SystemExit), as_json.output
    assert as_html.exception is None or isinstance(as_html.exception, SystemExit), as_html.output
    problems = [line for line in as_html.stderr.splitlines() if not line.startswith("warning: ")]
    assert problems == [], as_html.stderr
    return Answer(as_json.exit_code, json.loads(as_json.stdout), as_html.exit_code,
                  as_html.stdout)


@cache
def plan_answer(name: str) -> Answer:
    return _both(plan, (DRAIN, *PLAN_OPERATIONS[name]), ("-o", "json", "--explain"))


@cache
def capacity_answer(name: str) -> Answer:
    return _both(capacity, CAPACITY_QUESTIONS[name], ("-o", "json"))


@cache
def simulate_answer() -> Answer:
    return _both(simulate, SCENARIO, ("-o", "json"))


class Marked(HTMLParser):
    """The text of every server-rendered element carrying one of ``attrs``: (attrs, text)."""

    VOID = frozenset({"input", "meta", "br", "img", "hr", "link"})

    def __init__(self, html: str, *attrs: str) -> None:
        super().__init__()
        self.wanted = attrs
        self.found: list[tuple[dict[str, str | None], str]] = []
        self._open: list[tuple[dict[str, str | None], list[str]] | None] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        a = dict(attrs)
        self._open.append((a, []) if any(k in a for k in self.wanted) else None)

    def handle_data(self, data: str) -> None:
        for entry in self._open:
            if entry is not None:
                entry[1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID or not self._open:
            return
        entry = self._open.pop()
        if entry is not None:
            self.found.append((entry[0], " ".join("".join(entry[1]).split())))

    def texts(self, attr: str) -> list[tuple[str, str]]:
        """(value of ``attr``, text) per element that has it, in document order of closing."""
        return [(a[attr] or "", text) for a, text in self.found if attr in a]
