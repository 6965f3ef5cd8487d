"""What-if operation options shared by ``plan`` and ``diff``, kept in command-line order.

click groups repeated options by name, which loses their interleaving, and it would take
``-l`` after ``--drain`` for an option; so the operations are taken out of the arguments
before click parses the rest, in order, and ``--drain -l SELECTOR`` stays one value.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..errors import KschedError
from ..whatif.ops.registry import OPERATIONS, parse_operation

if TYPE_CHECKING:
    from ..whatif.ops.base import Operation

META_KEY = "ksched.whatif.operations"
_SELECTOR_FLAGS = ("-l", "--selector")
F = TypeVar("F", bound=Callable[..., Any])


def extract_operations(args: Sequence[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """The arguments without the operations, and the operations as (option, value)."""
    rest: list[str] = []
    found: list[tuple[str, str]] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i:])
            break
        option, eq, inline = arg.partition("=")
        if option not in OPERATIONS:
            rest.append(arg)
            i += 1
            continue
        if eq:
            found.append((option, inline))
            i += 1
            continue
        if i + 1 >= len(args):
            raise click.BadParameter("requires a value", param_hint=f"'{option}'")
        value = args[i + 1]
        if value in _SELECTOR_FLAGS:
            if i + 2 >= len(args):
                raise click.BadParameter(f"{value} requires a selector", param_hint=f"'{option}'")
            value = f"-l {args[i + 2]}"
            i += 1
        found.append((option, value))
        i += 2
    return rest, found


class OperationsCommand(click.Command):
    """A command whose what-if operations are read in order (see the module docstring)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        rest, found = extract_operations(args)
        ctx.meta[META_KEY] = found
        return super().parse_args(ctx, rest)


def operation_options(func: F) -> F:
    """The operations' options, for --help (their values are read by OperationsCommand)."""
    for option, (metavar, help_text, _) in reversed(list(OPERATIONS.items())):
        func = click.option(
            option, metavar=metavar, multiple=True, expose_value=False,
            help=help_text + " Repeatable; operations apply in the order given.",
        )(func)
    return func


def given_operations() -> list[Operation]:
    """The current command's operations, parsed (a malformed one raises KschedError)."""
    ctx = click.get_current_context()
    found: list[tuple[str, str]] = ctx.meta.get(META_KEY, [])
    return [parse_operation(option, value) for option, value in found]


def operations_or_exit(namespace: str | None = None) -> list[Operation]:
    """The operations; ``namespace`` (-n) is that of a ``--scale`` naming none."""
    try:
        operations = given_operations()
    except KschedError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(1)
    if operations:  # imported only then: start-up of plain plans
        from ..whatif.ops.scale import in_namespace

        in_namespace(operations, namespace)
    return operations


def _duration(ctx: click.Context, param: click.Parameter, value: str | None) -> float | None:
    """A Go duration (kubectl drain's --timeout) in seconds; None: wait without limit."""
    if value is None:
        return None
    from ..config.godur import parse_duration

    try:
        nanos = parse_duration(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    if nanos < 0:
        raise click.BadParameter(f"{value}: must not be negative")
    return None if nanos == 0 else nanos / 1e9


def drain_timeout_option() -> Callable[[F], F]:
    """``--drain-timeout``: how long a drain retries evictions a budget refuses."""
    return click.option(
        "--drain-timeout", "drain_timeout", metavar="DURATION", callback=_duration,
        help="How long a drain retries evictions a PodDisruptionBudget refuses, every 5s as "
             "kubectl drain does (a Go duration; 0 or unset: no limit, until nothing more "
             "can change).",
    )
