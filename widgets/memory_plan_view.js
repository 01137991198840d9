// The memory plan's view: a strip of the bytes alive at each step, then one row per buffer
// with a bar per output stored in it, over the operator order (forward, then backward).
// Python sends the plan and every word; this only draws, and reports clicks.

/**
 * What Python sends (memory_plan_view.py's traits).
 * @typedef {["forward" | "backward", string, string, boolean]} Step [phase, node, op, runs]
 * @typedef {[number, number, number, string, string]} Bar
 *   [first step, last forward step, last step, tooltip, output name]
 * @typedef {{buffer: number, bytes: string, kind: "shared" | "alone" | "head" | "own",
 *            small: boolean, bars: Bar[]}} Row one buffer
 * @typedef {{
 *   get(name: "steps"): Step[], get(name: "rows"): Row[], get(name: "live"): number[],
 *   get(name: "num_forward" | "planned" | "selected"): number,
 *   get(name: "totals"): [string, string, string][], get(name: "detail"): [string, string][],
 *   get(name: "detail_rows"): string[][], get(name: "labels"): Object<string, string>,
 *   get(name: "caption" | "error" | "variant" | "entry"): string,
 *   get(name: "variants" | "notes"): string[], get(name: "show_small"): boolean,
 *   set(name: string, value: unknown): void, save_changes(): void,
 *   on(event: string, callback: Function): void
 * }} MemoryPlanModel
 */

const SVG_NS = "http://www.w3.org/2000/svg";
const GUTTER = 64;        // px left of the plot, for the buffer sizes
const SIDE = 330;         // px kept for the side panel
const PLOT_MIN = 420;     // px for all the steps, whatever the page's width
const PLOT_MAX = 760;
let PLOT_WIDTH = 640;     // set at each drawing from the width the page gives
const LIVE_HEIGHT = 64;   // px of the bytes-alive strip
const BAND = 16;          // px of the forward / backward band above it
const ROWS_VIEW = 420;    // px of rows shown before the list scrolls
const MIN_ROW = 4;
const MAX_ROW = 18;
// One colour per shared buffer; no vermillion, which marks the outputs you see.
const SHARED_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#8C6D31",
                        "#F0E442", "#7A5195"];

// s("rect", {x: 1}, child) -> an SVG element.
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// fill("step {step}", {step: 3}) -> "step 3": the words and their order come from Python.
function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));
}

function stepX(model, step) {
  return GUTTER + (step * PLOT_WIDTH) / Math.max(model.get("steps").length, 1);
}

function stepAt(model, svg, event) {
  const box = svg.getBoundingClientRect();
  const x = event.clientX - box.left - GUTTER;
  const count = model.get("steps").length;
  const step = Math.floor((x * count) / PLOT_WIDTH);
  return step >= 0 && step < count ? step : -1;
}

function readoutText(model, step) {
  const labels = model.get("labels");
  if (step < 0) return "\u00a0";
  const [phase, node, op, runs] = model.get("steps")[step];
  return fill(labels.readout, {step, phase: labels[phase], node, op,
                               skipped: runs ? "" : labels.skipped});
}

function hoverable(model, svg, readout) {
  svg.addEventListener("mousemove", (e) => {
    readout.textContent = readoutText(model, stepAt(model, svg, e));
  });
  svg.addEventListener("mouseleave", () => { readout.textContent = "\u00a0"; });
  return svg;
}

function phaseBand(model, height) {
  const labels = model.get("labels");
  const split = model.get("num_forward");
  const total = model.get("steps").length;
  const parts = [[0, split, "forward"], [split, total, "backward"]].filter(([a, b]) => b > a);
  return parts.map(([a, b, phase]) => [
    s("rect", {class: `msw-mp-phase msw-mp-phase-${phase}`, x: stepX(model, a), y: 0,
               width: stepX(model, b) - stepX(model, a), height}),
    s("text", {class: "msw-mp-phase-label", x: stepX(model, a) + 4, y: 12}, labels[phase]),
  ]);
}

