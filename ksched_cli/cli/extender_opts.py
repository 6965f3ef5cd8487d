"""``--extender-mode`` and ``--record-extenders``: how a plan reaches the extenders."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..config.types import SchedulerConfig
from ..errors import KschedError
from ..extender.scheduling import build_extenders
from ..extender.transport import HTTPTransport, Transport
from ..record import record
from .extender_reach import ReachCheck

if TYPE_CHECKING:  # stubs and recordings only for the options that ask for them
    from ..extender.stub import RecordingTransport

MODE_HELP = (
    "How configured extenders are reached: call (HTTP, as kube-scheduler), skip (plan "
    "without them, said in the output) or stub=FILE (replay replies recorded with "
    "--record-extenders)."
)


@record
class ExtenderSetup:
    """How a run reaches its extenders, and what the output says about it."""

    mode: str = "call"
    transport: Transport | None = None
    recorder: RecordingTransport | None = None
    record_path: str = ""
    notice: str = ""  # what the output must say about extenders, if anything


def validate_mode(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if value in ("call", "skip") or (value.startswith("stub=") and len(value) > 5):
        return value
    raise click.BadParameter("expected call, skip or stub=FILE", ctx, param)


def setup(
    cfg: SchedulerConfig | None, mode: str, record: str | None, inputs: Sequence[str] = ()
) -> ExtenderSetup:
    """The transport for ``mode``; raises KschedError before anything is planned.

    ``cfg`` (None for several configs) words the skip notice and has its extenders' TLS
    set up; ``inputs`` (configurations, manifest files and directories) are what the run
    reads, which the recording must not replace.
    """
    count = len(cfg.extender_configs) if cfg is not None else 0
    if mode == "skip" and record:
        raise KschedError(
            "nothing to record with --extender-mode skip: no extender is called",
            field="--record-extenders",
        )
    if mode == "skip":
        notice = (
            f"extenders skipped (--extender-mode skip): the {count} configured extender(s) "
            "took no part in filtering, scoring, preemption or binding"
            if count
            else ""
        )
        return ExtenderSetup("skip", notice=notice)
    transport: Transport = HTTPTransport()
    stub = mode[5:] if mode.startswith("stub=") else ""
    if stub:
        from ..extender.stub import StubTransport

        transport = StubTransport(stub)
    if cfg is not None:
        build_extenders(cfg.extender_configs, transport, cfg.source)  # TLS errors now
    result = ExtenderSetup("call", transport)
    if record:
        from ..extender.stub import RecordingTransport, refuse_inputs

        directories = [Path(text) for text in inputs if Path(text).is_dir()]
        stub_file = [Path(stub)] if stub else []
        refuse_inputs(record, [*input_files(inputs), *stub_file], directories)
        result.recorder = RecordingTransport(transport)
        result.transport = result.recorder
        result.record_path = record
    if isinstance(transport, HTTPTransport):  # live extenders: unreachable stops the plan
        result.transport = ReachCheck(result.transport or transport, transport)
    return result


def input_files(paths: Sequence[str]) -> list[Path]:
    """The files a run reads: configuration files and manifest files or directories."""
    from ..manifests.files import manifest_files

    files: list[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            files.extend(manifest_files([text])[0])
        elif path.is_file():
            files.append(path)
    return files


def finish(ext: ExtenderSetup) -> str:
    """Write the recorded exchanges, if asked (even when no call was made).

    Called once the plan's output is printed; returns the error line, or "".
    """
    if ext.recorder is None:
        return ""
    try:
        ext.recorder.save(ext.record_path)
    except KschedError as exc:
        return exc.render()
    return ""
