"use strict";
// The simulate page's timeline: each step, the pods its events requeued, the decisions
// until the next step; pods open their story (plan.js).
(() => {
  const { data, el, svg, Table } = KS;
  const { openStory } = KS.plan;

  function podLink(key) {
    return el("a", { href: "#pod=" + encodeURIComponent(key), class: "pod", text: key,
      onclick: (e) => { e.preventDefault(); openStory(key); } });
  }
  function links(keys) { return keys.flatMap((k, i) => (i ? [", ", podLink(k)] : [podLink(k)])); }

  function stepBody(entry) {
    const out = [];
    if (entry.changes && entry.changes.length) {
      out.push(el("ul", { class: "changes" }, entry.changes.map((c) => el("li", { "data-pod": c.pod, "data-change": c.change },
        el("span", { class: `chip w-${c.change}`, text: c.change }), " ", c.pod,
        c.node ? ` on ${c.node}` : "", c.reason ? el("span", { class: "note", text: ` \u2014 ${c.reason}` }) : null))));
    }
    for (const w of entry.warnings || []) out.push(el("p", { class: "warn", text: `warning: ${w}` }));
    if (entry.requeued.length) {
      out.push(el("ul", { class: "requeued" }, entry.requeued.map((r) => el("li", { "data-event": r.event },
        `event ${r.event}: `, r.pods.length ? ["requeued ", links(r.pods)] : el("span", { class: "note", text: "no pod requeued" })))));
    }
    if (entry.decisions.length) {
      const table = el("table", { class: "decisions" }, el("tbody"));
      out.push(el("div", {}, table));  // in a parent first: the table puts its pager after it
      const t = new Table(table, [
        { label: "t", num: true, sort: (d) => d.time },
        { label: "pod", sort: (d) => d.pod },
        { label: "result", sort: (d) => d.result },
        { label: "node", sort: (d) => d.node || "" },
        { label: "message", sort: (d) => d.message || "" },
      ], (d) => el("tr", { "data-pod": d.pod, "data-result": d.result },
        el("td", { class: "num", text: `${d.time}s` }), el("td", {}, podLink(d.pod)),
        el("td", {}, el("span", { class: `chip o-${d.result}`, text: d.result })),
        el("td", { text: d.node || "" }),
        el("td", { class: "msg", title: d.message || "", text: d.result === "Scheduled" ? "" : d.message || "" })), { pageSize: 50 });
      t.setRows(entry.decisions);
    } else {
      out.push(el("p", { class: "note", text: "no scheduling attempt until the next step" }));
    }
    return out;
  }

  const steps = [...document.querySelectorAll("#steps li.step")];
  steps.forEach((li, i) => li.querySelector(".step-body").replaceChildren(...stepBody(data.timeline[i])));

  // Steps on a time axis; a click scrolls to the step.
  const width = 900, left = 20, right = 20, h = 46;
  const times = data.timeline.map((e) => e.time);
  const end = Math.max(data.meta.simulatedSeconds, ...times, 1);
  const x = (t) => left + (t / end) * (width - left - right);
  const marks = data.timeline.map((e, i) => svg("g", { class: "mark", "data-step": i, style: "cursor:pointer" },
    svg("line", { x1: x(e.time), x2: x(e.time), y1: 6, y2: 26, stroke: i ? "var(--accent)" : "var(--muted)", "stroke-width": 2 }),
    svg("text", { x: x(e.time) + 3, y: 16 }, String(i ? i : "start")),
    svg("title", {}, `t=${e.time}s ${e.step}: ${e.decisions.length} decision(s)`)));
  for (const g of marks) g.addEventListener("click", () => steps[Number(g.dataset.step)].scrollIntoView({ block: "start" }));
  const axis = svg("g", {}, svg("line", { x1: left, x2: width - right, y1: 26, y2: 26, stroke: "var(--line)" }),
    svg("text", { x: left, y: 40 }, "t=0s"), svg("text", { x: width - right - 60, y: 40 }, `t=${end}s`));
  document.getElementById("timeline-axis").append(svg("svg", { width, height: h, viewBox: `0 0 ${width} ${h}` }, axis, marks));
})();