function liveStrip(model, readout) {
  const live = model.get("live");
  const planned = model.get("planned");
  const top = Math.max(planned, ...live, 1);
  const y = (bytes) => BAND + LIVE_HEIGHT - (bytes * (LIVE_HEIGHT - 4)) / top;
  const points = [`${stepX(model, 0)},${y(0)}`];
  live.forEach((bytes, i) => {
    points.push(`${stepX(model, i)},${y(bytes)}`, `${stepX(model, i + 1)},${y(bytes)}`);
  });
  points.push(`${stepX(model, live.length)},${y(0)}`);
  const labels = model.get("labels");
  const withSharing = model.get("totals")[1];
  const svg = s("svg", {class: "msw-mp-live", width: GUTTER + PLOT_WIDTH + 8,
                        height: BAND + LIVE_HEIGHT + 2},
    phaseBand(model, BAND + LIVE_HEIGHT),
    s("polygon", {class: "msw-mp-live-area", points: points.join(" ")}),
    s("line", {class: "msw-mp-planned", x1: GUTTER, x2: GUTTER + PLOT_WIDTH,
               y1: y(planned), y2: y(planned)}),
    s("text", {class: "msw-mp-planned-label", x: GUTTER + PLOT_WIDTH - 4, y: y(planned) - 3,
               "text-anchor": "end"},
      fill(labels.planned_line, {label: withSharing[0], value: withSharing[1]})),
    s("text", {class: "msw-mp-axis", x: GUTTER - 6, y: BAND + LIVE_HEIGHT / 2 + 4,
               "text-anchor": "end"}, labels.live_axis));
  return hoverable(model, svg, readout);
}

function rowColour(row, sharedIndex) {
  if (row.kind === "shared") return SHARED_COLOURS[sharedIndex % SHARED_COLOURS.length];
  return row.kind === "head" ? "var(--msw-out)" : "var(--msw-mp-alone)";
}

function rowsChart(model, rows, readout) {
  const height = Math.max(MIN_ROW, Math.min(MAX_ROW, Math.floor(ROWS_VIEW / rows.length)));
  const selected = model.get("selected");
  const picked = model.get("entry");
  const total = model.get("steps").length;
  let shared = 0;
  const drawn = rows.map((row, i) => {
    const top = i * height;
    const colour = rowColour(row, row.kind === "shared" ? shared++ : 0);
    const bars = row.bars.map(([first, lastForward, last, tip, name]) => s("g", {
      class: "msw-mp-bar" + (name === picked ? " msw-mp-bar-picked" : ""), "data-entry": name,
      onclick: (e) => { e.stopPropagation(); send(model, "entry", name); }},
      s("title", {}, tip),
      s("rect", {class: "msw-mp-used", x: stepX(model, first), y: top + 1,
                 width: Math.max(stepX(model, lastForward + 1) - stepX(model, first), 1.5),
                 height: height - 2, fill: colour}),
      last > lastForward ? s("rect", {class: "msw-mp-kept", x: stepX(model, lastForward + 1),
                                      y: top + 1, height: height - 2, fill: colour,
                                      width: stepX(model, last + 1) -
                                             stepX(model, lastForward + 1)}) : null));
    return s("g", {class: "msw-mp-row" + (row.buffer === selected ? " msw-mp-row-selected" : ""),
                   "data-buffer": row.buffer, onclick: () => send(model, "selected", row.buffer)},
      s("rect", {class: "msw-mp-row-hit", x: 0, y: top, width: GUTTER + PLOT_WIDTH,
                 height}),
      height >= 11 ? s("text", {class: "msw-mp-row-label", x: GUTTER - 6, y: top + height - 3,
                                "text-anchor": "end"}, row.bytes) : null,
      bars);
  });
  const split = stepX(model, model.get("num_forward"));
  const svg = s("svg", {class: "msw-mp-rows", width: GUTTER + PLOT_WIDTH + 8,
                        height: rows.length * height + 1},
    total > model.get("num_forward") ? s("rect", {class: "msw-mp-phase msw-mp-phase-backward",
      x: split, y: 0, width: GUTTER + PLOT_WIDTH - split, height: rows.length * height}) : null,
    drawn,
    s("line", {class: "msw-mp-split", x1: split, x2: split, y1: 0, y2: rows.length * height}));
  return hoverable(model, svg, readout);
}

function legend(model) {
  const labels = model.get("labels");
  const swatch = (cls, style) => h("span", {class: `msw-mp-swatch ${cls}`, style});
  return h("div", {class: "msw-mp-legend"},
    h("span", {}, swatch("", `background:${SHARED_COLOURS[0]}`),
      swatch("", `background:${SHARED_COLOURS[1]}`), labels.legend_shared),
    h("span", {}, swatch("", "background:var(--msw-mp-alone)"), labels.legend_alone),
    h("span", {}, swatch("", "background:var(--msw-out)"), labels.legend_head),
    h("span", {}, swatch("msw-mp-swatch-kept", `background:${SHARED_COLOURS[0]}`),
      labels.legend_kept));
}

