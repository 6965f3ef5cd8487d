"""``ksched plan -o json|yaml``, fed attempt by attempt while the engine runs.

The document's ``attempts`` come after ``pods``, whose entries are final only when the
plan ends. So each attempt is written as soon as its scheduling cycle ends, in its
final bytes (``stream.json_attempt`` / ``yaml_attempt``), to a file in a private
temporary directory, and copied into place after the rest of the document is known.
The engine forgets the attempts it hands over, so memory stays flat however many pods
are planned; without ``--explain`` they are not needed at all. A Waiting attempt gains
Permit lines until its wait ends, so it is kept and written at the end, in its place.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from array import array
from collections.abc import Callable, Iterator, Mapping
from types import TracebackType
from typing import Any, TextIO

from ..engine.records import WAITING, Attempt, Plan
from ..errors import KschedError
from .selection import restrict
from .stream import json_attempt, write_json, write_yaml, yaml_attempt


class StructuredPlanWriter:
    """Use as a context manager: leaving it removes the spool, also on errors."""

    def __init__(self, output: str, explain: bool, shown: set[str] | None = None) -> None:
        self.output = output
        self.explain = explain
        self.shown = shown
        self._format: Callable[[Attempt], str] = (
            json_attempt if output == "json" else yaml_attempt
        )
        self._dir: str | None = None
        self._spool: TextIO | None = None
        self._seq = 0
        self._blocks = array("q")  # per spooled attempt: its sequence number
        self._sizes = array("q")  # and its length in characters
        self._held: list[tuple[int, Attempt]] = []
        self.spooled_chars = 0

    def __enter__(self) -> StructuredPlanWriter:
        if self.explain:
            try:
                self._dir = tempfile.mkdtemp(prefix="ksched-plan-")  # mode 0700
                # newline="": the bytes read back are the bytes written.
                self._spool = open(  # closed by close()
                    os.path.join(self._dir, "attempts"), "w+", encoding="utf-8", newline=""
                )
            except OSError as exc:
                self.close()
                raise _spool_error(exc) from None
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._spool is not None:
            self._spool.close()
            self._spool = None
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    @property
    def spool_dir(self) -> str | None:
        """The private directory holding the spool, while it exists."""
        return self._dir

    def on_attempts(self, attempts: list[Attempt]) -> None:
        """The engine hook (``EngineOptions.on_attempts``)."""
        if not self.explain:
            return  # the document has no attempts: nothing to keep
        spool = self._spool
        if spool is None:
            raise RuntimeError("StructuredPlanWriter used outside its `with` block")
        for a in attempts:
            if self.shown is not None and a.pod not in self.shown:
                continue
            self._seq += 1
            if a.result == WAITING:
                self._held.append((self._seq, a))
                continue
            text = self._format(a)
            try:
                spool.write(text)
            except OSError as exc:  # a full disk: one error line, not a traceback
                raise _spool_error(exc) from None
            self._blocks.append(self._seq)
            self._sizes.append(len(text))
            self.spooled_chars += len(text)

    def finish(self, plan: Plan, out: TextIO, extra: Mapping[str, Any] | None = None) -> None:
        """Write the document; the plan's decisions are final now."""
        if plan.attempts:  # recorded after the last cycle the hook saw
            self.on_attempts(plan.attempts)
            plan.attempts = []
        write = write_json if self.output == "json" else write_yaml
        texts = self._texts() if self.explain else None
        write(restrict(plan, self.shown), self.explain, out, extra, texts)

    def _texts(self) -> Iterator[str]:
        """Every attempt's text in the order of the plan: spooled ones read back, held
        (Waiting) ones written now."""
        spool = self._spool
        assert spool is not None
        spool.seek(0)
        held = iter(self._held)
        waiting = next(held, None)
        for seq, size in zip(self._blocks, self._sizes, strict=True):
            while waiting is not None and waiting[0] < seq:
                yield self._format(waiting[1])
                waiting = next(held, None)
            yield spool.read(size)
        while waiting is not None:
            yield self._format(waiting[1])
            waiting = next(held, None)


def _spool_error(exc: OSError) -> KschedError:
    where = tempfile.gettempdir()
    return KschedError(
        f"cannot spool the attempts under {where}: {exc.strerror or exc}; "
        "set TMPDIR to a directory with room for about as much as the output",
        field="--explain",
    )
