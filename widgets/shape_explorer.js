// The shape explorer's view: shape fields and sliders on top, then a scrollable table of every
// node's shapes. Python parses, infers and picks the rows; this only draws and reports edits.

const P = "msw-shape-explorer";
const BATCH_MAX = 64;
const IMAGE_MAX = 512;

// "(1, 3, ?, ?)" with every "?" marked, so unknown dimensions stand out.
function shapeNode(text) {
  const parts = text.split(/(\?)/);
  return h("span", {class: `msw-mono ${P}-shape`},
    parts.map((p) => (p === "?" ? h("span", {class: `${P}-unknown`}, "?") : p)));
}

function slotList(slots, withEntry) {
  return slots.map((s) => h("div", {class: `${P}-slot`},
    h("span", {class: `${P}-slot-name`}, s[0]),
    withEntry && s[1] !== s[0] ? h("span", {class: `${P}-entry msw-mono`}, `← ${s[1]}`) : null,
    " ", shapeNode(s[s.length - 1])));
}

function fieldRow(model, name, text) {
  const bad = model.get("bad_field") === name;
  const commit = (e) => {  // Enter and blur both commit: read the state afresh, send once
    const shapes = model.get("shapes");
    if (e.target.value !== shapes[name]) send(model, "shapes", {...shapes, [name]: e.target.value});
  };
  const rest = {...model.get("shapes")};
  delete rest[name];
  return h("label", {class: `${P}-field-row` + (bad ? ` ${P}-bad` : "")},
    h("span", {class: `msw-mono ${P}-field-name`}, name),
    h("input", {class: `msw-mono ${P}-field`, "data-field": name, value: text,
                spellcheck: "false", "aria-invalid": bad ? "true" : null,
                placeholder: model.get("labels").unknown, onchange: commit,
                onkeydown: (e) => { if (e.key === "Enter") commit(e); }}),
    h("button", {class: `msw-btn ${P}-remove`, title: fillLabel(model.get("labels").forget, {name}),
                 "data-field": name, onclick: () => send(model, "shapes", rest)}, "×"));
}

function adder(model) {
  const listId = `${P}-args-${Math.random().toString(36).slice(2)}`;
  const input = h("input", {class: `msw-mono ${P}-add-name`, list: listId,
                            placeholder: model.get("labels").add_placeholder,
                            spellcheck: "false"});
  const add = () => { if (input.value.trim()) send(model, "add_argument", input.value.trim()); };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") add(); });
  return h("div", {class: `${P}-add`},
    input,
    h("datalist", {id: listId}, model.get("candidates").map((n) => h("option", {value: n}))),
    h("button", {class: `msw-btn ${P}-add-button`, onclick: add}, model.get("labels").add));
}

function fields(model) {
  const shapes = model.get("shapes");
  return h("div", {class: `${P}-fields`},
    Object.entries(shapes).map(([name, text]) => fieldRow(model, name, text)),
    adder(model));
}

function slider(model, trait, label, max, cls) {
  const value = model.get(trait);
  const shown = h("span", {class: `msw-mono ${P}-slider-value`}, value);
  return h("label", {class: `${P}-slider-row`},
    h("span", {class: `${P}-slider-label`}, label),
    h("input", {type: "range", class: `${P}-${cls}`, min: 0, max: Math.max(max, value),
                value, oninput: (e) => { shown.textContent = e.target.value; },
                onchange: (e) => send(model, trait, Number(e.target.value))}),
    shown);
}

function sliders(model) {
  const batchFields = model.get("batch_fields");
  if (!batchFields.length) return null;
  const labels = model.get("labels");
  return h("div", {class: `${P}-sliders`},
    slider(model, "batch", fillLabel(labels.batch, {fields: batchFields.join(", ")}), BATCH_MAX,
           "batch"),
    model.get("has_image")
      ? slider(model, "image_size", fillLabel(labels.image, {field: batchFields[0]}), IMAGE_MAX,
               "image") : null);
}

