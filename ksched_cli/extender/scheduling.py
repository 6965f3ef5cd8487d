"""Where the scheduler calls extenders (schedule_one.go, preemption.go), v1.30 order.

``Extenders`` is kube-scheduler's ``sched.Extenders`` plus the warnings that its log
lines become in a plan: an ignorable extender's failure is skipped, and said.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING

from ..api.pod import Pod
from ..config.types import Extender
from ..errors import KschedError, Location
from ..framework.columns import IntArray
from ..framework.nodeinfo import NodeInfo
from ..framework.status import Code, Status
from ..framework.types import MAX_NODE_SCORE
from ..lazy_numpy import np
from ..record import record
from .transport import ExtenderError, HTTPTransport, TLSSetupError, Transport
from .wire import MAX_EXTENDER_PRIORITY

if TYPE_CHECKING:  # the client (JSON codecs, Go types) only for a plan with extenders
    from ..framework import extender as framework
    from ..framework.extender_types import Victims
    from .client import HTTPExtender

EXTENDER_NAME = "Extender"  # framework.ExtenderName, in UnschedulablePlugins


@record
class Extenders:
    """The scheduler's extenders, with the warnings their failures became."""

    items: list[HTTPExtender] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # v1.32+ (NodeToStatus.Set): a failure replaces a node's status instead of adding to it.
    overwrite: bool = False

    def __bool__(self) -> bool:
        return bool(self.items)

    def filter_or_score(self) -> bool:
        """hasExtenderFilters() || an extender IsPrioritizer(): sampling looks further."""
        return any(e.config.filter_verb or e.config.prioritize_verb for e in self.items)

    def warn(self, text: str) -> None:
        if text not in self.warnings:  # one line per distinct failure, not per attempt
            self.warnings.append(text)

    def skip(self, ext: HTTPExtender, verb: str, err: ExtenderError) -> None:
        self.warn(f"extender {ext.name}: {verb} failed, skipped as ignorable: {err}")

    # --- Filter ------------------------------------------------------------------------
    def filter(
        self, pod: Pod, feasible: list[NodeInfo], statuses: dict[str, Status]
    ) -> list[NodeInfo]:
        """findNodesThatPassExtenders; raises ExtenderError for a non-ignorable failure."""
        for ext in self.items:
            if not feasible:
                break
            if not ext.is_interested(pod):
                continue
            try:
                result = ext.filter(pod, feasible)
            except ExtenderError as err:
                if ext.ignorable:
                    self.skip(ext, "filter", err)
                    continue
                raise
            if self.overwrite:
                _set_failures(result.failed, result.failed_and_unresolvable, statuses)
            else:
                _merge_failures(result.failed, result.failed_and_unresolvable, statuses)
            feasible = result.nodes
        return feasible

    # --- Prioritize --------------------------------------------------------------------
    def scores(self, pod: Pod, nodes: Sequence[NodeInfo]) -> dict[str, tuple[IntArray, IntArray]]:
        """(raw, weighted) score columns per interested extender; failures give no score."""
        index = {ni.name: i for i, ni in enumerate(nodes)}
        columns: dict[str, tuple[IntArray, IntArray]] = {}
        for ext in self.items:
            if not ext.is_interested(pod):
                continue
            try:
                pairs, weight = ext.prioritize(pod, nodes)
            except ExtenderError as err:
                # prioritizeNodes ignores the error whatever ``ignorable`` says.
                self.warn(f"extender {ext.name}: prioritize failed, no score given: {err}")
                continue
            raw = np.zeros(len(nodes), dtype=np.int64)
            for host, score in pairs:
                if host in index:  # hosts the extender made up are dropped, as in Go
                    raw[index[host]] += score
            weighted = raw * weight * (MAX_NODE_SCORE // MAX_EXTENDER_PRIORITY)
            columns[_column_name(ext.name, columns)] = (raw, weighted)
        return columns

    # --- Preemption --------------------------------------------------------------------
    def process_preemption(
        self, pod: Pod, victims: dict[str, Victims], nodes: Mapping[str, NodeInfo]
    ) -> dict[str, Victims]:
        """callExtenders: each preempting extender narrows the candidate map in turn."""
        for ext in self.items:
            if not victims:
                break
            if not ext.supports_preemption() or not ext.is_interested(pod):
                continue
            try:
                narrowed = ext.process_preemption(pod, victims, nodes)
            except ExtenderError as err:
                if ext.ignorable:
                    self.skip(ext, "preempt", err)
                    continue
                raise
            for node in list(narrowed):
                if narrowed[node].pods:
                    continue
                if not ext.ignorable:
                    raise ExtenderError(f'expected at least one victim pod on node "{node}"')
                del narrowed[node]
            victims = narrowed
        return victims

    # --- Bind --------------------------------------------------------------------------
    def bind(self, pod: Pod, node: str) -> tuple[bool, Status | None]:
        """extendersBinding: the first interested binder binds, errors become Error."""
        for ext in self.items:
            if not ext.is_binder() or not ext.is_interested(pod):
                continue
            try:
                ext.bind(pod, node)
            except ExtenderError as err:
                return True, Status(Code.ERROR, error=str(err))
            return True, None
        return False, None


def _merge_failures(
    failed: Mapping[str, str], unresolvable: Mapping[str, str], statuses: dict[str, Status]
) -> None:
    for name, msg in unresolvable.items():
        earlier = statuses[name].all_reasons() if name in statuses else []
        statuses[name] = Status(
            Code.UNSCHEDULABLE_AND_UNRESOLVABLE, *earlier, msg, plugin=EXTENDER_NAME
        )
    for name, msg in failed.items():
        if name in unresolvable:
            continue
        if name in statuses:
            # A copy: statuses are shared between nodes and never changed in place.
            old = statuses[name]
            statuses[name] = Status(old.code, *old.reasons, msg, error=old.error, plugin=old.plugin)
        else:
            statuses[name] = Status(Code.UNSCHEDULABLE, msg, plugin=EXTENDER_NAME)


def _set_failures(
    failed: Mapping[str, str], unresolvable: Mapping[str, str], statuses: dict[str, Status]
) -> None:
    for name, msg in unresolvable.items():
        statuses[name] = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, msg, plugin=EXTENDER_NAME)
    for name, msg in failed.items():
        if name not in unresolvable:
            statuses[name] = Status(Code.UNSCHEDULABLE, msg, plugin=EXTENDER_NAME)


def _column_name(name: str, taken: Mapping[str, object]) -> str:
    """The ScoreTable column: ``Extender(<urlPrefix>)``, numbered if a prefix repeats."""
    base = f"{EXTENDER_NAME}({name})"
    column, n = base, 1
    while column in taken:
        n += 1
        column = f"{base}#{n}"
    return column


def build_extenders(
    configs: Sequence[Extender], transport: Transport | None, source: str
) -> Extenders:
    """sched.Extenders for a configuration, set up before the plan starts.

    As kube-scheduler builds each extender's transport when it starts, TLS material that
    does not load stops the run: one KschedError naming ``extenders[i].tlsConfig...``.
    """
    if not configs:
        return Extenders()
    from .client import HTTPExtender

    transport = transport or HTTPTransport()
    for i, config in enumerate(configs):
        try:
            transport.prepare(config)
        except TLSSetupError as err:
            raise KschedError(
                err.message, Location(source), f"extenders[{i}].{err.field}"
            ) from None
    return Extenders([HTTPExtender(c, transport) for c in configs])


if TYPE_CHECKING:  # what preemption calls through handle.cluster (mypy checks it)
    _EXTENDERS: type[framework.Extenders] = Extenders
