// The lifecycle's view: a timeline of rows (action headings, calls, grouped repeats) and the
// selected call's detail. Python computes every row and text; this only draws and reports
// clicks by setting traits (selected, show, node, recording, index_map).

function callRow(model, row) {
  const classes = ["msw-lifecycle-call", `msw-lifecycle-${row.owner}`];
  if (row.kind === "member") classes.push("msw-lifecycle-member");
  if (row.kind === "group") classes.push("msw-lifecycle-group");
  if (row.error) classes.push("msw-lifecycle-error");
  if (row.handled) classes.push("msw-lifecycle-handled");
  if (row.selected) classes.push("msw-lifecycle-selected");
  const seqs = row.count > 1 ? `${row.seqs[0]}–${row.seqs[row.seqs.length - 1]}` : `${row.seq}`;
  const select = () => send(model, "selected", row.selected ? 0 : row.seq);
  return h("div", {class: classes.join(" "), "data-seq": row.seq, "data-method": row.method,
                   role: "button", tabindex: 0, onclick: select,
                   onkeydown: (e) => { if (e.key === "Enter") select(); }},
    h("span", {class: "msw-lifecycle-seq msw-mono"}, seqs),
    h("span", {class: "msw-lifecycle-owner"}, row.owner === "prop" ? "Prop" : "Op"),
    h("span", {class: "msw-lifecycle-sig msw-mono"},
      h("span", {class: "msw-lifecycle-method"}, row.who),
      h("span", {class: "msw-lifecycle-args"}, `(${row.args})`),
      row.result ? h("span", {class: "msw-lifecycle-result"}, ` → ${row.result}`) : null),
    row.count > 1 ? h("span", {class: "msw-lifecycle-count"}, `×${row.count}`) : null,
    row.default ? h("span", {class: "msw-lifecycle-default"}, row.default) : null,
    row.printed && !(row.kind === "group" && row.expanded)
      ? h("pre", {class: "msw-lifecycle-printed"}, row.printed) : null);
}

function timeline(model) {
  const draw = (rows) => rows.map((row) => row.kind === "action"
    ? h("div", {class: "msw-lifecycle-action msw-mono"}, row.label)
    : callRow(model, row));
  const rows = model.get("rows");
  const gap = model.get("gap");
  return h("div", {class: "msw-lifecycle-timeline"},
    rows.length ? draw(rows)
      : h("div", {class: "msw-note msw-lifecycle-empty"},
          model.get("labels").empty),
    gap ? h("div", {class: "msw-lifecycle-gap msw-note"}, gap) : null,
    draw(model.get("recent")));
}

function toolbar(model) {
  const show = model.get("show");
  const recording = model.get("recording");
  const nodes = model.get("nodes");
  const node = model.get("node");
  const labels = model.get("labels");
  return h("div", {class: "msw-lifecycle-toolbar"},
    h("span", {class: "msw-lifecycle-shows"},
      ["all", "prop", "op"].map((value) => h("button", {
        class: `msw-btn msw-lifecycle-show${show === value ? " msw-lifecycle-on" : ""}`,
        "data-show": value, onclick: () => send(model, "show", value)},
        labels[value]))),
    nodes.length > 1 ? h("select", {class: "msw-lifecycle-node",
        onchange: (e) => send(model, "node", e.target.value)},
      h("option", {value: "", selected: node === ""}, labels.every_node),
      nodes.map((n) => h("option", {value: n, selected: node === n}, n))) : null,
    h("span", {class: "msw-lifecycle-total msw-note"}, fillLabel(labels.total, {n: model.get("total")})),
    h("button", {class: "msw-btn msw-lifecycle-toggle",
                 onclick: () => send(model, "recording", !recording)},
      recording ? labels.stop : labels.record));
}

function detailPanel(model) {
  const lines = model.get("detail");
  if (!lines.length) return null;
  const seq = model.get("selected");
  const rows = model.get("rows").concat(model.get("recent"));
  const row = rows.find((r) => r.kind !== "action" && r.seqs.includes(seq));
  const labels = model.get("labels");
  const canOpen = lines.some(([k]) => k === labels.index_map);
  return h("div", {class: "msw-lifecycle-detail"},
    h("table", {},
      lines.map(([key, text]) => h("tr", {},
        h("th", {}, key),
        h("td", {class: key === labels.raised ? "msw-lifecycle-raised msw-mono" : "msw-mono"},
          h("pre", {class: "msw-lifecycle-value"}, text))))),
    canOpen && row ? h("button", {class: "msw-btn msw-lifecycle-indexmap",
        onclick: () => send(model, "index_map", row.node)},
      fillLabel(labels.open, {node: row.node})) : null);
}

export default {
  render({ model, el }) {
    el.classList.add("msw", "msw-lifecycle");
    redrawOn(model, el,
      ["rows", "recent", "gap", "total", "show", "node", "nodes", "selected", "detail",
       "recording", "error", "caption"],
      () => [
        h("div", {class: "msw-lifecycle-caption"}, model.get("caption")),
        toolbar(model),
        errorBox(model),
        timeline(model),
        detailPanel(model),
      ]);
  },
};
