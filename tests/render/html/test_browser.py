"""The examples' reports in a real headless Chromium: no console errors, the numbers shown.

Without a browser the tests skip locally and fail in CI (``CI=true``): ``.ci/run``
installs Debian's chromium when it is missing. ``$KSCHED_CHROMIUM`` names another binary.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.browser import Browser, BrowserError, Page, find_chromium
from tests.cli.helpers import PLAN_EXAMPLES, run
from tests.diff.helpers import EXAMPLE_ARGS
from tests.diff.helpers import run as run_diff

from .helpers import page_data, reports
from .test_structure import _expected_nodes
from .whatif_reports import capacity_answer, plan_answer, simulate_answer


def _no_browser(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and no browser can run: {why}")
    pytest.skip(f"no browser: {why}")


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    executable = find_chromium()
    if executable is None:
        _no_browser("no chromium on PATH (apt-get install chromium, or set $KSCHED_CHROMIUM)")
    assert executable is not None
    try:
        browser = Browser(executable)
    except (BrowserError, OSError) as exc:
        _no_browser(str(exc))
        raise
    try:
        yield browser.page()
    finally:
        browser.close()


def _open(page: Page, html: str, path: Path) -> None:
    path.write_text(html, encoding="utf-8")
    page.events.clear()
    page.open(path.as_uri())
    assert page.errors() == []


def _shown_nodes(page: Page) -> dict[str, dict[str, list[int]]]:
    rows = page.evaluate("""[...document.querySelectorAll('#nodes tr[data-node]')].map(tr =>
        [tr.dataset.node, [...tr.querySelectorAll('td.res')].map(td =>
            [td.dataset.before, td.dataset.after, td.dataset.alloc])])""")
    return {
        name: {
            key: [int(cells[i][k]) for i in range(3)]
            for k, key in enumerate(("before", "after", "alloc"))
        }
        for name, cells in rows
    }


def _story(page: Page, pod: str) -> dict[str, Any]:
    """Click the pod's row as a user would, and read the story panel."""
    page.evaluate("document.querySelector('nav button[data-tab=pods]').click()")
    page.evaluate(f"document.querySelector('#pod-table tr[data-pod={json.dumps(pod)}]').click()")
    page.wait_for("!document.getElementById('story').hidden")
    story: dict[str, Any] = page.evaluate("""(() => {
        const s = document.getElementById('story');
        return {
          title: s.querySelector('#story-title').textContent,
          outcome: s.querySelector('#story-outcome').textContent,
          attempts: [...s.querySelectorAll('.attempt')].map(a => ({
            result: a.dataset.result,
            totals: Object.fromEntries([...a.querySelectorAll('svg.scores g[data-node]')]
                .map(g => [g.dataset.node, Number(g.dataset.total)])),
            rejected: [...a.querySelectorAll('table.rejections tbody tr')]
                .map(tr => Number(tr.cells[2].textContent)).reduce((x, y) => x + y, 0),
            text: a.innerText,
          })),
        };
    })()""")
    return story


@pytest.mark.parametrize("example", PLAN_EXAMPLES)
def test_plan_report_in_chromium(page: Page, tmp_path: Path, example: str) -> None:
    doc, html = reports(example).doc, reports(example).html
    _open(page, html, tmp_path / "report.html")
    # The cluster view shows every node with the plan's numbers.
    assert _shown_nodes(page) == _expected_nodes(example, doc)
    # The story of the first pod with an attempt, clicked open.
    attempts = [a for a in doc.get("attempts", []) if a["pod"] == doc["attempts"][0]["pod"]]
    pod = attempts[0]["pod"]
    story = _story(page, pod)
    decision = next(d for d in doc["pods"] if d["pod"] == pod)
    assert (story["title"], story["outcome"]) == (pod, decision["outcome"])
    assert [a["result"] for a in story["attempts"]] == [a["result"] for a in attempts]
    for shown, want in zip(story["attempts"], attempts, strict=True):
        scores = want.get("scores", {})
        assert {n: scores[n]["total"] for n in shown["totals"]} == shown["totals"]
        assert shown["rejected"] == sum(len(f["reasons"]) or 1 for f in want["filtered"].values())
    page.screenshot(tmp_path / f"{example}.png")
    assert (tmp_path / f"{example}.png").stat().st_size > 1000
    assert page.errors() == []


