"use strict";
// What what-if operations did (plan, diff, capacity, simulate pages; `data.whatif`):
// each pod change with its reason, and each node's requests before and after.
(() => {
  const { data, el, amount, Table } = KS;
  const w = data.whatif;
  if (!w) return;
  const RES = ["cpu", "memory", "pods"];
  const ops = w.operations;
  const opName = (i) => (i < 0 ? "the plan" : ops[i].operation);

  // A pod the page tells the story of (plan, simulate) opens it; others are plain text.
  function podCell(key) {
    const known = data.stories && data.stories[key];
    return el("td", {}, known
      ? el("a", { href: "#pod=" + encodeURIComponent(key), text: key })
      : key);
  }
  function where(c) {
    if (c.fromNode && c.node) return `${c.fromNode} \u2192 ${c.node}`;
    if (c.fromNode) return `was on ${c.fromNode}`;
    return c.node || "";
  }
  function changeRow(c) {
    return el("tr", { "data-pod": c.pod, "data-change": c.change, "data-op": c.op },
      podCell(c.pod),
      el("td", {}, el("span", { class: `chip w-${c.change}`, text: c.change })),
      el("td", { class: "where", "data-node": c.node || "", text: where(c) }),
      el("td", { text: c.workload || "" }),
      el("td", { class: "pdb", text: c.podDisruptionBudget || "" }),
      el("td", { class: "note", text: opName(c.op) }),
      el("td", { class: "msg", title: c.reason || "", text: c.reason || "" }));
  }
  const changes = new Table(document.getElementById("wi-changes"), [
    { label: "pod", sort: (c) => c.pod },
    { label: "change", sort: (c) => c.change },
    { label: "node", sort: (c) => where(c) },
    { label: "workload", sort: (c) => c.workload || "" },
    { label: "PDB", sort: (c) => c.podDisruptionBudget || "" },
    { label: "by", sort: (c) => c.op },
    { label: "reason", sort: (c) => c.reason || "" },
  ], changeRow);
  const search = document.getElementById("wi-search");
  const kind = document.getElementById("wi-change");
  const op = document.getElementById("wi-op");
  function filter() {
    const q = search.value.trim().toLowerCase();
    changes.setFilter((c) => (!kind.value || c.change === kind.value)
      && (op.value === "" || c.op === Number(op.value))
      && (!q || [c.pod, c.node, c.fromNode, c.workload, c.reason, c.podDisruptionBudget]
        .some((v) => v && v.toLowerCase().includes(q))));
  }
  search.addEventListener("input", filter);
  kind.addEventListener("change", filter);
  op.addEventListener("change", filter);
  for (const chip of document.querySelectorAll("#whatif-counts [data-change]")) {
    chip.addEventListener("click", () => { kind.value = chip.dataset.change; filter(); });
  }
  for (const tr of document.querySelectorAll("#operations tr[data-op]")) {
    tr.addEventListener("click", () => { op.value = tr.dataset.op; filter(); });
  }
  changes.setRows(w.changes);

  // kubectl describe node's share: float division, truncated.
  const share = (r, a) => (a > 0 ? Math.trunc((r / a) * 100) + "%" : "-");
  function side(n, key, r) { return n[key] ? n[key][r] : null; }
  function usageCell(n, r) {
    const b = side(n, "before", r), a = side(n, "after", r);
    const alloc = (a || b).allocatable;
    const text = (s) => (s ? `${amount(s.requested, r)} / ${amount(s.allocatable, r)} (${share(s.requested, s.allocatable)})` : "\u2014");
    const width = (s) => (s && s.allocatable > 0 ? Math.min(100, (100 * s.requested) / s.allocatable) : 0) + "%";
    const full = a && a.allocatable > 0 && a.requested >= a.allocatable;
    return el("td", { class: "res", "data-resource": r,
      "data-before": b ? b.requested : null, "data-after": a ? a.requested : null,
      "data-alloc-before": b ? b.allocatable : null, "data-alloc-after": a ? a.allocatable : null },
    el("div", { class: "bar-text", text: b && a && b.requested === a.requested && b.allocatable === a.allocatable ? text(a) : `${text(b)} \u2192 ${text(a)}` }),
    el("div", { class: "bar" + (full ? " full" : ""), title: `${r}: ${amount(alloc, r)} allocatable` },
      el("div", { class: "before", style: `width:${width(b)}` }),
      el("div", { class: "after", style: `width:${width(a)}` })));
  }
  function usageRow(n) {
    const badges = [];
    const was = n.before && n.before.unschedulable, is = n.after && n.after.unschedulable;
    if (!n.before) badges.push(el("span", { class: "badge b-in", text: "added" }));
    if (!n.after) badges.push(el("span", { class: "badge b-out", text: "removed" }));
    if (n.before && n.after && was !== is) badges.push(el("span", { class: "badge b-cordon", text: is ? "cordoned" : "uncordoned" }));
    else if (is) badges.push(el("span", { class: "badge b-cordon", text: "cordoned" }));
    return el("tr", { "data-node": n.name, "data-changed": n.changed ? "1" : "0" },
      el("td", {}, n.name, badges), RES.map((r) => usageCell(n, r)));
  }
  const usage = new Table(document.getElementById("wi-usage"), [
    { label: "node", sort: (n) => n.name },
    ...RES.map((r) => ({ label: `${r} before \u2192 after`, sort: (n) => (n.after ? n.after[r].requested : -1) })),
  ], usageRow);
  const all = document.getElementById("wi-all");
  all.addEventListener("change", () => usage.setFilter((n) => all.checked || n.changed));
  usage.setFilter((n) => n.changed);
  usage.setRows(w.nodes);
})();
