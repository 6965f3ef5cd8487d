"""Toleration matching (v1.Toleration.ToleratesTaint, component-helpers, helper/taint.go)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ...api.node import Taint
from ...api.pod import Toleration

NO_SCHEDULE = "NoSchedule"
PREFER_NO_SCHEDULE = "PreferNoSchedule"
NO_EXECUTE = "NoExecute"

TaintFilter = Callable[[Taint], bool]


def tolerates(toleration: Toleration, taint: Taint) -> bool:
    """Whether one toleration tolerates the taint; empty effect or key is a wildcard."""
    if toleration.effect and toleration.effect != taint.effect:
        return False
    if toleration.key and toleration.key != taint.key:
        return False
    op = toleration.operator
    if op in ("", "Equal"):
        return toleration.value == taint.value
    # Operators other than Equal/Exists tolerate nothing in v1.30.
    return op == "Exists"


def tolerations_tolerate_taint(tolerations: Iterable[Toleration], taint: Taint) -> bool:
    for toleration in tolerations:  # noqa: SIM110 (hot path; a loop beats any())
        if tolerates(toleration, taint):
            return True
    return False


def do_not_schedule_taints(taint: Taint) -> bool:
    """The taints Filter cares about: NoSchedule and NoExecute."""
    return taint.effect == NO_SCHEDULE or taint.effect == NO_EXECUTE


def find_matching_untolerated_taint(
    taints: Sequence[Taint],
    tolerations: Sequence[Toleration],
    include: TaintFilter | None = None,
) -> Taint | None:
    """The first taint passing ``include`` that no toleration tolerates, else None."""
    for taint in taints:
        if include is not None and not include(taint):
            continue
        if not tolerations_tolerate_taint(tolerations, taint):
            return taint
    return None
