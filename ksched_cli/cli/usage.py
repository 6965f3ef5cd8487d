"""Usage errors that exit 1, for every command, also when it runs outside the group."""

from __future__ import annotations

import click


class UsageError(click.UsageError):
    # click exits 2 on usage errors, but 2 already means "some pod was not scheduled"
    # (plan, simulate) and 3 "changed" (diff): a CI job must not read a mistyped option
    # as an answer.
    exit_code = 1


def split_short_values(command: click.Command, args: list[str]) -> list[str]:
    """``-o=json`` as ``-o json`` for every short option taking a value: kubectl's flag
    parser (pflag) reads a short option's ``=value`` so, where click would keep the ``=``."""
    takes_value = {
        opt for p in command.params if isinstance(p, click.Option) and not p.is_flag
        for opt in p.opts if len(opt) == 2
    }
    out: list[str] = []
    for i, arg in enumerate(args):
        if arg == "--":
            return out + args[i:]
        if arg[:2] in takes_value and arg[2:3] == "=":
            out += [arg[:2], arg[3:]]
        else:
            out.append(arg)
    return out


class ExitOneCommand(click.Command):
    """A command whose own argument errors exit 1 (mix in before other Command bases)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, split_short_values(self, args))
        except click.UsageError as exc:
            raise UsageError(exc.format_message(), exc.ctx) from None
