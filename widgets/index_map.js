// The index map's view: one table per family (arguments, outputs, aux), one row per index,
// one clickable cell per slot. Python computes everything; this only draws and reports clicks.

const ROLE_CLASS = {
  "in_data": "in", "in_grad": "grad", "backward req": "req",
  "out_data": "out", "out_grad": "grad", "forward req": "req", "aux": "aux",
};

function slotCell(model, cell) {
  const selected = model.get("selected") === cell.label;
  const linked = model.get("linked").includes(cell.label);
  const classes = ["msw-im-slot", `msw-im-${ROLE_CLASS[cell.role]}`];
  if (selected) classes.push("msw-im-selected");
  else if (linked) classes.push("msw-im-linked");
  if (!cell.passed) classes.push("msw-im-absent");
  const status = !cell.passed ? model.get("labels").not_passed
    : cell.req ? cell.req : "";
  return h("td", {class: classes.join(" "), "data-label": cell.label, title: cell.label,
                  onclick: () => send(model, "selected", cell.label)},
    h("div", {class: "msw-im-label msw-mono"}, cell.label),
    status ? h("div", {class: cell.req ? "msw-im-req-value msw-mono" : "msw-im-status"},
               status) : null,
    cell.preview ? h("div", {class: "msw-im-preview msw-mono"}, cell.preview) : null);
}

function familyTable(model, table) {
  const linked = model.get("linked");
  const head = h("tr", {},
    model.get("labels").headings.map((t) => h("th", {}, t)),
    table.roles.map((r) => h("th", {class: `msw-im-head-${ROLE_CLASS[r]}`}, r)));
  const rows = table.rows.map((row) => {
    const inRow = row.cells.some((c) => linked.includes(c.label));
    return h("tr", {class: inRow ? "msw-im-row-linked" : ""},
      h("td", {class: "msw-mono msw-im-index"}, row.index),
      h("td", {class: "msw-mono msw-im-name",
               onclick: () => send(model, "selected", row.cells[0].label)}, row.name),
      h("td", {class: "msw-mono msw-im-given"}, row.given),
      h("td", {class: "msw-mono"}, row.entry),
      h("td", {class: "msw-mono"}, row.shape),
      h("td", {class: "msw-mono"}, row.dtype),
      row.cells.map((c) => slotCell(model, c)));
  });
  return h("div", {class: `msw-im-family msw-im-family-${table.family}`},
    h("div", {class: "msw-im-title"}, table.title),
    h("table", {class: "msw-im-table"}, h("thead", {}, head), h("tbody", {}, rows)));
}

function gradReqBar(model) {
  const reqs = model.get("grad_req");
  const names = Object.keys(reqs);
  if (!names.length) return null;
  return h("div", {class: "msw-im-gradreq"},
    h("span", {class: "msw-im-gradreq-title"}, "grad_req"),
    names.map((name) => h("span", {class: "msw-im-gradreq-arg"},
      h("span", {class: "msw-mono"}, name),
      ["write", "add", "null"].map((value) => h("button", {
        class: `msw-btn msw-im-req-btn msw-im-req-${name}-${value}` +
               (reqs[name] === value ? " msw-im-req-on" : ""),
        onclick: () => send(model, "grad_req", {...reqs, [name]: value}),
      }, value)))));
}

function detailPanel(model) {
  const lines = model.get("detail");
  if (!lines.length) {
    return h("div", {class: "msw-im-detail msw-im-detail-empty"},
             model.get("labels").pick);
  }
  return h("dl", {class: "msw-im-detail"},
    lines.map(([key, text], i) => [
      h("dt", {class: i === 0 ? "msw-mono msw-im-detail-head" : ""}, key),
      h("dd", {class: i === 0 ? "msw-im-detail-head" : ""}, text)]));
}

function toolbar(model) {
  const nodes = model.get("nodes");
  const picker = nodes.length > 1 ? h("select", {
    class: "msw-im-node",
    onchange: (e) => send(model, "node", e.target.value),
  }, nodes.map((n) => h("option", {value: n, selected: n === model.get("node")}, n))) : null;
  return h("div", {class: "msw-im-toolbar"},
    h("span", {class: "msw-im-caption"}, model.get("caption")),
    h("span", {class: "msw-im-tools"},
      picker,
      h("button", {class: "msw-btn msw-im-run",
                   onclick: () => model.send({do: "run"})}, model.get("labels").run)));
}

function draw(model) {
  return h("div", {class: "msw msw-indexmap"},
    toolbar(model),
    errorBox(model),
    gradReqBar(model),
    model.get("tables").map((t) => familyTable(model, t)),
    model.get("notes").map((n) => h("div", {class: "msw-note msw-im-note"}, n)),
    detailPanel(model));
}

export default {
  render({ model, el }) {
    redrawOn(model, el, ["caption", "tables", "selected", "linked", "detail", "grad_req",
                         "notes", "error", "nodes", "node", "ran"], () => draw(model));
  },
};
