// The gradient heatmap's view: three grids of the same cells (expected | got | error ÷
// tolerance), the worst cell outlined in each, a legend, and for arrays of more than two axes
// a slider and a strip of per-slice errors. Python computes every colour and every number;
// this draws them, shows the cell under the pointer, and reports the slice picked.

const PANEL_SIZE = 260;  // px: the longer side of a panel, before clamping the cell size
const CELL_MIN = 5;
const CELL_MAX = 28;

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));
}

function cellSize(grid) {
  const side = Math.floor(PANEL_SIZE / Math.max(grid.rows, grid.columns));
  return Math.max(CELL_MIN, Math.min(CELL_MAX, side));
}

function cellText(model, k) {
  const grid = model.get("grid");
  const labels = model.get("labels");
  const values = {index: grid.index[k], a: grid.a[k], b: grid.b[k], ratio: grid.ratio[k]};
  if (grid.block[0] === 1 && grid.block[1] === 1) return fill(labels.hover, values);
  const r = Math.floor(k / grid.columns) * grid.block[0];
  const c = (k % grid.columns) * grid.block[1];
  return fill(labels.hover_block, {...values, r0: r, r1: r + grid.block[0] - 1,
                                   c0: c, c1: c + grid.block[1] - 1});
}

function worstText(model) {
  const w = model.get("worst");
  const labels = model.get("labels");
  const text = fill(labels.worst_line, {index: w.index, a: w.a, b: w.b, ratio: w.ratio,
                                        relation: w.relation ? ` (${w.relation})` : ""});
  return w.cell >= 0 ? text : text + fill(labels.worst_elsewhere, {slice: w.slice});
}

function panel(model, key, title, size, inspector) {
  const grid = model.get("grid");
  const worst = model.get("worst").cell;
  const cells = grid[key].map((colour, k) => h("div", {
    class: "msw-gh-cell" + (k === worst ? " msw-gh-worst" : ""),
    style: `background:${colour}`, "data-index": grid.index[k],
    onmouseenter: () => { inspector.textContent = cellText(model, k); },
  }));
  return h("div", {class: `msw-gh-panel msw-gh-panel-${key}`},
    h("div", {class: "msw-gh-panel-title msw-mono"}, title),
    h("div", {class: "msw-gh-grid",
              style: `grid-template-columns: repeat(${grid.columns}, ${size}px);` +
                     `grid-auto-rows: ${size}px`,
              onmouseleave: () => { inspector.textContent = worstText(model); }}, cells));
}

function scale(stops, title, extra) {
  return h("div", {class: "msw-gh-scale"},
    h("span", {class: "msw-gh-scale-title"}, title),
    stops.map(([colour, label]) => h("span", {class: "msw-gh-stop"},
      h("span", {class: "msw-gh-swatch", style: `background:${colour}`}),
      h("span", {class: "msw-mono"}, label))),
    extra);
}

function legend(model) {
  const labels = model.get("labels");
  const lg = model.get("legend");
  const notFinite = lg.any_not_finite ? h("span", {class: "msw-gh-stop"},
    h("span", {class: "msw-gh-swatch", style: `background:${lg.not_finite}`}),
    labels.not_finite) : null;
  return h("div", {class: "msw-gh-legend"},
    scale(lg.values, labels.values_legend, null),
    scale(lg.errors, labels.error_legend,
          [h("span", {class: "msw-gh-within msw-note"}, labels.within), notFinite]));
}

function sliceControls(model) {
  if (model.get("slices") <= 1) return null;
  const labels = model.get("labels");
  const current = model.get("slice_index");
  const bars = model.get("slice_bars");
  const picked = bars.reduce((best, bar, i) => (bar.slice <= current ? i : best), 0);
  return h("div", {class: "msw-gh-slices"},
    h("div", {class: "msw-gh-slice-row"},
      h("span", {class: "msw-gh-slice-title"}, labels.slice),
      h("input", {type: "range", class: "msw-gh-slider", min: 0,
                  max: model.get("slices") - 1, value: current,
                  onchange: (e) => send(model, "slice_index", Number(e.target.value))}),
      h("span", {class: "msw-mono msw-gh-slice-label"}, model.get("slice_label")),
      model.get("worst").cell < 0 ? h("button", {
        class: "msw-btn msw-gh-show-worst",
        onclick: () => send(model, "slice_index", model.get("worst").slice_index),
      }, labels.show_worst) : null),
    h("div", {class: "msw-gh-strip", title: labels.slices_title},
      bars.map((bar, i) => h("span", {
        class: "msw-gh-bar" + (i === picked ? " msw-gh-bar-on" : "") +
               (bar.fails ? " msw-gh-bar-fails" : ""),
        style: `background:${bar.colour}`, title: `${bar.label}: ${bar.ratio}`,
        "data-slice": bar.slice,
        onclick: () => send(model, "slice_index", bar.slice),
      }))),
    h("div", {class: "msw-note"}, labels.slices_title));
}

function draw(model) {
  const labels = model.get("labels");
  const grid = model.get("grid");
  const size = cellSize(grid);
  const inspector = h("div", {class: "msw-gh-inspector msw-mono"}, worstText(model));
  const pooled = grid.block[0] > 1 || grid.block[1] > 1 ?
    fill(labels.pooled, {rows: grid.block[0], columns: grid.block[1]}) : "";
  return h("div", {class: "msw msw-gradient-heatmap"},
    h("div", {class: "msw-gh-caption"}, model.get("caption")),
    h("div", {class: "msw-gh-summary msw-mono"}, model.get("summary")),
    errorBox(model),
    sliceControls(model),
    h("div", {class: "msw-note msw-gh-fold"}, model.get("fold") + (pooled ? ` · ${pooled}` : "")),
    h("div", {class: "msw-gh-panels"},
      panel(model, "a_colour", labels.expected_panel, size, inspector),
      panel(model, "b_colour", labels.got_panel, size, inspector),
      panel(model, "error_colour", labels.error_panel, size, inspector)),
    inspector,
    legend(model),
    model.get("hints").length ? h("div", {class: "msw-gh-hints"},
      h("div", {class: "msw-gh-hints-title"}, labels.hints),
      h("ul", {}, model.get("hints").map((hint) => h("li", {}, hint)))) : null);
}

export default {
  render({ model, el }) {
    redrawOn(model, el, ["caption", "summary", "grid", "worst", "slice_index", "slice_bars",
                         "fold", "legend", "hints", "error", "labels"], () => draw(model));
  },
};