def test_preemption_story_shows_candidates_and_victims(page: Page, tmp_path: Path) -> None:
    html = reports("preemption").html
    _open(page, html, tmp_path / "report.html")
    first = _story(page, "default/payments")["attempts"][0]["text"]
    assert "Victims: default/batch-b1" in first
    assert "node-a\tdefault/batch-a2, default/batch-a1\t1" in first
    assert "★ node-b\tdefault/batch-b1\t0" in first
    assert "NodeResourcesFit\tInsufficient cpu\t2\tnode-a, node-b" in first


def test_gang_story_shows_the_tie_and_the_permit_wait(page: Page, tmp_path: Path) -> None:
    html = reports("gang").html
    _open(page, html, tmp_path / "report.html")
    story = _story(page, "default/training-0")["attempts"][0]
    assert story["totals"] == {"gpu-0": 412, "gpu-1": 412}  # v1.36's scores
    assert "Tie: gpu-0 shared the top total 412 with 1 node(s) (gpu-1)" in story["text"]
    assert "Coscheduling: waited from t=0s, allowed at t=0s (timeout t=30s)" in story["text"]
    # A link into the page opens a story too.
    page.evaluate("location.hash = '#pod=default%2Fetl-0'")
    page.wait_for("document.getElementById('story-title').textContent === 'default/etl-0'")
    page.screenshot(tmp_path / "gang-story.png")
    assert page.errors() == []


def test_node_filter_and_pod_search(page: Page, tmp_path: Path) -> None:
    doc, html = reports("gang").doc, reports("gang").html
    _open(page, html, tmp_path / "report.html")
    page.evaluate("""(() => { const s = document.getElementById('node-state');
        s.value = 'evicted'; s.dispatchEvent(new Event('change')); })()""")
    evicted = page.evaluate("[...document.querySelectorAll('#nodes tr[data-node]')]"
                            ".map(tr => tr.dataset.node)")
    assert evicted == sorted({d["node"] for d in doc["pods"] if d["outcome"] == "Preempted"})
    page.evaluate("document.querySelector('#nodes tr[data-node]').click()")
    on_node = page.evaluate("[...document.querySelectorAll('#pod-table tr[data-pod]')]"
                            ".map(tr => tr.dataset.pod)")
    assert on_node == [d["pod"] for d in doc["pods"] if d.get("node") == evicted[0]]
    page.evaluate("""(() => { const s = document.getElementById('pod-search');
        s.value = 'etl-1'; s.dispatchEvent(new Event('input')); })()""")
    assert page.evaluate("document.querySelectorAll('#pod-table tr[data-pod]').length") == 0
    assert page.errors() == []


