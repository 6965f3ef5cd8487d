"""One pod's story: each attempt reduced to what the report's pod panel draws.

A 5,000-node attempt records a status per filtered node and a score per scored node;
the panel shows rejections grouped by plugin and reason (with a few node names), the
chosen node's and the best other nodes' weighted scores, the tie, the preemption
candidates and the Permit waits. Only that is kept, so the page stays small.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...engine.records import Attempt
from ...framework.columns import IntArray

# Best-scored other nodes drawn next to the chosen one.
TOP_OTHERS = 5
# Node names listed per rejection group, tie and preemption list; the rest are counted.
SAMPLE = 8
# Attempts kept per pod: the first ones and the last ones (an unschedulable pod retries).
FIRST_ATTEMPTS = 5
LAST_ATTEMPTS = 5

# The engine's explanation lines (engine/cycle.py, framework/preemption.py).
_CANDIDATE = re.compile(r"^candidate (?P<node>\S+): victims (?P<victims>.*); (?P<pdb>\d+) PDB")
_NOT_CANDIDATE = re.compile(r"^not a candidate (?P<node>\S+): (?P<message>.*)$")
_CHOSE = re.compile(r"^chose (?P<node>\S+): victims")
_WAITING = re.compile(r"^waiting at (?P<plugin>\S+) from t=(?P<start>[\d.e+-]+)s, "
                      r"timeout at t=(?P<timeout>[\d.e+-]+)s$")
_ALLOWED = re.compile(r"^allowed at t=(?P<time>[\d.e+-]+)s: bound to (?P<node>\S+)$")
_REJECTED = re.compile(r"^rejected at t=(?P<time>[\d.e+-]+)s by (?P<by>.+?): (?P<message>.*)$")


def pod_story(attempts: Sequence[Attempt]) -> dict[str, Any]:
    """Every attempt of one pod (the first and last few when it retried many times)."""
    kept = list(attempts)
    skipped = 0
    if len(kept) > FIRST_ATTEMPTS + LAST_ATTEMPTS:
        skipped = len(kept) - FIRST_ATTEMPTS - LAST_ATTEMPTS
        kept = kept[:FIRST_ATTEMPTS] + kept[-LAST_ATTEMPTS:]
    story: dict[str, Any] = {"attempts": [attempt_story(a) for a in kept]}
    if skipped:
        story["skipped"] = skipped
        story["skippedAfter"] = FIRST_ATTEMPTS
    return story


def attempt_story(a: Attempt) -> dict[str, Any]:
    doc: dict[str, Any] = {"time": a.time, "result": a.result}
    for key, value in (("node", a.node), ("message", a.message), ("profile", a.profile)):
        if value:
            doc[key] = value
    if a.evaluated:
        doc["evaluated"] = a.evaluated
        doc["feasible"] = a.feasible
    if a.filtered:
        doc["rejections"] = rejections(a)
    scores = top_scores(a)
    if scores is not None:
        doc["scores"] = scores
    if a.victims:
        doc["victims"] = list(a.victims)
    preemption = a.detail.get("preemption")
    if isinstance(preemption, dict):
        doc["preemption"] = preemption_story(preemption.get("lines", []))
    permit = a.detail.get("permit")
    if isinstance(permit, list) and permit:
        doc["permit"] = permit_story(permit)
    volumes = a.detail.get("volumes")
    if isinstance(volumes, list) and volumes:
        doc["volumes"] = [str(v) for v in volumes]
    return doc


def rejections(a: Attempt) -> list[dict[str, Any]]:
    """Filtered nodes grouped by plugin and reason, most nodes first.

    A node rejected with several reasons counts once under each of them.
    """
    groups: dict[tuple[str, str], list[str]] = {}
    for node, f in sorted(a.filtered.items()):
        for reason in f.reasons or [""]:
            groups.setdefault((f.plugin, reason), []).append(node)
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    return [
        {"plugin": plugin, "reason": reason, "count": len(nodes), "nodes": nodes[:SAMPLE]}
        for (plugin, reason), nodes in ordered
    ]


def top_scores(a: Attempt) -> dict[str, Any] | None:
    """Weighted scores of the chosen node and the best others, and the tie at the top."""
    table = a.score_table
    if table is not None and table.names:
        plugins = sorted(table.weighted)
        return _ranked(table.names, plugins, table.weighted, table.total, a.node)
    if not a.scores:
        return None
    names = sorted(a.scores)
    plugins = sorted({p for s in a.scores.values() for p in s.weighted})
    total = np.array([a.scores[n].total for n in names], dtype=np.int64)
    weighted = {
        p: np.array([a.scores[n].weighted.get(p, 0) for n in names], dtype=np.int64)
        for p in plugins
    }
    return _ranked(names, plugins, weighted, total, a.node)


def _ranked(
    names: Sequence[str],
    plugins: list[str],
    weighted: Mapping[str, IntArray],
    total: IntArray,
    chosen: str,
) -> dict[str, Any]:
    # Thousands of attempts over hundreds of scored nodes: rank with arrays, sort only the few.
    pos = names.index(chosen) if chosen in names else -1
    labels = np.array(names)  # sorts names in C where hundreds of nodes tie
    rows = ([pos] if pos >= 0 else []) + _best(names, labels, total, TOP_OTHERS, pos)
    doc: dict[str, Any] = {
        "plugins": plugins,
        "scored": len(names),
        "rows": [
            {
                "node": names[i],
                "weighted": [int(weighted[p][i]) for p in plugins],
                "total": int(total[i]),
            }
            for i in rows
        ],
    }
    if pos >= 0:
        tied = np.flatnonzero(total == total[pos])
        if len(tied) > 1:
            lowest = np.sort(labels[tied])[: SAMPLE + 1].tolist()
            doc["tie"] = {
                "total": int(total[pos]),
                "count": len(tied) - 1,
                "nodes": [n for n in lowest if n != chosen][:SAMPLE],
            }
    return doc


def _best(
    names: Sequence[str], labels: Any, total: IntArray, k: int, exclude: int
) -> list[int]:
    """The ``k`` best-scored nodes but ``exclude``: highest total, then lowest name."""
    index = np.arange(len(names))
    if exclude >= 0:
        index = index[index != exclude]
    values = total[index]
    if len(index) > k:
        kth = np.partition(values, len(values) - k)[len(values) - k]
        above = index[values > kth].tolist()
        # Among the nodes at the k-th total, the lowest names fill the remaining places.
        at = index[values == kth]
        fill = at[np.argsort(labels[at], kind="stable")[: k - len(above)]]
        index = np.array(above + fill.tolist(), dtype=np.int64)
    return sorted(index.tolist(), key=lambda i: (-int(total[i]), names[i]))


def preemption_story(lines: Sequence[str]) -> dict[str, Any]:
    """The candidates (node, victims, PDB violations), the chosen node, and the rest counted."""
    candidates: list[dict[str, Any]] = []
    others: dict[str, int] = {}
    chosen = ""
    notes: list[str] = []
    for raw in lines:
        line = raw.removeprefix("preemption: ")
        if m := _CANDIDATE.match(line):
            # Victims are listed as plain text: "a, b", or "none".
            victims = [] if m["victims"] == "none" else m["victims"].split(", ")
            candidates.append({"node": m["node"], "victims": victims, "pdb": int(m["pdb"])})
        elif m := _NOT_CANDIDATE.match(line):
            others[m["message"]] = others.get(m["message"], 0) + 1
        elif m := _CHOSE.match(line):
            chosen = m["node"]
            notes.append(line)
        else:
            notes.append(line)
    return {
        "candidates": candidates[: SAMPLE * 4],
        "candidateCount": len(candidates),
        "chosen": chosen,
        "notCandidates": [
            {"reason": reason, "count": count}
            for reason, count in sorted(others.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
        "notes": notes,
    }


def permit_story(lines: Sequence[str]) -> list[dict[str, Any]]:
    """Each Permit wait: plugin, start, timeout, and how and when it ended."""
    waits: list[dict[str, Any]] = []
    for line in lines:
        if m := _WAITING.match(line):
            waits.append(
                {"plugin": m["plugin"], "start": float(m["start"]),
                 "timeout": float(m["timeout"])}
            )
        elif (m := _ALLOWED.match(line)) is not None:
            for wait in waits:
                wait.update(end=float(m["time"]), outcome="allowed", node=m["node"])
        elif (m := _REJECTED.match(line)) is not None:
            for wait in waits:
                wait.update(end=float(m["time"]), outcome="rejected", by=m["by"],
                            message=m["message"])
    return waits
