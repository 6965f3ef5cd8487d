"""The score part of an explanation: the chosen node and the best N others, ties summarized.

A score table covers every feasible node (thousands on a large cluster); a reader needs
the winner, its closest rivals and how many nodes tied, so only those rows are built.
"""

from __future__ import annotations

from ..engine.records import Attempt, PluginScores
from ..lazy_numpy import np
from ..record import record
from .plain import format_rows

EXAMPLES = 3  # node names shown for a group (ties, filter reasons) before "..."


@record(frozen=True)
class ScoreRows:
    plugins: list[str]
    rows: list[tuple[str, PluginScores]]  # the chosen node first (when scored), then by rank
    scored: int  # nodes in the full table
    tied: list[str]  # every other node with the chosen node's total, sorted


def examples(names: list[str], count: int | None = None) -> str:
    """``a, b, c, ...``: the first few of ``names`` (already sorted)."""
    total = len(names) if count is None else count
    shown = ", ".join(names[:EXAMPLES])
    return shown + (", ..." if total > EXAMPLES else "")


def score_rows(a: Attempt, top: int) -> ScoreRows:
    """The chosen node and the ``top`` best other nodes (highest total, then lowest name)."""
    table = a.score_table
    if table is None:
        scores = a.scores
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1].total, kv[0]))
        best = scores[a.node].total if a.node in scores else None
        tied = sorted(n for n, s in scores.items() if s.total == best and n != a.node)
        plugins = sorted({p for s in scores.values() for p in s.weighted})
        return ScoreRows(plugins, _chosen_first(ranked, a.node, top), len(scores), tied)
    totals = table.total
    names = table.names
    count = len(names)
    keep = min(top + 1, count)
    # Every node scoring at least the keep-th best total competes for the rows shown.
    threshold = np.partition(totals, count - keep)[count - keep] if keep else totals.max()
    candidates = np.flatnonzero(totals >= threshold).tolist()
    if a.node in names:
        chosen = names.index(a.node)
        if chosen not in candidates:
            candidates.append(chosen)
        best = totals[chosen]
        tied = sorted(names[i] for i in np.flatnonzero(totals == best).tolist() if i != chosen)
    else:
        tied = []
    order = sorted(candidates, key=lambda i: (-int(totals[i]), names[i]))
    ranked = [(names[i], _node_scores(a, i)) for i in order]
    return ScoreRows(sorted(table.plugins), _chosen_first(ranked, a.node, top), count, tied)


def _node_scores(a: Attempt, i: int) -> PluginScores:
    table = a.score_table
    assert table is not None
    return PluginScores(
        {p: int(v[i]) for p, v in table.raw.items()},
        {p: int(v[i]) for p, v in table.normalized.items()},
        {p: int(v[i]) for p, v in table.weighted.items()},
        int(table.total[i]),
    )


def _chosen_first(
    ranked: list[tuple[str, PluginScores]], chosen: str, top: int
) -> list[tuple[str, PluginScores]]:
    first = [r for r in ranked if r[0] == chosen]
    return first + [r for r in ranked if r[0] != chosen][:top]


def _cell(s: PluginScores, plugin: str) -> str:
    if plugin not in s.raw and plugin not in s.normalized:
        return str(s.weighted.get(plugin, "-"))  # only weighted scores were recorded
    return f"{s.raw.get(plugin, '-')}/{s.normalized.get(plugin, '-')}/{s.weighted.get(plugin, '-')}"


def score_lines(a: Attempt, top: int) -> list[str]:
    """The scores section: a table of the chosen node and the best others, then why it won."""
    found = score_rows(a, top)
    others = len(found.rows) - (1 if any(n == a.node for n, _ in found.rows) else 0)
    title = f"  scores of {found.scored} node(s)"
    if found.scored > len(found.rows):
        title += f", the chosen node and the best {others} other(s)"
    out = [title + " (raw/normalized/weighted per plugin):"]
    headers = ["NODE", *found.plugins, "TOTAL"]
    rows = [
        [node + (" *" if node == a.node else ""), *(_cell(s, p) for p in found.plugins),
         str(s.total)]
        for node, s in found.rows
    ]
    out.extend("    " + line for line in format_rows(headers, rows))
    hidden = found.scored - len(found.rows)
    if hidden > 0:
        out.append(f"    ... {hidden} more node(s) (--top N shows more; -o json --explain has all)")
    why = _why_winner(a, found)
    if why:
        out.append(why)
    return out


def _why_winner(a: Attempt, found: ScoreRows) -> str:
    if not a.node or not found.rows or found.rows[0][0] != a.node:
        return ""
    winner = found.rows[0][1]
    if found.tied:
        chooser = (
            "the lowest node name wins" if a.node < found.tied[0] else "the tie-break chose it"
        )
        listed = examples(found.tied)
        return f"  tied at {winner.total} with {len(found.tied)} node(s) ({listed}); {chooser}"
    if len(found.rows) < 2:
        return ""
    ru_name, runner = found.rows[1]
    diffs = sorted(
        ((winner.weighted.get(p, 0) - runner.weighted.get(p, 0), p) for p in winner.weighted),
        reverse=True,
    )
    leads = ", ".join(f"{p} +{d}" for d, p in diffs if d > 0) or "no single plugin"
    return f"  {a.node} beat {ru_name} by {winner.total - runner.total} ({leads})"
