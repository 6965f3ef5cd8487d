"""One pod's story: each attempt reduced to what the report's pod panel draws.

A 5,000-node attempt records a status per filtered node and a score per scored node;
the panel shows rejections grouped by plugin and reason (with a few node names), the
chosen node's and the best other nodes' weighted scores, the tie, the preemption
candidates and the Permit waits. Only that is kept, so the page stays small.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...engine.records import Attempt, PermitWait, PreemptionRecord
from ...framework.columns import IntArray
from ...lazy_numpy import np

# Best-scored other nodes drawn next to the chosen one.
TOP_OTHERS = 5
# Node names listed per rejection group, tie and preemption list; the rest are counted.
SAMPLE = 8
# Attempts kept per pod: the first ones and the last ones (an unschedulable pod retries).
FIRST_ATTEMPTS = 5
LAST_ATTEMPTS = 5


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
    if a.preemption is not None:
        doc["preemption"] = preemption_story(a.preemption)
    if a.permit:
        doc["permit"] = permit_story(a.permit)
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


def preemption_story(p: PreemptionRecord) -> dict[str, Any]:
    """The candidates (node, victims, PDB violations), the chosen node, and the rest counted."""
    others: dict[str, int] = {}
    for _, why in p.not_candidates:
        others[why] = others.get(why, 0) + 1
    return {
        "candidates": [
            {"node": c.node, "victims": list(c.victims), "pdb": c.pdb_violations}
            for c in p.candidates[: SAMPLE * 4]
        ],
        "candidateCount": len(p.candidates),
        "chosen": p.chosen,
        "notCandidates": [
            {"reason": reason, "count": count}
            for reason, count in sorted(others.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
        "notes": preemption_notes(p),
    }


def preemption_notes(p: PreemptionRecord) -> list[str]:
    """What the candidate table does not say: why there were none, or how one was chosen."""
    notes = []
    if p.ineligible:
        notes.append(f"not eligible: {p.ineligible}")
    if p.no_potential_nodes:
        notes.append("no node where preemption might help")
    if p.extenders_kept is not None:
        notes.append(f"extenders kept {', '.join(p.extenders_kept) or 'none'}")
    if p.criterion:
        notes.append(f"decided by {p.criterion}")
    if p.chosen:
        notes.append(f"chose {p.chosen}: victims {', '.join(p.chosen_victims) or 'none'}")
    return notes


def permit_story(waits: Sequence[PermitWait]) -> list[dict[str, Any]]:
    """Each Permit wait: plugin, start, timeout, and how and when it ended."""
    out: list[dict[str, Any]] = []
    for w in waits:
        doc: dict[str, Any] = {"plugin": w.plugin, "start": w.start, "timeout": w.timeout}
        if w.end is not None:
            doc.update(end=w.end, outcome=w.outcome)
            for key, value in (("node", w.node), ("by", w.by), ("message", w.message)):
                if value:
                    doc[key] = value
        out.append(doc)
    return out
