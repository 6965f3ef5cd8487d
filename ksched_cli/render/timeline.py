"""``ksched simulate`` output: the plan as a timeline, as text or a JSON/YAML mapping."""

from __future__ import annotations

from typing import Any

from ..engine.records import Attempt
from ..errors import printable
from ..whatif.simulate import Timeline, TimelineEntry
from .document import API_VERSION, plan_document
from .explain import render_story
from .table import render_table
from .text_plan import DEFAULT_TOP
from .whatif_document import change_doc, nodes_doc, whatif_document
from .whatif_text import nodes_table


def _attempt_line(a: Attempt) -> str:
    where = f" {a.node}" if a.node else ""
    why = f": {a.message}" if a.message and a.result != "Scheduled" else ""
    return f"    t={a.time:g}s {a.pod} {a.result}{where}{why}"


def _rejection_detail(a: Attempt) -> list[str]:
    """What a failed attempt's claims tie the pod to (beside the scheduler's message)."""
    lines = a.detail.get("volumes") if a.result != "Scheduled" else None
    return [str(line) for line in lines] if isinstance(lines, list) else []


def _entry_lines(entry: TimelineEntry, verbose: bool) -> list[str]:
    lines = [f"t={entry.time:g}s  {entry.step}"]
    if entry.operation is not None:
        for c in entry.operation.changes:
            node = f" on {c.node}" if c.node else ""
            lines.append(f"  {c.change} {c.pod}{node}: {c.reason}")
        lines.extend(f"  warning: {w}" for w in entry.operation.warnings)
    for move in entry.requeued:
        if move.pods or verbose:  # an event that moved nothing is noise unless asked (-v)
            pods = ", ".join(move.pods) if move.pods else "no pod"
            lines.append(f"  event {move.event}: requeued {pods}")
    if entry.attempts:
        lines.append("  decisions:")
        for a in entry.attempts:
            lines.append(_attempt_line(a))
            lines.extend(f"      {line}" for line in _rejection_detail(a))
    return [printable(line) for line in lines]  # each a line: breaks inside reasons escaped


def render_timeline(timeline: Timeline, verbose: bool = False) -> str:
    lines = ["Timeline:"]
    for entry in timeline.entries:
        lines.extend(_entry_lines(entry, verbose))
    lines += ["", "Final placements:"]
    text = "\n".join(lines) + "\n" + render_table(timeline.plan)
    report = timeline.report
    text += "\nNodes (requests/allocatable, before -> after):\n"
    return text + nodes_table(report.before, report.after) + "\n"


def explain_story(timeline: Timeline, pod: str) -> str:
    """``--explain-pod``: the pod's outcome and every attempt of the scenario."""
    plan = timeline.plan
    attempts = [a for entry in timeline.entries for a in entry.attempts if a.pod == pod]
    decision = next((d for d in plan.decisions if d.pod == pod), None)
    return render_story(pod, decision, attempts, plan.node_count, DEFAULT_TOP)


def _attempt_doc(a: Attempt) -> dict[str, Any]:
    doc: dict[str, Any] = {"time": a.time, "pod": a.pod, "result": a.result}
    if a.node:
        doc["node"] = a.node
    if a.message:
        doc["message"] = a.message
    detail = _rejection_detail(a)
    if detail:
        doc["volumes"] = detail
    return doc


def timeline_document(timeline: Timeline) -> dict[str, Any]:
    entries = timeline_entries(timeline)
    plan = plan_document(timeline.plan, explain=False)
    whatif = whatif_document(timeline.report)
    return {
        "apiVersion": API_VERSION,
        "kind": "Simulation",
        "timeline": entries,
        "pods": plan.get("pods", []),
        "summary": plan.get("summary", {}),
        "outcomes": whatif["outcomes"],
        "nodes": nodes_doc(timeline.report.before, timeline.report.after),
    }


def timeline_entries(timeline: Timeline) -> list[dict[str, Any]]:
    """The document's ``timeline``: per step its changes, requeues and decisions."""
    entries = []
    for entry in timeline.entries:
        doc: dict[str, Any] = {"time": entry.time, "step": entry.step}
        if entry.operation is not None:
            doc["changes"] = [change_doc(c) for c in entry.operation.changes]
            if entry.operation.warnings:
                doc["warnings"] = list(entry.operation.warnings)
        doc["requeued"] = [{"event": r.event, "pods": r.pods} for r in entry.requeued]
        doc["decisions"] = [_attempt_doc(a) for a in entry.attempts]
        entries.append(doc)
    return entries
