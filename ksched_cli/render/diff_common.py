"""Text shared by the diff table and markdown renderers: rows, cells, the summary line."""

from __future__ import annotations

import json
from typing import Any

from ..diff.model import (
    ABSENT,
    NOT_PLACED,
    RUNNING,
    ConfigDiff,
    DiffResult,
    Margin,
    PluginChange,
    PodChange,
    PodState,
    ProfileDiff,
)
from ..engine import records as rec
from ..record import record
from .reasons import decisive_first

GLOBAL_SCOPE = "(global)"
UNSET = "(unset)"
ARROW = "->"
TOP_DRIVERS = 3

# Summary counters in the order the summary line names them.
_SUMMARY_WORDS = (
    ("moved", "moved"),
    ("becameUnschedulable", "became unschedulable"),
    ("becameScheduled", "became scheduled"),
    ("newlyPreempted", "newly preempted"),
    ("noLongerPreempted", "no longer preempted"),
    ("victimsChanged", "preempted different victims"),
    ("added", "added"),
    ("removed", "removed"),
)


@record(frozen=True)
class ConfigRow:
    scope: str  # GLOBAL_SCOPE or a schedulerName
    subject: str
    base: str
    head: str


@record(frozen=True)
class PodRow:
    pod: str
    base: str
    head: str
    why: str


def value(v: Any) -> str:
    if v is ABSENT:
        return UNSET
    if isinstance(v, str):
        return v if v else '""'
    return json.dumps(v, sort_keys=True, separators=(", ", ": "))


def truncate(text: str, width: int | None) -> str:
    if width is None or len(text) <= width:
        return text
    return text[: max(width - 3, 0)] + "..."


def _plugin_rows(scope: str, changes: list[PluginChange]) -> list[ConfigRow]:
    # One row per plugin and kind of change, naming every extension point it affects.
    grouped: dict[tuple[str, str], list[PluginChange]] = {}
    rows: list[ConfigRow] = []
    for c in changes:
        if c.change == "reordered":
            rows.append(ConfigRow(scope, f"{c.point} order", ", ".join(c.base), ", ".join(c.head)))
        elif c.change == "weight":
            rows.append(ConfigRow(scope, f"{c.plugin} score weight", value(c.base), value(c.head)))
        else:
            grouped.setdefault((c.plugin, c.change), []).append(c)
    for (plugin, change), group in sorted(grouped.items()):
        points = ", ".join(c.point for c in group)
        score = next((c for c in group if c.point == "score"), None)
        weight = ABSENT if score is None else score.base if change == "disabled" else score.head
        state = "enabled" + (f" (weight {weight})" if weight is not ABSENT else "")
        base, head = ("disabled", state) if change == "enabled" else (state, "disabled")
        rows.append(ConfigRow(scope, f"{plugin} at {points}", base, head))
    return rows


def _profile_rows(p: ProfileDiff) -> list[ConfigRow]:
    if p.status == "added":
        return [ConfigRow(p.scheduler_name, "profile", UNSET, "defined")]
    if p.status == "removed":
        return [ConfigRow(p.scheduler_name, "profile", "defined", UNSET)]
    rows = [ConfigRow(p.scheduler_name, s.field, value(s.base), value(s.head)) for s in p.settings]
    rows += _plugin_rows(p.scheduler_name, p.plugins)
    rows += [
        ConfigRow(p.scheduler_name, f"{a.plugin} args {a.field}", value(a.base), value(a.head))
        for a in p.args
    ]
    return rows


def config_rows(diff: ConfigDiff) -> list[ConfigRow]:
    rows = [ConfigRow(GLOBAL_SCOPE, s.field, value(s.base), value(s.head)) for s in diff.settings]
    for p in diff.profiles:
        rows += _profile_rows(p)
    return rows


def state_text(state: PodState | None) -> str:
    if state is None:
        return "(not in manifests)"
    if state.outcome == rec.PREEMPTED:
        return f"Preempted on {state.node} by {state.preempted_by}"
    if state.node and state.outcome in (rec.SCHEDULED, RUNNING):
        return f"{state.outcome} on {state.node}"
    return state.outcome


def margin_text(m: Margin) -> str:
    if m.base.margin is None or m.head.margin is None:
        notes = [f"{side}: {s.note}" for side, s in (("base", m.base), ("head", m.head)) if s.note]
        if m.head.margin is not None:
            notes.append(f"head: {m.head_node} over {m.base_node} {m.head.margin:+d}")
        return "; ".join(notes)
    # The lead of head's node over base's node: negative on base, where base's node won.
    text = f"{m.head_node} over {m.base_node} {m.base.margin:+d} {ARROW} {m.head.margin:+d}"
    words = [f"{d.plugin} {d.shift:+d}" for d in m.drivers if d.shift > 0][:TOP_DRIVERS]
    if m.head.margin == 0:
        words.append("a tie: the lowest node name wins")
    if words:
        text += " (" + ", ".join(words) + ")"
    return text


def _victims(victims: tuple[str, ...]) -> str:
    return ", ".join(victims) if victims else "none"


def why_text(c: PodChange, width: int | None = None) -> str:
    """Why a pod changed; within ``width`` the scheduler's message leads with the reasons
    that rejected the most nodes and drops whole reasons (render/reasons.py)."""
    margin = margin_text(c.margin) if c.margin is not None else ""
    label, message = "", ""
    for side, state in (("head", c.head), ("base", c.base)):
        if state is not None and state.outcome in NOT_PLACED and state.message:
            label, message = ("" if side == "head" else "base: "), state.message
            break
    victims = ""
    if c.base is not None and c.head is not None and c.base.victims != c.head.victims:
        victims = f"victims {_victims(c.base.victims)} {ARROW} {_victims(c.head.victims)}"
    if message and width is not None:
        others = sum(len(p) + 2 for p in (margin, victims) if p)
        message = decisive_first(message, width - others - len(label))
    text = "; ".join(p for p in (margin, label + message if message else "", victims) if p)
    # A message's reasons are kept whole (decisive_first); only other text is cut.
    return text if message else truncate(text, width)


def pod_rows(result: DiffResult, why_width: int | None = None) -> list[PodRow]:
    return [
        PodRow(c.pod, state_text(c.base), state_text(c.head), why_text(c, why_width))
        for c in result.changes
    ]


def summary_line(result: DiffResult) -> str:
    counts = result.summary()
    if not counts["changed"]:
        return f"no placement changes ({counts['pods']} pod(s) compared)"
    parts = [f"{counts[key]} {words}" for key, words in _SUMMARY_WORDS if counts[key]]
    return f"{counts['changed']} of {counts['pods']} pod(s) changed: " + ", ".join(parts)
