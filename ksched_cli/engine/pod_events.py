"""Pod events of a one-shot plan and the queueing strategies a hint picks.

Kept apart from queueing_hints.py, which judges these events with every plugin's hint:
the engine makes events on every bind, but needs the hints only with
SchedulerQueueingHints on (v1.32+).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..record import record

if TYPE_CHECKING:
    from ..api.pod import Pod

ADD = "Add"
DELETE = "Delete"
# The scheduler's own status patch of a pending pod, as the update of that pod it comes
# back as: the catch-all Pod update, which only a registration of every Pod update takes
# (no plugin of the hint tables registers one).
UPDATE = "Update"

# queueingStrategy
SKIP = "skip"
AFTER_BACKOFF = "backoff"
IMMEDIATELY = "immediately"


@record(frozen=True)
class PodEvent:
    """An assigned pod appeared (bound) or disappeared (deleted, or forgotten)."""

    action: str  # ADD, DELETE or (the pod itself) UPDATE
    pod: Pod
    node: str  # where it is (or was) assigned; a forgotten pod no longer says
