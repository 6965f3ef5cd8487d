"""Usage errors that exit 1, for every command, also when it runs outside the group."""

from __future__ import annotations

import click


class UsageError(click.UsageError):
    # click exits 2 on usage errors, but 2 already means "some pod was not scheduled"
    # (plan, simulate) and 3 "changed" (diff): a CI job must not read a mistyped option
    # as an answer.
    exit_code = 1


class ExitOneCommand(click.Command):
    """A command whose own argument errors exit 1 (mix in before other Command bases)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise UsageError(exc.format_message(), exc.ctx) from None
