"""Which pods the output shows: kubectl's ``-n/--namespace``, ``-A`` and ``-l/--selector``.

Every pod is still planned (the pods shown compete with the others for nodes); the
selection only filters what is printed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from ..api.pod import Pod
from ..api.selectors import LabelSelector, Requirement
from ..engine.records import Decision, Plan
from ..errors import KschedError
from ..record import record

# Compiled on first use (re caches them): only -l/--selector needs them.
_SET = r"^\s*(?P<key>[^\s=!(),]+)\s+(?P<op>in|notin)\s*\((?P<values>[^()]*)\)\s*$"
_EQUALITY = r"^\s*(?P<key>[^\s=!(),]+)\s*(?P<op>==|=|!=)\s*(?P<value>[^\s=!(),]*)\s*$"
_EXISTS = r"^\s*(?P<not>!?)\s*(?P<key>[^\s=!(),]+)\s*$"


def parse_selector(text: str) -> LabelSelector:
    """A kubectl label selector: ``a=b,c!=d,e in (x,y),f notin (z),g,!h``."""
    requirements = [_requirement(part, text) for part in _split(text) if part.strip()]
    return LabelSelector(tuple(requirements))


def _split(text: str) -> list[str]:
    # Commas separate requirements, except inside the parentheses of a set.
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return [*parts, current]


def _requirement(part: str, text: str) -> Requirement:
    if m := re.match(_SET, part):
        values = tuple(sorted(v.strip() for v in m["values"].split(",") if v.strip()))
        return Requirement(m["key"], "In" if m["op"] == "in" else "NotIn", values)
    if m := re.match(_EQUALITY, part):
        return Requirement(m["key"], "NotIn" if m["op"] == "!=" else "In", (m["value"],))
    if m := re.match(_EXISTS, part):
        return Requirement(m["key"], "DoesNotExist" if m["not"] else "Exists")
    raise KschedError(
        f"invalid label selector {text!r} at {part.strip()!r}: use key=value, key!=value, "
        "key in (a,b), key notin (a,b), key or !key, separated by commas",
        field="--selector",
    )


@record(frozen=True)
class Selection:
    """``None`` namespace: every namespace (ksched's default, and ``-A``)."""

    namespace: str | None = None
    selector: LabelSelector | None = None

    @property
    def everything(self) -> bool:
        return self.namespace is None and (self.selector is None or self.selector.is_empty)

    def shown(self, pods: Iterable[Pod]) -> set[str] | None:
        """The keys of the pods to show; ``None`` when every pod is shown."""
        if self.everything:
            return None
        return {
            p.key
            for p in pods
            if (self.namespace is None or p.namespace == self.namespace)
            and (self.selector is None or self.selector.matches(p.meta.labels))
        }


    def nothing_found(self, shown: set[str] | None, decisions: list[Decision]) -> str | None:
        """kubectl get's sentence when the selection shows no pod, else None."""
        if shown is None or decisions:
            return None
        return no_resources(self.namespace)


def no_resources(namespace: str | None) -> str:
    """kubectl get's sentence for an empty listing (of ``namespace``, or of all)."""
    if namespace is None:
        return "No resources found"
    return f"No resources found in {namespace} namespace."


def restrict(plan: Plan, shown: set[str] | None) -> Plan:
    """The plan as the output shows it: only the shown pods' decisions and attempts."""
    if shown is None:
        return plan
    return replace(
        plan,
        decisions=[d for d in plan.decisions if d.pod in shown],
        attempts=[a for a in plan.attempts if a.pod in shown],
    )
