// Helpers every minisym widget module starts with (concatenated in front of it by Python:
// anywidget loads one self-contained module per widget, and nothing comes from the network).
/* exported h, errorBox, send, redrawOn, fillLabel */

// h("td", {class: "x", onclick: f}, "text", child) -> an element.
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// The inline error box: the engine's teaching message, or nothing.
function errorBox(model) {
  const text = model.get("error");
  return text ? h("pre", {class: "msw-error", role: "alert"}, text) : null;
}

// Set a trait from the page and send it to Python.
function send(model, name, value) {
  model.set(name, value);
  model.save_changes();
}

// Re-render `draw()` into `el` whenever one of `traits` changes.
function redrawOn(model, el, traits, draw) {
  const redraw = () => el.replaceChildren(...[draw()].flat(Infinity).filter(Boolean));
  for (const t of traits) model.on(`change:${t}`, redraw);
  redraw();
  return redraw;
}

// fillLabel("run {n}", {n: 2}) -> "run 2": a label from Python (already in the learner's
// language) with its {name} fields filled in.
function fillLabel(text, values) {
  return String(text).replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));
}
