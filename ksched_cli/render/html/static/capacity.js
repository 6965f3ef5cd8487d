"use strict";
// The capacity page: how many copies each node took, and the cluster before and after.
(() => {
  const { data, el, Table } = KS;
  const showTab = KS.tabs();
  const c = data.capacity;
  const zones = new Map(data.nodes.map((n) => [n.name, n.zone]));
  const rows = Object.entries(c.perNode).map(([node, copies]) => ({ node, copies, zone: zones.get(node) || "" }));
  const most = Math.max(1, ...rows.map((r) => r.copies));
  const copies = new Table(document.getElementById("copies-table"), [
    { label: "node", sort: (r) => r.node },
    { label: "zone", sort: (r) => r.zone },
    { label: "copies", num: true, sort: (r) => r.copies },
  ], (r) => el("tr", { class: "clickable", "data-node": r.node, title: "show this node in the cluster view", onclick: () => showNode(r.node) },
    el("td", { text: r.node }), el("td", { text: r.zone }),
    el("td", { class: "num copies" }, el("span", { class: "count", text: r.copies }),
      el("div", { class: "bar" }, el("div", { class: "after", style: `width:${(100 * r.copies) / most}%` })))));
  copies.setRows(rows);
  KS.clusterView(null);
  function showNode(name) {
    const search = document.getElementById("node-search");
    search.value = name;
    search.dispatchEvent(new Event("input"));
    showTab("cluster");
  }
})();
