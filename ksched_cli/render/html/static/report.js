"use strict";
// Shared by every ksched report page: data, elements, formatting, tabs, paged sortable tables.
const KS = (() => {
  const data = JSON.parse(document.getElementById("ksched-data").textContent);
  const SVG = "http://www.w3.org/2000/svg";

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  // Same rounding as page.py's amount(): half up to two decimals.
  function trim(x) {
    const r = Math.floor(x * 100 + 0.5) / 100;
    return String(r);
  }
  const UNITS = [["Ti", 2 ** 40], ["Gi", 2 ** 30], ["Mi", 2 ** 20], ["Ki", 2 ** 10]];
  function amount(value, resource) {
    if (resource === "cpu") return trim(value / 1000);
    if (resource === "memory") {
      for (const [unit, size] of UNITS) if (Math.abs(value) >= size) return trim(value / size) + unit;
    }
    return String(value);
  }
  function percent(part, whole) {
    return whole > 0 ? Math.round((100 * part) / whole) + "%" : "-";
  }

  const PALETTE = ["#2f6fde", "#e0893a", "#3aa374", "#b8489b", "#8a6d3b", "#4bb3c4",
    "#d4524a", "#7a5cc7", "#9aa33a", "#5f6b7a", "#c7a13a", "#3a5fa3"];
  function color(i) { return PALETTE[i % PALETTE.length]; }

  let shown = null;  // the page's show(tab), made once: several scripts may ask for it
  function tabs() {
    if (shown) return shown;
    const buttons = [...document.querySelectorAll("nav button[data-tab]")];
    function show(name) {
      for (const b of buttons) {
        b.classList.toggle("active", b.dataset.tab === name);
        document.getElementById(b.dataset.tab).hidden = b.dataset.tab !== name;
      }
    }
    for (const b of buttons) b.addEventListener("click", () => show(b.dataset.tab));
    if (buttons.length) show(buttons[0].dataset.tab);
    shown = show;
    return show;
  }

  // A table over `rows`: columns sort on header click, `filter` narrows, pages of `pageSize`.
  class Table {
    constructor(table, columns, rowFn, opts) {
      this.table = table;
      this.columns = columns;
      this.rowFn = rowFn;
      this.pageSize = (opts && opts.pageSize) || 200;
      this.groupOf = (opts && opts.groupOf) || null;
      this.groupRow = (opts && opts.groupRow) || null;
      this.rows = [];
      this.shown = [];
      this.page = 0;
      this.sortIndex = -1;
      this.sortDir = 1;
      this.filter = () => true;
      this.thead = table.createTHead();
      this.tbody = table.tBodies[0] || table.createTBody();
      const tr = this.thead.insertRow();
      columns.forEach((c, i) => {
        const th = el("th", { class: (c.num ? "num " : "") + (c.sort ? "sortable" : ""), text: c.label });
        if (c.sort) th.addEventListener("click", () => this.sortBy(i));
        tr.append(th);
      });
      this.pager = el("div", { class: "pager" });
      table.after(this.pager);
    }
    setRows(rows) { this.rows = rows; this.refresh(); }
    setFilter(fn) { this.filter = fn; this.page = 0; this.refresh(); }
    sortBy(i) {
      this.sortDir = this.sortIndex === i ? -this.sortDir : 1;
      this.sortIndex = i;
      [...this.thead.rows[0].cells].forEach((th, j) => {
        th.classList.toggle("sorted-asc", j === i && this.sortDir === 1);
        th.classList.toggle("sorted-desc", j === i && this.sortDir === -1);
      });
      this.refresh();
    }
    refresh() {
      let shown = this.rows.filter((r) => this.filter(r));
      const key = this.sortIndex >= 0 ? this.columns[this.sortIndex].sort : null;
      const dir = this.sortDir;
      const group = this.groupOf;
      if (key || group) {
        shown = shown.map((r, i) => [r, i]);
        shown.sort((a, b) => {
          if (group) {
            const ga = group(a[0]), gb = group(b[0]);
            if (ga !== gb) return ga < gb ? -1 : 1;
          }
          if (key) {
            const ka = key(a[0]), kb = key(b[0]);
            if (ka !== kb) return (ka < kb ? -1 : 1) * dir;
          }
          return a[1] - b[1];
        });
        shown = shown.map((p) => p[0]);
      }
      this.shown = shown;
      const pages = Math.max(1, Math.ceil(shown.length / this.pageSize));
      this.page = Math.min(this.page, pages - 1);
      this.draw(pages);
    }
    draw(pages) {
      const start = this.page * this.pageSize;
      const slice = this.shown.slice(start, start + this.pageSize);
      const body = document.createDocumentFragment();
      let last = null;
      for (const row of slice) {
        if (this.groupOf && this.groupRow) {
          const g = this.groupOf(row);
          if (g !== last) body.append(this.groupRow(g, this.columns.length));
          last = g;
        }
        body.append(this.rowFn(row));
      }
      this.tbody.replaceChildren(body);
      const prev = el("button", { text: "\u25C0", disabled: this.page === 0, onclick: () => { this.page--; this.draw(pages); } });
      const next = el("button", { text: "\u25B6", disabled: this.page >= pages - 1, onclick: () => { this.page++; this.draw(pages); } });
      const total = this.shown.length;
      const range = total ? `${start + 1}\u2013${Math.min(start + this.pageSize, total)} of ${total}` : "none";
      const parts = [prev, el("span", { class: "range", text: range }), next];
      if (pages > 1) parts.push(el("span", { text: `page ${this.page + 1} of ${pages}` }));
      this.pager.replaceChildren(...parts);
    }
    showRow(predicate) {
      const i = this.shown.findIndex(predicate);
      if (i >= 0 && Math.floor(i / this.pageSize) !== this.page) {
        this.page = Math.floor(i / this.pageSize);
        this.refresh();
      }
    }
  }

  function ready() { document.body.dataset.ready = "1"; }

  return { data, el, svg, amount, percent, color, tabs, Table, ready };
})();
