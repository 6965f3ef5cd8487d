"""What extenders answer, as the framework reads it (extender/v1's Victims, the
filter result). Imported only with extenders configured (start-up time)."""

from __future__ import annotations

from ..api.pod import Pod
from ..record import record
from .nodeinfo import NodeInfo

FailedNodes = dict[str, str]


@record
class FilterResult:
    nodes: list[NodeInfo]
    failed: FailedNodes
    failed_and_unresolvable: FailedNodes


@record
class Victims:
    pods: list[Pod]
    num_pdb_violations: int
