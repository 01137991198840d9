// The graph view: draws the boxes, edges and frames Python laid out (traits nodes / edges /
// frames / size) as SVG. A click on a node sets `selected`; on a dashed box (a collapsed group)
// or a frame's title it changes `expanded`. Zoom only scales the drawing.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * What Python sends (graph_view.py's traits); positions and sizes are in pixels.
 * @typedef {[string, string, string, number, number, number, number, number, number]} NodeRow
 *   [name, label, detail, kind, x, y, w, h, flags]: kind 0 a variable, 1 an operator, -1 a
 *   collapsed group; flags the bits of `Flags`
 * @typedef {[number[], string]} EdgeRow [[x0, y0, x1, y1, ...], shape label]
 * @typedef {[string, number, number, number, number]} FrameRow [group, x, y, w, h]
 * @typedef {{group: number, failed: number, variable: number}} Flags the bit of each flag
 * @typedef {Object<string, string>} Labels the page's words, already translated
 * @typedef {{
 *   get(name: "nodes"): NodeRow[], get(name: "edges"): EdgeRow[], get(name: "frames"): FrameRow[],
 *   get(name: "size"): [number, number], get(name: "flags"): Flags, get(name: "labels"): Labels,
 *   get(name: "zoom"): number, get(name: "selected"): string, get(name: "caption"): string,
 *   get(name: "error"): string, get(name: "show_weights"): boolean,
 *   get(name: "groups"): string[], get(name: "expanded"): string[],
 *   set(name: string, value: unknown): void, save_changes(): void,
 *   on(event: string, callback: Function): void
 * }} GraphModel
 */

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * @param {NodeRow} row
 * @param {string} selected
 * @param {Labels} labels
 * @param {Flags} bits
 */
function nodeBox(row, selected, labels, bits) {
  const [name, label, detail, kind, x, y, w, h, flags] = row;
  const classes = ["msw-graph-view-node", `msw-graph-view-kind-${kind < 0 ? "group" : kind}`];
  if (flags & bits.group) classes.push("msw-graph-view-group");
  if (flags & bits.failed) classes.push("msw-graph-view-failed");
  if (flags & bits.variable) classes.push("msw-graph-view-variable");
  if (name === selected) classes.push("msw-graph-view-selected");
  const tip = flags & bits.group ? fillLabel(labels.expand, {name}) : fillLabel(labels.open, {name, detail});
  return svg("g", {class: classes.join(" "), "data-name": name,
                   transform: `translate(${x - w / 2},${y - h / 2})`},
    svg("title", {}, tip),
    svg("rect", {width: w, height: h, rx: 5}),
    svg("text", {class: "msw-graph-view-label", x: w / 2, y: 18}, label),
    svg("text", {class: "msw-graph-view-detail", x: w / 2, y: 34}, detail));
}

/**
 * @param {EdgeRow[0]} points
 * @param {EdgeRow[1]} label
 */
function edgeLine(points, label) {
  let d = `M${points[0]},${points[1]}`;
  for (let i = 2; i < points.length; i += 2) d += ` L${points[i]},${points[i + 1]}`;
  const n = points.length;
  const [x0, y0, x1, y1] = points.slice(n - 4);
  const len = Math.hypot(x1 - x0, y1 - y0) || 1;
  const ux = (x1 - x0) / len, uy = (y1 - y0) / len;
  const head = `${x1},${y1} ${x1 - 7 * ux - 4 * uy},${y1 - 7 * uy + 4 * ux} ` +
               `${x1 - 7 * ux + 4 * uy},${y1 - 7 * uy - 4 * ux}`;
  return svg("g", {class: "msw-graph-view-edge"},
    svg("path", {d}),
    svg("polygon", {points: head}),
    label ? svg("text", {class: "msw-graph-view-edge-label", x: (x0 + x1) / 2 + 5,
                         y: (y0 + y1) / 2 + 4}, label) : null);
}

/**
 * @param {FrameRow} row
 * @param {Labels} labels
 */
function frameBox(row, labels) {
  const [group, x, y, w, h] = row;
  return svg("g", {class: "msw-graph-view-frame", "data-group": group},
    svg("rect", {x, y, width: w, height: h, rx: 6}),
    svg("text", {class: "msw-graph-view-frame-label", x: x + 6, y: y + 13},
        svg("title", {}, fillLabel(labels.collapse_tip, {group})), fillLabel(labels.collapse, {group})));
}

/** @param {GraphModel} model */
function drawing(model) {
  const [width, height] = model.get("size");
  const zoom = model.get("zoom");
  const selected = model.get("selected");
  const labels = model.get("labels");
  const bits = model.get("flags");
  return svg("svg", {class: "msw-graph-view-svg", width: width * zoom, height: height * zoom,
                     viewBox: `0 0 ${width} ${height}`},
    svg("g", {}, ...model.get("frames").map((row) => frameBox(row, labels))),
    svg("g", {}, ...model.get("edges").map(([points, label]) => edgeLine(points, label))),
    svg("g", {}, ...model.get("nodes").map((row) => nodeBox(row, selected, labels, bits))));
}

