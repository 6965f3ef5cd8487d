"""``--max-pods`` and ``--max-nodes``: the bound on what one command creates (limits.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from .. import limits

F = TypeVar("F", bound=Callable[..., Any])


def _set(kind: str) -> Callable[[click.Context, click.Parameter, int], None]:
    def callback(ctx: click.Context, param: click.Parameter, value: int) -> None:
        limits.configure(**{kind: value})

    return callback


def limit_options(function: F) -> F:
    """Adds both options to a command; each run starts from its own values."""
    return limit_options_with()(function)


def limit_options_with(
    pods_default: int = limits.DEFAULT_MAX_PODS, pods_help: str = ""
) -> Callable[[F], F]:
    """Both options, with this command's default for ``--max-pods``."""
    return lambda function: _options(function, pods_default, pods_help)


def _options(function: F, pods_default: int, pods_help: str) -> F:
    nodes = click.option(
        limits.NODE_OPTION, type=click.IntRange(min=1), metavar="N",
        default=limits.DEFAULT_MAX_NODES, show_default=True, envvar=limits.NODE_ENV,
        expose_value=False, callback=_set("nodes"),
        help=f"Stop with an error before creating more than N nodes "
             f"(--add-nodes, scenario steps; env {limits.NODE_ENV}).",
    )
    pods = click.option(
        limits.POD_OPTION, type=click.IntRange(min=1), metavar="N",
        default=pods_default, show_default=True, envvar=limits.POD_ENV,
        expose_value=False, callback=_set("pods"),
        help=pods_help or f"Stop with an error before creating more than N pods (workload "
                          f"replicas, --scale, scenario steps; env {limits.POD_ENV}).",
    )
    return pods(nodes(function))