function toolbar(model) {
  const labels = model.get("labels");
  const variants = model.get("variants");
  const notes = model.get("notes");
  const small = model.get("rows").some((r) => r.small);
  return h("div", {class: "msw-mp-toolbar"},
    variants.length > 1 ? h("span", {class: "msw-mp-variants"}, variants.map((v) =>
      h("button", {class: `msw-btn msw-mp-variant msw-mp-variant-${v}` +
                          (model.get("variant") === v ? " msw-mp-on" : ""),
                   onclick: () => send(model, "variant", v)},
        labels[v === "bound" ? "as_bound" : v]))) : null,
    small ? h("label", {class: "msw-mp-small"},
      h("input", {type: "checkbox", class: "msw-mp-small-box",
                  checked: model.get("show_small"),
                  onchange: (e) => send(model, "show_small", e.target.checked)}),
      labels.show_small) : null,
    notes.map((n) => h("span", {class: "msw-note msw-mp-note"}, n)));
}

function totals(model) {
  return h("div", {class: "msw-mp-totals"}, model.get("totals").map(([label, value, note]) =>
    h("div", {class: "msw-mp-total"},
      h("div", {class: "msw-mp-total-label"}, label),
      h("div", {class: "msw-mp-total-value"}, value),
      note ? h("div", {class: "msw-mp-total-note"}, note) : null)));
}

function sidePanel(model) {
  const labels = model.get("labels");
  const detail = model.get("detail");
  if (!detail.length) return h("div", {class: "msw-mp-detail msw-mp-detail-empty"}, labels.pick);
  return h("div", {class: "msw-mp-detail"},
    detail.map(([heading, text]) => [h("div", {class: "msw-mp-detail-head"}, heading),
                                     h("div", {class: "msw-mp-detail-text"}, text)]),
    h("div", {class: "msw-mp-entries"}, model.get("detail_rows").map(
      ([name, shape, bytes, live, readers]) => h("div", {
        class: "msw-mp-entry" + (name === model.get("entry") ? " msw-mp-entry-picked" : ""),
        "data-entry": name},
        h("div", {class: "msw-mp-entry-name msw-mono"}, name),
        h("div", {class: "msw-mono"}, fill(labels.entry_size, {shape, bytes})),
        h("div", {}, h("span", {class: "msw-mp-key"}, fill(labels.key, {key: labels.live})),
          live),
        readers ? h("div", {}, h("span", {class: "msw-mp-key"},
                                 fill(labels.key, {key: labels.read_by_backward})),
                    readers) : null))));
}

function plotWidth(el) {
  const room = (el.getBoundingClientRect().width || 1000) - GUTTER - SIDE - 40;
  return Math.max(PLOT_MIN, Math.min(PLOT_MAX, Math.floor(room)));
}

function draw(model) {
  const labels = model.get("labels");
  const rows = model.get("rows").filter((r) => model.get("show_small") || !r.small);
  const readout = h("div", {class: "msw-mp-readout msw-mono"}, "\u00a0");
  const chart = model.get("steps").length ? h("div", {class: "msw-mp-chart"},
    liveStrip(model, readout),
    h("div", {class: "msw-mp-axis-title"}, labels.rows_axis),
    h("div", {class: "msw-mp-scroll"}, rowsChart(model, rows, readout)),
    h("div", {class: "msw-mp-axis-title"}, labels.steps_axis),
    readout) : null;
  return h("div", {class: "msw msw-memory-plan"},
    errorBox(model),
    h("div", {class: "msw-mp-caption"}, model.get("caption")),
    totals(model),
    toolbar(model),
    legend(model),
    h("div", {class: "msw-mp-body"}, chart, sidePanel(model)));
}

export default {
  render({ model, el }) {
    const redraw = () => {
      const scroll = el.querySelector(".msw-mp-scroll");
      const top = scroll ? scroll.scrollTop : 0;
      PLOT_WIDTH = plotWidth(el);
      el.replaceChildren(draw(model));
      const fresh = el.querySelector(".msw-mp-scroll");
      if (fresh) fresh.scrollTop = top;
    };
    for (const t of ["caption", "totals", "steps", "rows", "live", "planned", "notes",
                     "variants", "variant", "show_small", "selected", "entry", "detail", "detail_rows",
                     "error", "labels"]) {
      model.on(`change:${t}`, redraw);
    }
    redraw();
  },
};