/**
 * @param {GraphModel} model
 * @param {MouseEvent} event
 */
function onClick(model, event) {
  const frame = event.target.closest(".msw-graph-view-frame-label");
  if (frame) {
    const group = frame.parentNode.getAttribute("data-group");
    send(model, "expanded", model.get("expanded").filter((g) => g !== group));
    return;
  }
  const node = event.target.closest(".msw-graph-view-node");
  if (!node) return;
  const name = node.getAttribute("data-name");
  if (node.classList.contains("msw-graph-view-group")) {
    send(model, "expanded", [...model.get("expanded"), name]);
  } else {
    send(model, "selected", name);
  }
}

function toolbar(model, scroll) {
  const zoomBy = (factor) => send(model, "zoom", model.get("zoom") * factor);
  const fit = () => {
    const [width, height] = model.get("size");
    if (!width || !height) return;
    send(model, "zoom", Math.min((scroll.clientWidth - 4) / width, (scroll.clientHeight - 4) / height));
  };
  const weights = h("input", {type: "checkbox", class: "msw-graph-view-weights",
                              onchange: (e) => send(model, "show_weights", e.target.checked)});
  weights.checked = model.get("show_weights");
  model.on("change:show_weights", () => { weights.checked = model.get("show_weights"); });
  const button = (cls, text, title, action) =>
    h("button", {class: `msw-btn ${cls}`, title, onclick: action}, text);
  const labels = model.get("labels");
  return h("div", {class: "msw-graph-view-toolbar"},
    button("msw-graph-view-zoom-out", "−", labels.zoom_out, () => zoomBy(1 / 1.25)),
    button("msw-graph-view-zoom-in", "+", labels.zoom_in, () => zoomBy(1.25)),
    button("msw-graph-view-fit", labels.fit, labels.fit_tip, fit),
    button("msw-graph-view-actual", "1:1", labels.actual, () => send(model, "zoom", 1)),
    button("msw-graph-view-expand-all", labels.expand_all, labels.expand_all_tip,
           () => send(model, "expanded", [...model.get("groups")])),
    button("msw-graph-view-collapse-all", labels.collapse_all, labels.collapse_all_tip,
           () => send(model, "expanded", [])),
    h("label", {class: "msw-graph-view-weights-label"}, weights, ` ${labels.weights}`));
}

function rezoom(model, scroll) {
  const el = scroll.querySelector("svg");
  if (!el) return;
  const [width, height] = model.get("size");
  const zoom = model.get("zoom");
  const oldW = Number(el.getAttribute("width")) || 1, oldH = Number(el.getAttribute("height")) || 1;
  const cx = (scroll.scrollLeft + scroll.clientWidth / 2) / oldW;
  const cy = (scroll.scrollTop + scroll.clientHeight / 2) / oldH;
  el.setAttribute("width", width * zoom);
  el.setAttribute("height", height * zoom);
  scroll.scrollLeft = cx * width * zoom - scroll.clientWidth / 2;
  scroll.scrollTop = cy * height * zoom - scroll.clientHeight / 2;
}

function remark(model, scroll) {
  const selected = model.get("selected");
  for (const g of scroll.querySelectorAll(".msw-graph-view-node")) {
    g.classList.toggle("msw-graph-view-selected", g.getAttribute("data-name") === selected);
  }
}

export default {
  /** @param {{model: GraphModel, el: HTMLElement}} widget */
  render({ model, el }) {
    const scroll = h("div", {class: "msw-graph-view-scroll", onclick: (e) => onClick(model, e)});
    const caption = h("div", {class: "msw-graph-view-caption"});
    const error = h("div", {class: "msw-graph-view-error"});
    const root = h("div", {class: "msw msw-graph-view"}, caption, toolbar(model, scroll), error, scroll);
    el.append(root);
    redrawOn(model, caption, ["caption"], () => model.get("caption"));
    redrawOn(model, error, ["error"], () => errorBox(model));
    // one message changes nodes, edges, frames and size together: draw once for all four
    let pending = false;
    const redraw = () => {
      if (pending) return;
      pending = true;
      queueMicrotask(() => { pending = false; scroll.replaceChildren(drawing(model)); });
    };
    for (const t of ["nodes", "edges", "frames", "size"]) model.on(`change:${t}`, redraw);
    scroll.replaceChildren(drawing(model));
    model.on("change:zoom", () => rezoom(model, scroll));
    model.on("change:selected", () => remark(model, scroll));
  },
};
