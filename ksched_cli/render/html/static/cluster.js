"use strict";
// The cluster view (plan, capacity and simulate pages): zones, and every node's requested
// cpu, memory and pods before and after as bars, sortable and filterable by name, zone
// and state. `onNode(name)`, when given, is called with a clicked node's name.
KS.clusterView = (onNode) => {
  const { data, el, amount, percent, Table } = KS;
  const RES = data.resources;

  function used(n) { return n.after || n.before || [0, 0, 0]; }
  function ratio(n, i) { return n.alloc[i] > 0 ? used(n)[i] / n.alloc[i] : 0; }
  function nodeState(n) {
    const s = [];
    if (n.received) s.push("received");
    if (n.evicted) s.push("evicted");
    s.push(n.received || n.evicted ? "changed" : "unchanged");
    if (n.after && n.after[2] === 0) s.push("empty");
    if (n.cordoned) s.push("cordoned");
    return s;
  }

  function bar(n, i) {
    const r = RES[i];
    const alloc = n.alloc[i];
    const before = n.before ? n.before[i] : null;
    const after = n.after ? n.after[i] : null;
    const width = (v) => (alloc > 0 && v !== null ? Math.min(100, (100 * v) / alloc) : 0) + "%";
    const full = after !== null && alloc > 0 && after >= alloc;
    const text = before === after || before === null || after === null
      ? `${amount(after !== null ? after : before, r)} / ${amount(alloc, r)}`
      : `${amount(before, r)} \u2192 ${amount(after, r)} / ${amount(alloc, r)}`;
    return el("td", { class: "res", "data-resource": r, "data-before": before, "data-after": after, "data-alloc": alloc,
      title: `${r}: before ${before === null ? "-" : amount(before, r)} (${percent(before || 0, alloc)}), after ${after === null ? "-" : amount(after, r)} (${percent(after || 0, alloc)}) of ${amount(alloc, r)} allocatable` },
      el("div", { class: "bar-text", text }),
      el("div", { class: "bar" + (full ? " full" : "") },
        el("div", { class: "before", style: `width:${width(before)}` }),
        el("div", { class: "after", style: `width:${width(after)}` })));
  }

  function nodeRow(n) {
    const badges = [];
    if (n.received) badges.push(el("span", { class: "badge b-in", title: "pods placed here", text: `+${n.received}` }));
    if (n.evicted) badges.push(el("span", { class: "badge b-out", title: "pods that left this node (evicted, deleted or preempted)", text: `\u2212${n.evicted}` }));
    if (n.after && n.after[2] === 0) badges.push(el("span", { class: "badge b-empty", text: "empty" }));
    if (n.cordoned) badges.push(el("span", { class: "badge b-cordon", text: "cordoned" }));
    if (!n.after) badges.push(el("span", { class: "badge b-out", text: "removed" }));
    if (!n.before) badges.push(el("span", { class: "badge b-in", text: "new" }));
    const click = onNode ? { class: "clickable", title: "show this node's pods", onclick: () => onNode(n.name) } : {};
    return el("tr", { ...click, "data-node": n.name },
      el("td", {}, n.name, badges), el("td", { text: n.zone || "" }),
      RES.map((_, i) => bar(n, i)));
  }

  const nodes = new Table(document.getElementById("nodes"), [
    { label: "node", sort: (n) => n.name },
    { label: "zone", sort: (n) => n.zone },
    ...RES.map((r, i) => ({ label: `${r} requested / allocatable`, sort: (n) => ratio(n, i) })),
  ], nodeRow, {
    groupOf: (n) => n.zone,
    groupRow: (zone, span) => {
      const z = data.zones.find((x) => x.zone === zone);
      const parts = RES.map((r, i) => `${r} ${percent(z.after[i], z.alloc[i])}`).join(", ");
      return el("tr", { class: "zone-row" }, el("td", { colspan: span, text: `${zone || "(no zone label)"} \u2014 ${z.nodes} node(s), after the plan: ${parts}` }));
    },
  });
  const nodeSearch = document.getElementById("node-search");
  const nodeStateSel = document.getElementById("node-state");
  function filterNodes() {
    const q = nodeSearch.value.trim().toLowerCase();
    const state = nodeStateSel.value;
    nodes.setFilter((n) => (!q || n.name.toLowerCase().includes(q) || n.zone.toLowerCase().includes(q))
      && (!state || nodeState(n).includes(state)));
  }
  nodeSearch.addEventListener("input", filterNodes);
  nodeStateSel.addEventListener("change", filterNodes);
  nodes.setRows(data.nodes);
  return nodes;
};