def test_diff_report_in_chromium(page: Page, tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as mp:
        result = run_diff(mp, *EXAMPLE_ARGS, "-o", "html")
        doc = json.loads(run_diff(mp, *EXAMPLE_ARGS, "-o", "json").stdout)
    assert result.exit_code == 3
    _open(page, result.stdout, tmp_path / "diff.html")
    rows = page.evaluate("""[...document.querySelectorAll('#change-table tr[data-pod]')].map(tr =>
        [tr.dataset.pod, tr.dataset.category,
         tr.querySelector('td.side-base').dataset.node || '',
         tr.querySelector('td.side-head').dataset.node || ''])""")
    assert [r[0] for r in rows] == [p["pod"] for p in doc["pods"]]
    for (_, _, base, head), p in zip(rows, doc["pods"], strict=True):
        sides = (p["base"] or {}, p["head"] or {})
        assert (base, head) == (sides[0].get("node", ""), sides[1].get("node", ""))
    data = page_data(result.stdout)
    assert {r[1] for r in rows} <= set(data["categories"])
    assert sum(data["categories"].values()) == doc["summary"]["changed"]
    page.evaluate("document.querySelector('nav button[data-tab=nodes]').click()")
    per_node = page.evaluate("""[...document.querySelectorAll('#node-table tr[data-node]')]
        .map(tr => [tr.dataset.node, tr.querySelector('td.gained').textContent,
         tr.querySelector('td.lost').textContent])""")
    assert per_node == [[n["node"], ", ".join(n["gained"]), ", ".join(n["lost"])]
                        for n in data["nodes"]]
    page.evaluate("document.querySelector('#node-table tr[data-node=\"node-c\"]').click()")
    shown = page.evaluate("[...document.querySelectorAll('#change-table tr[data-pod]')]"
                          ".map(tr => tr.dataset.pod)")
    assert shown == [
        p["pod"] for p in doc["pods"]
        if "node-c" in ((p["base"] or {}).get("node"), (p["head"] or {}).get("node"))
    ]
    page.screenshot(tmp_path / "diff.png")
    assert page.errors() == []


def test_page_and_python_format_amounts_alike(page: Page, tmp_path: Path) -> None:
    from ksched_cli.render.html.page import amount

    html = reports("basic").html
    _open(page, html, tmp_path / "report.html")
    values = [0, 1, 5, 100, 999, 1500, 4000, 512, 1 << 20, 1152 << 20, 1536 << 20, 8 << 30,
              (3 << 40) + 7, 123456789]
    cases = [(v, r) for v in values for r in ("cpu", "memory", "pods")]
    shown = page.evaluate(f"{json.dumps(cases)}.map(([v, r]) => KS.amount(v, r))")
    assert shown == [amount(v, r) for v, r in cases]


def _triple(side: dict[str, Any] | None, key: str = "requested") -> list[int] | None:
    return None if side is None else [side[r][key] for r in ("cpu", "memory", "pods")]


def test_drain_report_in_chromium(page: Page, tmp_path: Path) -> None:
    answer = plan_answer("drain-timeout")
    whatif = answer.doc["whatif"]
    _open(page, answer.html, tmp_path / "drain.html")
    # The What-if tab is first and open: every pod change, in order, with its PDB.
    assert page.evaluate("document.getElementById('whatif').hidden") is False
    rows = page.evaluate("""[...document.querySelectorAll('#wi-changes tr[data-pod]')].map(tr =>
        [tr.dataset.pod, tr.dataset.change, tr.querySelector('td.pdb').textContent])""")
    expected = [c for op in whatif["operations"] for c in op["changes"]] + whatif["outcomes"]
    assert rows == [[c["pod"], c["change"], c.get("podDisruptionBudget", "")] for c in expected]
    # Nodes: the changed ones, then all, with the JSON's requests and allocatable.
    usage = """[...document.querySelectorAll('#wi-usage tr[data-node]')].map(tr =>
        [tr.dataset.node, ...['before', 'after', 'allocBefore', 'allocAfter'].map(k =>
          [...tr.querySelectorAll('td.res')].map(td => td.dataset[k] === undefined
            ? null : Number(td.dataset[k])))])"""

    def want(n: dict[str, Any]) -> list[Any]:
        b, a = n.get("before"), n.get("after")
        return [n["name"], _triple(b), _triple(a), _triple(b, "allocatable"),
                _triple(a, "allocatable")]

    def shown(rows: list[list[Any]]) -> list[list[Any]]:
        return [[r[0], *[None if all(v is None for v in vs) else vs for vs in r[1:]]]
                for r in rows]

    changed = [n for n in whatif["nodes"] if n.get("before") != n.get("after")]
    assert shown(page.evaluate(usage)) == [want(n) for n in changed]
    page.evaluate("document.getElementById('wi-all').click()")
    assert shown(page.evaluate(usage)) == [want(n) for n in whatif["nodes"]]
    # A chip filters the changes; a recreated pod opens its story.
    page.evaluate("document.querySelector('#whatif-counts [data-change=BlockedDrain]').click()")
    assert page.evaluate("[...document.querySelectorAll('#wi-changes tr[data-pod]')]"
                         ".map(tr => tr.dataset.pod)") == ["default/web-7d9f6-8qz5m"]
    moved = next(c for c in whatif["outcomes"] if c["change"] == "Moved")
    page.evaluate(f"location.hash = '#pod={quote(moved['pod'], safe='')}'")
    page.wait_for(f"document.getElementById('story-title').textContent === "
                  f"{json.dumps(moved['pod'])}")
    assert page.evaluate("document.getElementById('story-node').textContent") == moved["node"]
    page.screenshot(tmp_path / "drain.png")
    assert (tmp_path / "drain.png").stat().st_size > 1000
    assert page.errors() == []


@pytest.mark.parametrize("name", ["api", "worker-drained"])
def test_capacity_report_in_chromium(page: Page, tmp_path: Path, name: str) -> None:
    answer = capacity_answer(name)
    doc = answer.doc
    _open(page, answer.html, tmp_path / "capacity.html")
    assert page.evaluate("document.getElementById('capacity-count').dataset.count") == str(
        doc["count"])
    copies = page.evaluate("""[...document.querySelectorAll('#copies-table tr[data-node]')]
        .map(tr => [tr.dataset.node, Number(tr.querySelector('td.copies .count').textContent)])""")
    assert dict(copies) == doc["perNode"]
    # A node's row leads to the cluster view, whose numbers are the JSON's.
    first = copies[0][0]
    page.evaluate(f"document.querySelector('#copies-table tr[data-node={json.dumps(first)}]')"
                  ".click()")
    assert page.evaluate("document.getElementById('cluster').hidden") is False
    assert [n for n in _shown_nodes(page)] == [first]
    page.evaluate("""(() => { const s = document.getElementById('node-search');
        s.value = ''; s.dispatchEvent(new Event('input')); })()""")
    assert {k: (v["before"], v["after"]) for k, v in _shown_nodes(page).items()} == {
        n["name"]: (_triple(n.get("before")), _triple(n.get("after"))) for n in doc["nodes"]}
    page.screenshot(tmp_path / f"capacity-{name}.png")
    assert page.errors() == []


def test_simulate_report_in_chromium(page: Page, tmp_path: Path) -> None:
    answer = simulate_answer()
    doc = answer.doc
    _open(page, answer.html, tmp_path / "simulate.html")
    assert page.evaluate("document.getElementById('timeline').hidden") is False
    steps = page.evaluate("""[...document.querySelectorAll('#steps li.step')].map(li => ({
        requeued: [...li.querySelectorAll('ul.requeued li')].map(e =>
          [e.dataset.event, [...e.querySelectorAll('a.pod')].map(a => a.textContent)]),
        decisions: [...li.querySelectorAll('table.decisions tr[data-pod]')].map(tr =>
          [tr.dataset.pod, tr.dataset.result, tr.cells[3].textContent]),
        changes: [...li.querySelectorAll('ul.changes li')].map(e =>
          [e.dataset.pod, e.dataset.change]),
    }))""")
    assert steps == [
        {
            "requeued": [[r["event"], r["pods"]] for r in e["requeued"]],
            "decisions": [[d["pod"], d["result"], d.get("node", "")] for d in e["decisions"]],
            "changes": [[c["pod"], c["change"]] for c in e.get("changes", [])],
        }
        for e in doc["timeline"]
    ]
    # A requeued pod opens its story: the attempts of the whole run.
    page.evaluate("document.querySelector('#steps ul.requeued a.pod').click()")
    page.wait_for("!document.getElementById('story').hidden")
    pod = page.evaluate("document.getElementById('story-title').textContent")
    attempts = [d for e in doc["timeline"] for d in e["decisions"] if d["pod"] == pod]
    shown = page.evaluate("[...document.querySelectorAll('#story .attempt')]"
                          ".map(a => a.dataset.result)")
    assert shown == [d["result"] for d in attempts]
    page.screenshot(tmp_path / "simulate.png")
    assert (tmp_path / "simulate.png").stat().st_size > 1000
    assert page.errors() == []


def test_diff_with_a_drain_in_chromium(page: Page, tmp_path: Path) -> None:
    # A timeout keeps the budget's refusal final (without one the drain waits it out).
    args = ("examples/drain/cluster.yaml", "--drain", "node-a", "--drain-timeout", "1s")
    with pytest.MonkeyPatch.context() as mp:
        result = run_diff(mp, *args, "-o", "html")
        doc = json.loads(run_diff(mp, *args, "-o", "json").stdout)
    assert result.exit_code == 3
    _open(page, result.stdout, tmp_path / "diff-drain.html")
    whatif = doc["whatif"]
    rows = page.evaluate("[...document.querySelectorAll('#wi-changes tr[data-pod]')]"
                         ".map(tr => [tr.dataset.pod, tr.dataset.change])")
    expected = [c for op in whatif["operations"] for c in op["changes"]] + whatif["outcomes"]
    assert rows == [[c["pod"], c["change"]] for c in expected]
    # The diff's own tabs still work beside it.
    page.evaluate("document.querySelector('nav button[data-tab=changes]').click()")
    changed = page.evaluate("[...document.querySelectorAll('#change-table tr[data-pod]')]"
                            ".map(tr => tr.dataset.pod)")
    assert changed == [p["pod"] for p in doc["pods"]]
    page.screenshot(tmp_path / "diff-drain.png")
    assert page.errors() == []


NEWCOMER = ("tests/cli/newcomer", "-n", "shop", "--kubernetes-version", "1.30")


def _above_nav(page: Page, selector: str) -> bool:
    query = f"document.querySelector({json.dumps(selector)})"
    return bool(page.evaluate(f"""(() => {{ const e = {query};
        return !!e && e.offsetParent !== null && e.getBoundingClientRect().bottom
          <= document.querySelector('nav').getBoundingClientRect().top; }})()"""))


def test_report_opens_on_what_did_not_fit(page: Page, tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as mp:
        result = run(mp, *NEWCOMER, "-o", "html")
    assert result.exit_code == 2
    _open(page, result.stdout, tmp_path / "failures.html")
    # Failures first: above the tabs, the first chip, the Pods tab open, unplaced pods first.
    assert _above_nav(page, "#failures")
    assert page.evaluate("document.querySelector('#failures-title').textContent") == (
        "2 pod(s) left without a node")
    assert page.evaluate("document.querySelector('#summary .chip').dataset.outcome") == (
        "Unschedulable")
    assert page.evaluate("document.querySelector('nav button.active').dataset.tab") == "pods"
    first = page.evaluate("[...document.querySelectorAll('#pod-table tr[data-pod]')]"
                          ".slice(0, 2).map(tr => tr.dataset.pod)")
    cart = next(p for p in first if p.startswith("shop/shop-cart-"))
    pods = ", ".join(["shop/cart-canary", cart])
    assert sorted(first) == ["shop/cart-canary", cart]
    # Reasons counted with their pods: the spread constraint (4 nodes per pod) leads.
    rows = page.evaluate("""[...document.querySelectorAll('#reasons tr[data-reason]')]
        .map(tr => [...tr.cells].slice(1).map(td => td.textContent))""")
    assert rows == [
        ["node(s) didn't match pod topology spread constraints", "2", "8", pods],
        ["Insufficient cpu", "2", "2", pods],
        ["node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }", "2", "2",
         pods],
        ["node(s) were unschedulable", "2", "2", pods],
    ]
    pod = "shop/cart-canary"
    # A pod named under a reason opens its story.
    page.evaluate("document.querySelector('#reasons [data-pod-link]').click()")
    page.wait_for("!document.getElementById('story').hidden")
    assert page.evaluate("document.getElementById('story-title').textContent") == pod
    # Zone totals leave out the tainted control plane and the cordoned node.
    page.evaluate("document.querySelector('nav button[data-tab=cluster]').click()")
    left_out = page.evaluate("[...document.querySelectorAll('#left-out [data-left-out]')]"
                             ".map(s => s.dataset.leftOut)")
    assert left_out == ["control-plane", "worker-c2"]
    zones = page.evaluate("[...document.querySelectorAll('#zones tr[data-zone]')]"
                          ".map(tr => [tr.dataset.zone, tr.cells[1].textContent])")
    assert zones == [["zone-a", "2"], ["zone-b", "2"], ["zone-c", "1"]]
    page.screenshot(tmp_path / "failures.png")
    assert page.errors() == []


def test_blocked_drain_is_shown_at_the_top(page: Page, tmp_path: Path) -> None:
    # A timeout keeps the budget's refusal final (without one the drain waits it out).
    args = ("examples/drain/cluster.yaml", "--drain", "node-a", "--drain-timeout", "1s")
    with pytest.MonkeyPatch.context() as mp:
        result = run(mp, *args, "-o", "html")
        doc = json.loads(run(mp, *args, "-o", "json").stdout)
    assert result.exit_code == 2
    _open(page, result.stdout, tmp_path / "blocked.html")
    assert _above_nav(page, "#blocked")
    blocked = [c for op in doc["whatif"]["operations"] for c in op["changes"]
               if c["change"] in ("BlockedDrain", "Lost")]
    assert blocked
    title = page.evaluate("document.getElementById('blocked-title').textContent")
    assert title == f"Drain blocked: {len(blocked)} pod(s)"
    rows = page.evaluate("[...document.querySelectorAll('#blocked tr[data-blocked]')]"
                         ".map(tr => [tr.dataset.blocked, tr.cells[1].textContent])")
    assert rows == [[c["pod"], c["change"]] for c in blocked]
    assert page.errors() == []