function status(model) {
  const failed = model.get("failed_node");
  return h("div", {class: `${P}-status`},
    h("div", {class: `${P}-summary` + (failed ? ` ${P}-summary-failed` : "")},
      model.get("summary"),
      failed ? h("button", {class: `msw-btn ${P}-jump`,
                            onclick: () => send(model, "focus", failed)},
                 fillLabel(model.get("labels").jump, {node: failed})) : null),
    errorBox(model));
}

function tableRow(model, row) {
  const [name, op, ins, outs, aux, state] = row;
  const focused = model.get("focus") === name;
  const classes = [`${P}-row`, `${P}-${state}`];
  if (op === "null") classes.push(`${P}-variable`);
  if (focused) classes.push(`${P}-focused`);
  return h("tr", {class: classes.join(" "), "data-node": name,
                  onclick: () => send(model, "focus", name)},
    h("td", {class: `msw-mono ${P}-name`}, name),
    h("td", {class: `${P}-op`}, op === "null" ? model.get("labels").variable : op),
    h("td", {}, slotList(ins, true)),
    h("td", {}, slotList(outs, false)),
    h("td", {}, slotList(aux, false)),
    h("td", {class: `${P}-state`}, model.get("labels").status[state]));
}

function table(model) {
  const head = h("tr", {}, model.get("labels").headings.map((t) => h("th", {}, t)));
  return h("table", {class: `${P}-table`},
    h("thead", {}, head),
    h("tbody", {}, model.get("rows").map((r) => tableRow(model, r))));
}

function scrollToFocus(model, box) {
  const name = model.get("focus");
  if (!name) return;
  const row = [...box.querySelectorAll("tr[data-node]")].find((r) => r.dataset.node === name);
  if (row) box.scrollTop = Math.max(0, row.offsetTop - box.clientHeight / 3);
}

function toolbar(model) {
  const filter = h("input", {class: `msw-mono ${P}-filter`, placeholder: model.get("labels").filter,
                             value: model.get("filter"), spellcheck: "false",
                             oninput: (e) => send(model, "filter", e.target.value)});
  model.on("change:filter", () => {
    if (filter.value !== model.get("filter")) filter.value = model.get("filter");
  });
  const folded = h("input", {type: "checkbox", class: `${P}-variables`,
                             checked: model.get("show_variables"),
                             onchange: (e) => send(model, "show_variables", e.target.checked)});
  model.on("change:show_variables", () => { folded.checked = model.get("show_variables"); });
  const counts = h("span", {class: `msw-note ${P}-counts`});
  redrawOn(model, counts, ["counts"], () => model.get("counts"));
  return h("div", {class: `${P}-toolbar`}, filter,
    h("label", {class: `${P}-variables-label`}, folded,
      ` ${model.get("labels").show_variables}`), counts);
}

export default {
  render({ model, el }) {
    const top = h("div", {});
    const state = h("div", {});
    const box = h("div", {class: `${P}-scroll`});
    const labels = model.get("labels");
    const root = h("div", {class: `msw ${P}`},
      h("div", {class: `${P}-caption`}, labels.caption),
      top, state, toolbar(model), box,
      h("div", {class: `msw-note ${P}-legend`},
        h("span", {class: `${P}-unknown`}, "?"),
        ` ${labels.legend_unknown} · `,
        h("span", {class: `${P}-key ${P}-key-failed`}, labels.status.failed), " · ",
        h("span", {class: `${P}-key ${P}-key-unreached`}, labels.status.unreached), " · ",
        h("span", {class: `${P}-key ${P}-key-given`}, labels.status.given)));
    redrawOn(model, top, ["shapes", "bad_field", "candidates", "batch", "image_size",
                          "has_image", "batch_fields"], () => [fields(model), sliders(model)]);
    redrawOn(model, state, ["summary", "error", "failed_node"], () => status(model));
    redrawOn(model, box, ["rows", "focus"], () => table(model));
    model.on("change:focus", () => scrollToFocus(model, box));
    model.on("change:rows", () => scrollToFocus(model, box));
    el.replaceChildren(root);
  },
};
