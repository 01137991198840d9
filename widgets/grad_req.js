// The grad_req playground's view: runs down, grad_req across.

function runsControl(model) {
  const input = h("input", {type: "range", min: 1, max: 10, value: model.get("runs"),
                            class: "msw-gr-runs",
                            onchange: (e) => send(model, "runs", parseInt(e.target.value))});
  return h("label", {class: "msw-gr-control"}, `${model.get("labels").runs} `, input,
           h("span", {class: "msw-mono msw-gr-runs-value"}, model.get("runs")));
}

function argumentControl(model) {
  return h("label", {class: "msw-gr-control"}, `${model.get("labels").gradient_of} `,
    h("select", {class: "msw-gr-argument",
                 onchange: (e) => send(model, "argument", e.target.value)},
      model.get("arguments").map((n) =>
        h("option", {value: n, selected: n === model.get("argument")}, n))));
}

function grid(model) {
  const columns = model.get("columns");
  if (!columns.length) return null;
  const head = h("tr", {}, h("th", {}, ""),
    columns.map((c) => h("th", {class: `msw-gr-head msw-gr-head-${c.req}`},
                         `grad_req='${c.req}'`)));
  const rows = columns[0].cells.map((_, i) => h("tr", {},
    h("th", {class: "msw-gr-run"}, fillLabel(model.get("labels").run, {n: i + 1})),
    columns.map((c) => {
      const cell = c.cells[i];
      return h("td", {class: `msw-gr-cell msw-gr-${c.req}`},
        h("div", {class: "msw-mono"}, cell.values),
        cell.total ? h("div", {class: "msw-mono msw-note"}, cell.total) : null,
        cell.note ? h("div", {class: "msw-gr-note"}, cell.note) : null);
    })));
  return h("table", {class: "msw-gr-table"}, h("thead", {}, head), h("tbody", {}, rows));
}

export default {
  render({ model, el }) {
    redrawOn(model, el, ["columns", "summary", "error", "runs", "argument", "arguments"],
      () => h("div", {class: "msw msw-gradreq"},
        h("div", {class: "msw-gr-toolbar"}, argumentControl(model), runsControl(model)),
        errorBox(model),
        grid(model),
        model.get("summary") ? h("p", {class: "msw-gr-summary"}, model.get("summary")) : null));
  },
};
