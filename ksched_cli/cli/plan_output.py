"""``ksched plan``'s output options: which pods are shown, and the text writer."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from ..engine.records import Plan
from ..errors import KschedError
from ..render.selection import Selection, parse_selector
from ..render.table import TableView
from ..render.text_plan import TextPlanWriter
from .usage import UsageError

F = TypeVar("F", bound=Callable[..., object])


def namespace_option(shown: str) -> Callable[[F], F]:
    """kubectl's ``-n``: ``shown`` says what it chooses; objects naming no namespace are
    placed in it as ``kubectl apply -n NS -f`` does (manifests/apply_namespace.py)."""
    return click.option(
        "-n", "--namespace", metavar="NS",
        help=f"{shown}; manifests naming no namespace are placed in NS, and in a file "
        "where one was, an object of another namespace is refused (kubectl apply -n).",
    )


def show_options(f: F) -> F:
    """kubectl's ``-n``, ``-A``, ``-l`` and ``--no-headers``: they choose what is printed;
    every pod of the input is still planned."""
    for option in reversed(
        [
            namespace_option("Show only pods of namespace NS (all pods are still planned)"),
            click.option(
                "-A", "--all-namespaces", "all_namespaces", is_flag=True,
                help="Show pods of every namespace (the default; overrides -n).",
            ),
            click.option(
                "-l", "--selector", metavar="SELECTOR",
                help="Show only pods whose labels match, as kubectl reads it "
                "(a=b,c!=d,e in (x,y),!f).",
            ),
            click.option(
                "--no-headers", "no_headers", is_flag=True,
                help="Table output without the header line and the summary footer.",
            ),
        ]
    ):
        f = option(f)
    return f


def check_combination(output: str, explain: bool, explain_pod: tuple[str, ...]) -> None:
    if output == "name" and (explain or explain_pod):
        raise UsageError("-o name prints pod names only; drop --explain/--explain-pod")


def selection_or_exit(namespace: str | None, everything: bool, selector: str | None) -> Selection:
    try:
        parsed = parse_selector(selector) if selector is not None else None
    except KschedError as exc:
        raise UsageError(exc.render().removeprefix("error: ")) from None
    return Selection(None if everything else namespace, parsed)


def text_writer(
    output: str,
    explain: bool,
    explain_pod: tuple[str, ...],
    top: int,
    running: dict[str, str],
    shown: set[str] | None,
    no_headers: bool,
) -> TextPlanWriter:
    view = TableView(Plan(), shown=shown, wide=output == "wide", no_headers=no_headers)
    return TextPlanWriter(view, explain, explain_pod, top, running, names=output == "name")
