"""Entry point: the ``ksched`` command group."""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import sys
from typing import Any

import click

from .. import DEFAULT_KUBE_SCHEDULER, __version__
from ..errors import KschedError
from .usage import UsageError, split_short_values

# NumPy's OpenBLAS starts a thread per core when it is imported. ksched does no linear
# algebra (only element-wise int64 work), and on a busy machine starting that pool
# costs a short plan about 60 ms of CPU. A value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Sub-command -> module defining it. A command's module is imported only when that
# command runs (or help lists it): start-up time adds up over many short plans.
COMMANDS = {
    "plan": "plan_cmd",
    "validate": "validate_cmd",
    "diff": "diff_cmd",
    "profiles": "profiles_cmd",
    "plugins": "plugins_cmd",
    "versions": "versions_cmd",
    "capacity": "capacity_cmd",
    "simulate": "simulate_cmd",
    "examples": "examples_cmd",
}

# What `ksched --help` lists for each command, so listing them imports none of them.
# The text is the command's `short_help`, or its help's first sentence when it has
# none; tests/cli/test_startup.py checks it against each command's real help.
SHORT_HELP = {
    "plan": "Plan the pending pods in PATHS (files or directories of manifests).",
    "validate": "Check scheduler configuration files like kube-scheduler.",
    "diff": "What a profile change does to placements.",
    "profiles": "List the built-in KubeSchedulerConfiguration profiles.",
    "plugins": "List the plugins a profile can enable.",
    "versions": "The kube-scheduler releases ksched replays.",
    "capacity": "How many more copies of a pod fit, and what stops the next one.",
    "simulate": "Replay a timed scenario of cluster changes.",
    "examples": "List the bundled examples, or copy one.",
}
# Commands declaring `short_help=`: click lists those untruncated.
VERBATIM_SHORT_HELP = frozenset(
    {"validate", "diff", "versions", "capacity", "simulate", "examples"}
)

# A reader that stops early (`| head`) closes the pipe: every command then ends quietly
# with the shell's code for a process ended by SIGPIPE (128 + 13), whatever the format.
EXIT_BROKEN_PIPE = 141


def _usage_exit_1(exc: click.UsageError) -> click.UsageError:
    # click exits 2 on usage errors, but 2 means "some pod was not scheduled" for plan:
    # every command's usage error exits 1, as README's exit codes say. A new exception,
    # since click declares exit_code a class constant.
    return UsageError(exc.format_message(), exc.ctx)


def _quiet_broken_pipe() -> None:
    # Python would complain again when it flushes stdout at exit: point it at /dev/null.
    devnull = os.open(os.devnull, os.O_WRONLY)
    # A test runner's stream has no real file descriptor to replace.
    with contextlib.suppress(OSError, ValueError):
        os.dup2(devnull, sys.stdout.fileno())
    sys.exit(EXIT_BROKEN_PIPE)


def _import_command(name: str) -> click.Command:
    # A command's modules make tens of thousands of long-lived objects (classes,
    # functions): collections while they are made free nothing (a few ms per start).
    # Once they are made, freezing them keeps the collector's next passes off them:
    # without it the first passes after the import walk every one of them.
    enabled = gc.isenabled()
    gc.disable()
    try:
        module = importlib.import_module(f"{__package__}.{COMMANDS[name]}")
    finally:
        if enabled:
            gc.freeze()
            gc.enable()
    command = getattr(module, name)
    assert isinstance(command, click.Command)
    return command


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is None and cmd_name in COMMANDS:
            found = _import_command(cmd_name)
        return found

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:  # bare `ksched` included
            raise _usage_exit_1(exc) from None

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None:  # every command, also those without ExitOneCommand
            rest = split_short_values(command, rest)
        return name, command, rest

    def invoke(self, ctx: click.Context) -> Any:
        try:
            try:
                return super().invoke(ctx)
            except click.UsageError as exc:  # a sub-command's options or arguments
                raise _usage_exit_1(exc) from None
            finally:
                sys.stdout.flush()  # a closed pipe shows here at the latest
        except BrokenPipeError:
            _quiet_broken_pipe()

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            text = self._short_help(ctx, name, limit)
            if text is not None:
                rows.append((name, text))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def _short_help(self, ctx: click.Context, name: str, limit: int) -> str | None:
        """The listing's line for NAME: from the static table unless already loaded."""
        if name in SHORT_HELP and name not in self.commands:
            text = SHORT_HELP[name]
            if name in VERBATIM_SHORT_HELP:
                return text
            # click's own shortening (its helper for it is private from click 8.2).
            return click.Command(name, help=text).get_short_help_str(limit)
        command = self.get_command(ctx, name)
        if command is None or command.hidden:
            return None
        return command.get_short_help_str(limit)


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(
    __version__, message=f"ksched %(version)s (kube-scheduler {DEFAULT_KUBE_SCHEDULER} by default)"
)
@click.option(
    "--kubernetes-version", metavar="VERSION", expose_value=False, is_eager=True,
    callback=lambda ctx, param, value: _remember_version(ctx, param, value),
    help="Default release for every command's --kubernetes-version (1.30, 1.32, 1.36).",
)
def cli() -> None:
    """Where would kube-scheduler put these pods, and why? Answered offline.

    ksched replays kube-scheduler's scheduling cycle (v1.30.6 by default; see
    `ksched versions`) on manifests: Nodes, Pods and the workloads that make
    them (Deployments, StatefulSets, DaemonSets, Jobs, CronJobs), PDBs,
    PriorityClasses, storage objects, PodGroups. It runs under a
    KubeSchedulerConfiguration profile and explains every decision, and it
    answers what-if questions (drain, add nodes, scale, capacity, scenarios).

    \b
    Examples (`ksched examples all examples` first, outside a checkout):
      ksched examples                             # the bundled examples
      ksched plan examples/basic                  # where does each pending pod go?
      ksched plan examples/basic --explain-pod default/web-0
      helm template app ./chart | ksched plan - snapshot.yaml
      ksched plan examples/drain/cluster.yaml --drain node-a  # can node-a be drained?
      ksched validate my-profile.yaml             # check a profile like kube-scheduler
      ksched profiles                             # built-in profiles for --config NAME
    """


def _remember_version(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:  # imported only when given: start-up time
        from .version_opts import remember_global_version

        remember_global_version(ctx, param, value)


def _register() -> None:
    from . import commands

    for command in commands.ALL:
        cli.add_command(command)


def main() -> None:
    from . import signals

    signals.install()
    try:
        cli.main(standalone_mode=True)
    except signals.Terminated as exc:  # the command has unwound: its temporary files are gone
        signals.die_by(exc.signo)
    except KschedError as exc:  # commands normally render their own errors; this is the backstop
        click.echo(exc.render(), err=True)
        sys.exit(1)
    finally:
        # The command is done: spare the interpreter's exit its garbage collections over
        # every object of the process (NumPy's, click's, the plan's), about 25 ms of a
        # one-node plan. Objects are still freed and atexit handlers still run.
        gc.freeze()
