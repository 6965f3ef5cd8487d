"use strict";
// The plan page: cluster view (nodes before/after by zone), pods, and one pod's story.
(() => {
  const { data, el, svg, color, Table } = KS;
  const showTab = KS.tabs();

  KS.clusterView(filterPodsByNode);

  // --- pods ------------------------------------------------------------------------
  const podFilters = { node: "", reason: -1 };
  function podRow(p) {
    return el("tr", { class: "clickable", "data-pod": p.pod, onclick: () => openStory(p.pod) },
      el("td", { text: p.pod }),
      el("td", {}, el("span", { class: `chip o-${p.outcome}`, text: p.outcome })),
      el("td", { text: p.node || "" }),
      el("td", { text: p.owner || "" }),
      el("td", { class: "num", text: p.priority }),
      el("td", { class: "num", text: p.attempts || 0 }),
      el("td", { class: "msg", title: p.message || "", text: p.preemptedBy ? `preempted by ${p.preemptedBy}` : (p.message || "") }));
  }
  const pods = new Table(document.getElementById("pod-table"), [
    { label: "pod", sort: (p) => p.pod },
    { label: "outcome", sort: (p) => p.outcome },
    { label: "node", sort: (p) => p.node || "" },
    { label: "owner", sort: (p) => p.owner || "" },
    { label: "priority", num: true, sort: (p) => p.priority },
    { label: "attempts", num: true, sort: (p) => p.attempts || 0 },
    { label: "message", sort: (p) => p.message || "" },
  ], podRow);
  const podSearch = document.getElementById("pod-search");
  const podOutcome = document.getElementById("pod-outcome");
  function filterPods() {
    const q = podSearch.value.trim().toLowerCase();
    const outcome = podOutcome.value;
    const chips = [];
    if (podFilters.node) chips.push(filterChip(`node ${podFilters.node}`, () => { podFilters.node = ""; filterPods(); }));
    if (podFilters.reason >= 0) chips.push(filterChip(`reason: ${data.reasons[podFilters.reason].reason}`, () => { podFilters.reason = -1; filterPods(); }));
    document.getElementById("pod-filters").replaceChildren(...chips);
    pods.setFilter((p) => (!outcome || p.outcome === outcome)
      && (!podFilters.node || p.node === podFilters.node)
      && (podFilters.reason < 0 || (p.reasons || []).includes(podFilters.reason))
      && (!q || [p.pod, p.node, p.owner, p.message, p.preemptedBy].some((v) => v && v.toLowerCase().includes(q))));
  }
  function filterChip(text, clear) {
    return el("span", { class: "filter-chip" }, text, el("button", { title: "clear", text: "\u00D7", onclick: clear }));
  }
  function filterPodsByNode(name) { podFilters.node = name; filterPods(); showTab("pods"); }
  podSearch.addEventListener("input", filterPods);
  podOutcome.addEventListener("change", filterPods);
  for (const tr of document.querySelectorAll("#reasons tr[data-reason]")) {
    tr.addEventListener("click", (e) => {
      podFilters.reason = Number(tr.dataset.reason); filterPods(); showTab("pods");
      const link = e.target.closest("[data-pod-link]");
      if (link) { pods.showRow((p) => p.pod === link.dataset.podLink); openStory(link.dataset.podLink); }
    });
  }
  // Pods left without a node first, each group in decision order.
  const unplaced = (p) => (p.reasons ? 0 : 1);
  pods.setRows(data.pods.map((p, i) => [p, i]).sort((a, b) => unplaced(a[0]) - unplaced(b[0]) || a[1] - b[1]).map((x) => x[0]));

  // --- one pod's story ---------------------------------------------------------------
  const panel = document.getElementById("story");
  const byPod = new Map(data.pods.map((p) => [p.pod, p]));

  function openStory(key) {
    const p = byPod.get(key);
    if (!p) return;
    for (const tr of document.querySelectorAll("#pod-table tr.selected")) tr.classList.remove("selected");
    const row = document.querySelector(`#pod-table tr[data-pod="${CSS.escape(key)}"]`);
    if (row) row.classList.add("selected");
    const story = data.stories[key];
    const head = [el("button", { class: "close", text: "close \u00D7", onclick: closeStory }),
      el("h2", { id: "story-title", text: key }),
      el("p", {}, el("span", { class: `chip o-${p.outcome}`, id: "story-outcome", text: p.outcome }),
        p.node ? [" on ", el("b", { id: "story-node", text: p.node })] : null,
        p.owner ? ` \u00B7 owner ${p.owner}` : null, ` \u00B7 priority ${p.priority}`),
      p.preemptedBy ? el("p", {}, "preempted by ", link(p.preemptedBy)) : null,
      p.message ? el("p", { class: "note", text: p.message }) : null];
    const body = story ? storyAttempts(story) : [el("p", { class: "empty-state", text: "No scheduling attempt: the pod never reached a scheduling cycle in this plan." })];
    panel.replaceChildren(...head.filter(Boolean), ...body);
    panel.hidden = false;
    panel.scrollTop = 0;
    if (location.hash !== "#pod=" + encodeURIComponent(key)) history.replaceState(null, "", "#pod=" + encodeURIComponent(key));
  }
  function closeStory() { panel.hidden = true; history.replaceState(null, "", location.pathname + location.search); }
  function link(key) {
    return byPod.has(key) ? el("a", { href: "#pod=" + encodeURIComponent(key), text: key, onclick: (e) => { e.preventDefault(); openStory(key); } }) : key;
  }

  function storyAttempts(story) {
    const out = [];
    story.attempts.forEach((a, i) => {
      if (story.skipped && i === story.skippedAfter) out.push(el("p", { class: "note", text: `\u2026 ${story.skipped} more attempt(s) not shown \u2026` }));
      out.push(attemptBox(a, i < story.skippedAfter || !story.skipped ? i + 1 : i + 1 + story.skipped));
    });
    return out;
  }

  function attemptBox(a, n) {
    const box = el("div", { class: "attempt", "data-result": a.result });
    box.append(el("h3", { text: `Attempt ${n} at t=${a.time}s: ${a.result}${a.node ? " on " + a.node : ""}` }));
    if (a.evaluated) box.append(el("p", { class: "note", text: `${a.evaluated} node(s) evaluated, ${a.feasible} feasible` + (a.profile ? ` \u00B7 profile ${a.profile}` : "") }));
    if (a.rejections) box.append(el("h3", { text: "Filter rejections" }), rejectionTable(a.rejections));
    if (a.scores) box.append(...scoreChart(a.scores, a.node));
    if (a.preemption || a.victims) box.append(...preemptionPart(a.preemption, a.victims || []));
    if (a.permit) box.append(el("h3", { text: "Permit waits" }), permitTimeline(a.permit));
    if (a.volumes) box.append(el("h3", { text: "Volumes" }), el("ul", {}, a.volumes.map((v) => el("li", { text: v }))));
    if (a.message) box.append(el("p", { class: "note", text: a.message }));
    return box;
  }

  function rejectionTable(groups) {
    return el("table", { class: "rejections" },
      el("thead", {}, el("tr", {}, el("th", { text: "plugin" }), el("th", { text: "reason" }), el("th", { class: "num", text: "nodes" }), el("th", { text: "e.g." }))),
      el("tbody", {}, groups.map((g) => el("tr", { "data-plugin": g.plugin },
        el("td", { text: g.plugin }), el("td", { text: g.reason }), el("td", { class: "num", text: g.count }),
        el("td", { class: "note", text: g.nodes.join(", ") + (g.count > g.nodes.length ? ", \u2026" : "") })))));
  }

  function scoreChart(s, chosen) {
    const rowH = 20, label = 150, width = 520, totalW = 50;
    const max = Math.max(1, ...s.rows.map((r) => r.weighted.reduce((x, v) => x + Math.max(0, v), 0)));
    const scale = (width - label - totalW) / max;
    const rows = s.rows.map((r, j) => {
      let x = label;
      const y = j * rowH;
      const parts = r.weighted.map((v, i) => {
        const w = Math.max(0, v) * scale;
        const rect = svg("rect", { x, y: y + 3, width: w, height: rowH - 6, fill: color(i) },
          svg("title", {}, `${s.plugins[i]}: ${v}`));
        x += w;
        return rect;
      });
      return svg("g", { "data-node": r.node, "data-total": r.total },
        svg("text", { x: 0, y: y + 14, "font-weight": r.node === chosen ? "bold" : "normal" }, (r.node === chosen ? "\u2605 " : "") + r.node),
        parts, svg("text", { x: x + 4, y: y + 14 }, String(r.total)));
    });
    const chart = svg("svg", { class: "scores", width, height: s.rows.length * rowH + 4, viewBox: `0 0 ${width} ${s.rows.length * rowH + 4}` }, rows);
    const legend = el("div", { class: "legend" }, s.plugins.map((p, i) => el("span", {}, el("span", { class: "swatch", style: `background:${color(i)}` }), p)));
    const note = `${s.scored} node(s) scored; weighted score per plugin for ${chosen ? "the chosen node and " : ""}the best ${s.rows.length - (chosen ? 1 : 0)} other(s)`;
    const out = [el("h3", { text: "Scores" }), el("p", { class: "note", text: note }), chart, legend];
    if (s.tie) {
      const more = s.tie.count > s.tie.nodes.length ? ` and ${s.tie.count - s.tie.nodes.length} more` : "";
      out.push(el("p", { class: "tie", text: `Tie: ${chosen} shared the top total ${s.tie.total} with ${s.tie.count} node(s) (${s.tie.nodes.join(", ")}${more}); SelectHost picked ${chosen}.` }));
    }
    return out;
  }

  function preemptionPart(p, victims) {
    const out = [el("h3", { text: "Preemption" })];
    if (victims.length) out.push(el("p", { class: "victims" }, "Victims: ", victims.flatMap((v, i) => (i ? [", ", link(v)] : [link(v)]))));
    if (!p) return out;
    if (p.candidates.length) {
      out.push(el("table", { class: "candidates" },
        el("thead", {}, el("tr", {}, el("th", { text: "candidate node" }), el("th", { text: "victims" }), el("th", { class: "num", text: "PDB violations" }))),
        el("tbody", {}, p.candidates.map((c) => el("tr", { class: c.node === p.chosen ? "selected" : "" },
          el("td", { text: (c.node === p.chosen ? "\u2605 " : "") + c.node }), el("td", { text: c.victims.join(", ") }), el("td", { class: "num", text: c.pdb }))))));
      if (p.candidateCount > p.candidates.length) out.push(el("p", { class: "note", text: `\u2026 ${p.candidateCount - p.candidates.length} more candidate(s)` }));
    }
    for (const nc of p.notCandidates) out.push(el("p", { class: "note", text: `${nc.count} node(s) not a candidate: ${nc.reason}` }));
    for (const line of p.notes) out.push(el("p", { class: "note", text: line }));
    return out;
  }

  function permitTimeline(waits) {
    const width = 520, left = 110, rowH = 22;
    const times = waits.flatMap((w) => [w.start, w.timeout, w.end === undefined ? w.start : w.end]);
    const t0 = Math.min(...times), t1 = Math.max(...times, t0 + 1);
    const x = (t) => left + ((t - t0) / (t1 - t0)) * (width - left - 10);
    const rows = waits.map((w, j) => {
      const y = j * rowH + 4;
      const end = w.end === undefined ? w.timeout : w.end;
      const fill = w.outcome === "allowed" ? "var(--ok)" : (w.outcome === "rejected" || w.outcome === "preempted") ? "var(--bad)" : "var(--muted)";
      return svg("g", { "data-plugin": w.plugin },
        svg("text", { x: 0, y: y + 12 }, w.plugin),
        svg("rect", { x: x(w.start), y: y + 2, width: Math.max(2, x(end) - x(w.start)), height: 12, fill },
          svg("title", {}, `waiting from t=${w.start}s; ${w.outcome || "unresolved"} at t=${end}s`)),
        svg("line", { x1: x(w.timeout), x2: x(w.timeout), y1: y, y2: y + 16, stroke: "var(--bad)", "stroke-dasharray": "3 2" },
          svg("title", {}, `timeout at t=${w.timeout}s`)));
    });
    const h = waits.length * rowH + 22;
    const axis = svg("g", {}, svg("line", { x1: left, x2: width - 10, y1: h - 16, y2: h - 16, stroke: "var(--line)" }),
      svg("text", { x: left, y: h - 3 }, `t=${t0}s`), svg("text", { x: width - 60, y: h - 3 }, `t=${t1}s`));
    const desc = waits.map((w) => `${w.plugin}: waited from t=${w.start}s, ${w.outcome ? `${w.outcome} at t=${w.end}s` : "unresolved"} (timeout t=${w.timeout}s)${w.by ? ` by ${w.by}` : ""}${w.message ? `: ${w.message}` : ""}`);
    return el("div", { class: "permit" }, svg("svg", { width, height: h, viewBox: `0 0 ${width} ${h}` }, rows, axis),
      el("ul", {}, desc.map((d) => el("li", { text: d }))));
  }

  // --- links into the page: #pod=NS/NAME opens a story, #node=NAME lists a node's pods ----
  function route() {
    const hash = decodeURIComponent(location.hash.slice(1));
    if (hash.startsWith("pod=")) {
      const key = hash.slice(4);
      showTab("pods");
      pods.showRow((p) => p.pod === key);
      openStory(key);
    } else if (hash.startsWith("node=")) {
      filterPodsByNode(hash.slice(5));
    }
  }
  window.addEventListener("hashchange", route);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && !panel.hidden) closeStory(); });
  route();
  KS.plan = { openStory, showTab };
})();
