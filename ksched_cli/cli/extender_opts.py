"""``--extender-mode`` and ``--record-extenders``: how a plan reaches the extenders."""

from __future__ import annotations

from dataclasses import dataclass

import click

from ..config.types import SchedulerConfig
from ..errors import KschedError
from ..extender.transport import HTTPTransport, RecordingTransport, StubTransport, Transport
from .extender_reach import ReachCheck

MODE_HELP = (
    "How configured extenders are reached: call (HTTP, as kube-scheduler), skip (plan "
    "without them, said in the output) or stub=FILE (replay replies recorded with "
    "--record-extenders)."
)


@dataclass
class ExtenderSetup:
    mode: str = "call"
    transport: Transport | None = None
    recorder: RecordingTransport | None = None
    record_path: str = ""
    notice: str = ""  # what the output must say about extenders, if anything


def validate_mode(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if value in ("call", "skip") or (value.startswith("stub=") and len(value) > 5):
        return value
    raise click.BadParameter("expected call, skip or stub=FILE", ctx, param)


def setup(cfg: SchedulerConfig | None, mode: str, record: str | None) -> ExtenderSetup:
    """The transport for ``mode``; ``cfg`` (None for several configs) words the skip notice."""
    count = len(cfg.extender_configs) if cfg is not None else 0
    if mode == "skip":
        notice = (
            f"extenders skipped (--extender-mode skip): the {count} configured extender(s) "
            "took no part in filtering, scoring, preemption or binding"
            if count
            else ""
        )
        return ExtenderSetup("skip", notice=notice)
    transport: Transport = HTTPTransport()
    if mode.startswith("stub="):
        path = mode[5:]
        try:
            transport = StubTransport(path)
        except (OSError, ValueError) as exc:
            raise KschedError(f"cannot read extender stub: {exc}", field="--extender-mode") from exc
    result = ExtenderSetup("call", transport)
    if record:
        result.recorder = RecordingTransport(transport)
        result.transport = result.recorder
        result.record_path = record
    if isinstance(transport, HTTPTransport):
        result.transport = ReachCheck(result.transport or transport)
    return result


def finish(ext: ExtenderSetup) -> None:
    """Write the recorded exchanges, if asked (even when no call was made)."""
    if ext.recorder is not None:
        ext.recorder.save(ext.record_path)
