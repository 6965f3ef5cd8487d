"""Properties of the summarizing renderers under Hypothesis (seeded, derandomized, bounded):
the PR comment always fits GitHub's limit, selectors parse or fail with one error, and
grouped explanations count every rejected node."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_cli.diff.model import (
    ADDED,
    MOVED,
    OUTCOME,
    ConfigDiff,
    DiffResult,
    PodChange,
    PodState,
    Side,
)
from ksched_cli.engine.records import Attempt, FilteredNode
from ksched_cli.errors import KschedError
from ksched_cli.render.diff_markdown import GITHUB_COMMENT_LIMIT, MARKER, render_diff_markdown
from ksched_cli.render.explain import filtered_lines
from ksched_cli.render.selection import parse_selector

BOUNDED = settings(max_examples=40, derandomize=True, deadline=None)

_text = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=120
)


@st.composite
def _change(draw: st.DrawFn, index: int) -> PodChange:
    pod = f"ns-{draw(st.integers(0, 3))}/{draw(_text)}-{index}"
    kind = draw(st.sampled_from([ADDED, MOVED, OUTCOME]))
    node_a, node_b = draw(_text), draw(_text)
    head = PodState(draw(st.sampled_from(["Scheduled", "Unschedulable", "Preempted"])), node_b,
                    draw(_text))
    base = None if kind == ADDED else PodState("Scheduled", node_a)
    owner = draw(st.sampled_from(["", "deployment/web", f"statefulset/{draw(_text)}"]))
    return PodChange(pod, (kind,), base, head, owner=owner)


@st.composite
def _result(draw: st.DrawFn) -> DiffResult:
    count = draw(st.integers(0, 1500))
    template = [draw(_change(i)) for i in range(min(count, 30))]
    # Many rows from a few drawn shapes: large comments without drawing every row.
    changes = [
        PodChange(f"{c.pod}-{i}", c.kinds, c.base, c.head, owner=c.owner)
        for i in range(count)
        for c in [template[i % len(template)]]
    ] if template else []
    side = Side(draw(_text), [draw(_text)], {"Scheduled": count})
    return DiffResult(side, side, ConfigDiff(), changes, count + 5)


@BOUNDED
@given(_result())
def test_the_comment_always_fits_and_starts_with_the_marker(result: DiffResult) -> None:
    text = render_diff_markdown(result)
    assert len(text) < GITHUB_COMMENT_LIMIT
    assert text.startswith(MARKER + "\n")
    if result.changes:
        assert text.rstrip().endswith("</details>")


@BOUNDED
@given(st.text(max_size=60))
def test_a_selector_parses_or_fails_with_one_error(text: str) -> None:
    try:
        selector = parse_selector(text)
    except KschedError as exc:
        assert "invalid label selector" in exc.message
        return
    assert all(r.key and r.operator for r in selector.requirements)


@BOUNDED
@given(
    st.dictionaries(
        st.from_regex(r"node-[0-9]{1,4}", fullmatch=True),
        st.tuples(st.sampled_from(["Fit", "Taints", "Spread"]),
                  st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=2, unique=True)),
        min_size=1, max_size=300,
    )
)
def test_grouped_rejections_count_every_node_once_per_reason(
    filtered: dict[str, tuple[str, list[str]]],
) -> None:
    attempt = Attempt("ns/p", 0.0, "Unschedulable",
                      filtered={n: FilteredNode(p, r) for n, (p, r) in filtered.items()})
    lines = filtered_lines(attempt)
    assert lines[0] == f"  filtered: {len(filtered)} node(s) rejected"
    counted = sum(int(line.split()[0]) for line in lines[1:])
    assert counted == sum(len(r) for _, r in filtered.values())
