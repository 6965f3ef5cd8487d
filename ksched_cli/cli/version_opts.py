"""``--kubernetes-version``: the option every planning command shares, and its resolution."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..versions.releases import DEFAULT_VERSION, ENV_VAR, Release, UnsupportedVersion, release

F = TypeVar("F", bound=Callable[..., Any])

VERSION_HELP = (
    f"kube-scheduler release to replay: a minor from 1.30 to 1.36, or a patch such as "
    f"1.35.7 naming its minor (default {DEFAULT_VERSION}; see `ksched versions`; env {ENV_VAR})."
)


# Where the group's own ``ksched --kubernetes-version X COMMAND`` leaves its value.
GLOBAL_KEY = "ksched.kubernetes_version"


def _global_value() -> str | None:
    ctx = click.get_current_context(silent=True)
    found = ctx.find_root().meta.get(GLOBAL_KEY) if ctx is not None else None
    return found if isinstance(found, str) else None


def resolve_kubernetes_version(value: str | None = None) -> Release:
    """The release named by ``value``, else by the global option, else by
    $KSCHED_KUBERNETES_VERSION, else the default release.

    An unsupported version prints one error line naming the supported ones and exits 1.
    """
    chosen = value or _global_value() or os.environ.get(ENV_VAR) or DEFAULT_VERSION
    try:
        return release(chosen)
    except UnsupportedVersion as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)


def _callback(_ctx: click.Context, _param: click.Parameter, value: str | None) -> Release:
    return resolve_kubernetes_version(value)


def kubernetes_version_option(
    *names: str, dest: str = "kubernetes_version", help_text: str = VERSION_HELP
) -> Callable[[F], F]:
    """Adds ``--kubernetes-version`` (or ``names``); the command receives a ``Release``."""
    flags = names or ("--kubernetes-version",)
    return click.option(
        *flags,
        dest,
        metavar="VERSION",
        default=None,
        callback=_callback,
        # The env var is read by the callback so a bad value fails the same way.
        help=help_text,
    )


def remember_global_version(ctx: click.Context, _param: click.Parameter,
                            value: str | None) -> None:
    """The group's option: checked at once, then the default of every command's option."""
    if value is not None:
        resolve_kubernetes_version(value)
        ctx.meta[GLOBAL_KEY] = value
