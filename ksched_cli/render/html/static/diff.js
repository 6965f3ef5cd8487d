"use strict";
// The diff page: changed pods side by side (base | head), per workload, per node.
(() => {
  const { data, el, Table } = KS;
  const showTab = KS.tabs();
  const filters = { owner: null, node: "" };

  function stateCell(s, side) {
    if (!s) return el("td", { class: "side-" + side, text: "(not in the manifests)" });
    return el("td", { class: "side-" + side, "data-outcome": s.outcome, "data-node": s.node || "" },
      el("span", { class: `chip o-${s.outcome}`, text: s.outcome }),
      s.node ? [" on ", el("b", { text: s.node })] : null,
      s.preemptedBy ? ` by ${s.preemptedBy}` : null,
      s.victims ? el("div", { class: "note", text: "victims: " + s.victims.join(", ") }) : null,
      s.message && s.outcome !== "Scheduled" ? el("div", { class: "msg", title: s.message, text: s.message }) : null);
  }
  function changeRow(c) {
    return el("tr", { "data-pod": c.pod, "data-category": c.category },
      el("td", { text: c.pod }), el("td", { text: c.owner || "" }),
      el("td", {}, el("span", { class: `chip c-${c.category}`, text: c.category }), c.regression ? el("span", { class: "badge b-out", text: "regression" }) : null),
      stateCell(c.base, "base"), stateCell(c.head, "head"),
      el("td", { class: "msg", title: c.why, text: c.why }));
  }
  const nodeOf = (s) => (s && s.node) || "";
  const changes = new Table(document.getElementById("change-table"), [
    { label: "pod", sort: (c) => c.pod },
    { label: "owner", sort: (c) => c.owner || "" },
    { label: "change", sort: (c) => c.category },
    { label: "base", sort: (c) => nodeOf(c.base) },
    { label: "head", sort: (c) => nodeOf(c.head) },
    { label: "why", sort: (c) => c.why },
  ], changeRow);
  const search = document.getElementById("change-search");
  const category = document.getElementById("change-category");
  function chip(text, clear) {
    return el("span", { class: "filter-chip" }, text, el("button", { title: "clear", text: "\u00D7", onclick: clear }));
  }
  function filter() {
    const q = search.value.trim().toLowerCase();
    const cat = category.value;
    const chips = [];
    if (filters.owner !== null) chips.push(chip(`owner ${filters.owner || "(none)"}`, () => { filters.owner = null; filter(); }));
    if (filters.node) chips.push(chip(`node ${filters.node}`, () => { filters.node = ""; filter(); }));
    document.getElementById("change-filters").replaceChildren(...chips);
    changes.setFilter((c) => (!cat || c.category === cat)
      && (filters.owner === null || (c.owner || "") === filters.owner)
      && (!filters.node || nodeOf(c.base) === filters.node || nodeOf(c.head) === filters.node)
      && (!q || [c.pod, c.owner, nodeOf(c.base), nodeOf(c.head), c.why].some((v) => v && v.toLowerCase().includes(q))));
  }
  search.addEventListener("input", filter);
  category.addEventListener("change", filter);
  changes.setRows(data.changes);

  const CATS = ["moved", "new", "lost", "changed"];
  const workloads = new Table(document.getElementById("workload-table"), [
    { label: "owner", sort: (w) => w.owner },
    ...CATS.map((k) => ({ label: k, num: true, sort: (w) => w[k] })),
  ], (w) => el("tr", { class: "clickable", "data-owner": w.owner, onclick: () => { filters.owner = w.owner; filter(); showTab("changes"); } },
    el("td", { text: w.owner || "(bare pods)" }), CATS.map((k) => el("td", { class: "num", text: w[k] }))));
  workloads.setRows(data.workloads);

  const nodes = new Table(document.getElementById("node-table"), [
    { label: "node", sort: (n) => n.node },
    { label: "gains", num: true, sort: (n) => n.gained.length },
    { label: "loses", num: true, sort: (n) => n.lost.length },
    { label: "pods it gains with head" },
    { label: "pods it loses (held with base)" },
  ], (n) => el("tr", { class: "clickable", "data-node": n.node, onclick: () => { filters.node = n.node; filter(); showTab("changes"); } },
    el("td", { text: n.node }), el("td", { class: "num", text: n.gained.length }), el("td", { class: "num", text: n.lost.length }),
    el("td", { class: "note gained", text: n.gained.join(", ") }), el("td", { class: "note lost", text: n.lost.join(", ") })));
  nodes.setRows(data.nodes);
})();
