"""Text output of ``ksched plan`` (table, wide, name, ``--explain``, ``--explain-pod``),
fed attempt by attempt while the engine runs.

The engine hands over each scheduling cycle's attempts and forgets them. Explanations
are rendered at once into a temporary file (a summary per attempt, not per node), and
written after the table, which needs the final decisions. Memory stays flat however
many pods are planned. A Waiting attempt gains Permit lines until its wait ends, so it
is kept and rendered at the end, in its place.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import TextIO

from ..engine.records import WAITING, Attempt, Plan
from .table import TableView, write_names, write_plan_table

# Scored nodes an explanation shows besides the chosen one (--top). The explanations
# (explain.py) are imported only when asked for: most plans print the table alone.
DEFAULT_TOP = 10


class TextPlanWriter:
    def __init__(
        self,
        view: TableView,
        explain: bool = False,
        explain_pods: Sequence[str] = (),
        top: int = DEFAULT_TOP,
        running: dict[str, str] | None = None,
        names: bool = False,
    ) -> None:
        self.view = view
        self.explain = explain
        self.top = top
        self.names = names
        self.running = running or {}
        self.stories: dict[str, list[Attempt]] = {pod: [] for pod in explain_pods}
        # Closed in _write_spooled once its text is written out.
        self._spool: TextIO | None = _spool() if explain else None
        self._seq = 0
        self._blocks = array("q")  # per spooled attempt: its sequence number
        self._lines = array("q")  # and how many lines it took
        self._held: list[tuple[int, Attempt]] = []

    def on_attempts(self, attempts: list[Attempt]) -> None:
        """The engine hook (``EngineOptions.on_attempts``)."""
        self.view.add_attempts(attempts)
        shown = self.view.shown
        for a in attempts:
            if a.pod in self.stories:
                self.stories[a.pod].append(a)
            if self._spool is None or (shown is not None and a.pod not in shown):
                continue
            self._seq += 1
            if a.result == WAITING:
                self._held.append((self._seq, a))
                continue
            text = self._text(a)
            self._spool.write(text)
            self._blocks.append(self._seq)
            self._lines.append(text.count("\n"))

    def _text(self, a: Attempt) -> str:
        from .explain import render_attempt

        return f"{a.pod} " + render_attempt(a, self.view.plan.node_count, self.top) + "\n"

    def finish(self, out: TextIO) -> None:
        """Write everything; the plan's decisions are final now."""
        plan = self.view.plan
        if self.names:
            write_names(out, self.view)
            return
        if self.explain or not self.stories:
            write_plan_table(out, self.view)
        if self.explain:
            out.write("\n")
            for note in plan.notes:
                out.write(f"note: {note}\n")
            self._write_spooled(out)
        for i, (pod, attempts) in enumerate(self.stories.items()):
            if i or self.explain:
                out.write("\n")
            out.write(self._story(plan, pod, attempts))

    def _story(self, plan: Plan, pod: str, attempts: list[Attempt]) -> str:
        from .explain import render_story

        return render_story(
            pod, plan.decision_for(pod), attempts, plan.node_count, self.top,
            self.running.get(pod, ""),
        )

    def _write_spooled(self, out: TextIO) -> None:
        spool = self._spool
        assert spool is not None
        spool.seek(0)
        held = iter(self._held)
        waiting = next(held, None)
        for seq, count in zip(self._blocks, self._lines, strict=True):
            while waiting is not None and waiting[0] < seq:
                out.write(self._text(waiting[1]))
                waiting = next(held, None)
            for _ in range(count):
                out.write(spool.readline())
        while waiting is not None:
            out.write(self._text(waiting[1]))
            waiting = next(held, None)
        spool.close()


def _spool() -> TextIO:
    import tempfile  # only with --explain (start-up time)

    return tempfile.TemporaryFile("w+", encoding="utf-8")
