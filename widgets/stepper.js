// The stepper's view: a toolbar (back, next, a slider over the calls, the phase, jump to a
// node) and the call under the cursor, slot by slot, with the pictures Python made. Python
// decides everything; this only draws and sends `cursor`, `jump` and `inspect`.

const ROLE_CLASS = {in_data: "in", out_data: "out", aux: "aux", in_grad: "grad", out_grad: "grad"};
let stepperViews = 0;  // a unique id per view for the node datalist

function stepperToolbar(model, listId) {
  const calls = model.get("calls");
  const cursor = model.get("cursor");
  const n = calls.length;
  const phase = model.get("phase");
  const go = (step) => send(model, "cursor", step);
  const labels = model.get("labels");
  const slider = h("input", {type: "range", class: "msw-stepper-slider", min: 0,
                             max: Math.max(n - 1, 0), value: cursor, disabled: n === 0,
                             "aria-label": labels.call});
  slider.addEventListener("change", () => go(Number(slider.value)));
  const jump = h("input", {type: "text", class: "msw-stepper-jump-input msw-mono",
                           list: listId, placeholder: labels.node_name,
                           "aria-label": labels.jump_to});
  const doJump = () => { if (jump.value.trim()) send(model, "jump", jump.value.trim()); };
  jump.addEventListener("keydown", (e) => { if (e.key === "Enter") doJump(); });
  const names = [...new Set(calls.map((c) => c.node))];
  const first = model.get("first_backward");
  const split = first < 0 ? fillLabel(labels.forward_calls, {n})
    : fillLabel(labels.both_calls, {first, next: first + 1, n});
  return h("div", {class: "msw-stepper-toolbar"},
    h("button", {class: "msw-btn msw-stepper-back", disabled: cursor <= 0,
                 title: labels.previous, onclick: () => go(cursor - 1)}, labels.back),
    h("button", {class: "msw-btn msw-stepper-next", disabled: cursor >= n - 1,
                 title: labels.next_call, onclick: () => go(cursor + 1)}, labels.next),
    h("span", {class: `msw-stepper-phase msw-stepper-phase-${phase || "none"}`},
      phase ? labels[phase] : "—"),
    h("span", {class: "msw-stepper-position msw-mono"},
      n ? fillLabel(labels.position, {n: cursor + 1, total: n}) : labels.no_calls),
    h("span", {class: "msw-stepper-rail"}, slider,
      h("span", {class: "msw-stepper-split msw-note"}, n ? split : "")),
    h("span", {class: "msw-stepper-jump"}, jump,
      h("datalist", {id: listId}, names.map((name) => h("option", {value: name}))),
      h("button", {class: "msw-btn msw-stepper-go", onclick: doJump}, labels.jump)));
}

function stepperPicture(pic, legends, labels) {
  if (!pic) return null;
  if (pic.kind === "image") {
    return h("figure", {class: "msw-stepper-figure"},
      h("img", {class: "msw-stepper-img", src: pic.src, width: pic.width, height: pic.height,
                alt: pic.caption}),
      h("figcaption", {class: "msw-note"}, pic.caption,
        h("span", {class: "msw-stepper-scale msw-mono"}, pic.low,
          h("img", {class: "msw-stepper-legend", src: legends[pic.palette], alt: labels.colour_scale}),
          pic.high)));
  }
  if (pic.kind === "bars") {
    const top = Math.max(...pic.counts, 1);
    const width = 4 * pic.counts.length;
    const svgNS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(svgNS, "svg");
    svg.setAttribute("class", `msw-stepper-bars msw-stepper-bars-${pic.palette}`);
    svg.setAttribute("viewBox", `0 0 ${width} 40`);
    svg.setAttribute("width", String(width * 2));
    svg.setAttribute("height", "60");
    pic.counts.forEach((count, i) => {
      const bar = document.createElementNS(svgNS, "rect");
      const height = count ? Math.max(1, 40 * count / top) : 0;
      bar.setAttribute("x", String(4 * i));
      bar.setAttribute("y", String(40 - height));
      bar.setAttribute("width", "3.4");
      bar.setAttribute("height", String(height));
      svg.append(bar);
    });
    return h("figure", {class: "msw-stepper-figure"}, svg,
      h("figcaption", {class: "msw-note"}, pic.caption,
        h("span", {class: "msw-stepper-scale msw-mono"}, `${pic.low} … ${pic.high}`)));
  }
  if (pic.kind === "values") {
    return h("figure", {class: "msw-stepper-figure"},
      h("code", {class: "msw-stepper-values"}, `[${pic.values.join(", ")}]`),
      h("figcaption", {class: "msw-note"}, pic.caption));
  }
  return h("div", {class: "msw-note"}, pic.caption || "");
}

function stepperSlotRow(model, slot, legends) {
  const inspected = model.get("inspect") === slot.label;
  return h("tr", {class: `msw-stepper-slot ${inspected ? "msw-stepper-inspected" : ""}`,
                  "data-label": slot.label},
    h("td", {class: `msw-stepper-label msw-mono msw-stepper-${ROLE_CLASS[slot.role]}`},
      slot.label),
    h("td", {class: "msw-mono"}, slot.name),
    h("td", {class: "msw-mono msw-stepper-entry"}, slot.entry),
    h("td", {class: "msw-mono"}, slot.shape),
    h("td", {class: "msw-mono"}, slot.dtype),
    h("td", {class: "msw-mono msw-stepper-req"}, slot.req),
    h("td", {class: "msw-stepper-picture"}, stepperPicture(slot.picture, legends, model.get("labels")),
      slot.stats ? h("div", {class: "msw-stepper-stats msw-mono"}, slot.stats) : null,
      slot.note ? h("div", {class: "msw-note"}, slot.note) : null),
    h("td", {}, h("button", {class: "msw-btn msw-stepper-inspect", "data-label": slot.label,
                             title: fillLabel(model.get("labels").what_slot, {slot: slot.label}),
                             onclick: () => send(model, "inspect", slot.label)},
                   model.get("labels").index_map)));
}

function stepperSlots(model, title, slots, legends) {
  if (!slots.length) return null;
  const head = h("tr", {}, model.get("labels").headings.map((t) => h("th", {}, t)));
  return h("div", {class: "msw-stepper-group"},
    h("div", {class: "msw-stepper-group-title"}, title),
    h("table", {class: "msw-stepper-table"}, head,
      slots.map((slot) => stepperSlotRow(model, slot, legends))));
}

function stepperSum(model, sum, legends) {
  const go = (step) => send(model, "cursor", step);
  const labels = model.get("labels");
  if (sum.gives) {
    return h("div", {class: "msw-stepper-sum msw-stepper-sum-gives"},
      h("div", {}, labels.one_part,
        h("code", {class: "msw-stepper-sum-text"}, sum.text), fillLabel(labels.into, {into: sum.into})),
      sum.shown_at === null ? null : h("button", {class: "msw-btn msw-stepper-sum-go",
                                                  onclick: () => go(sum.shown_at)},
                                       fillLabel(labels.see_sum, {n: sum.shown_at + 1})));
  }
  const terms = [];
  sum.parts.forEach((part, i) => {
    if (i) terms.push(h("span", {class: "msw-stepper-op"}, "+"));
    terms.push(h("div", {class: "msw-stepper-term"},
      part.step === null ? h("div", {class: "msw-mono"}, fillLabel(labels.part_from, part))
        : h("button", {class: "msw-btn msw-stepper-part", onclick: () => go(part.step)},
            fillLabel(labels.part_from, part)),
      stepperPicture(part.picture, legends, labels) || h("div", {class: "msw-note"}, labels.not_kept)));
  });
  terms.push(h("span", {class: "msw-stepper-op"}, "="));
  terms.push(h("div", {class: "msw-stepper-term"}, h("div", {class: "msw-mono"}, sum.entry),
    stepperPicture(sum.total, legends, labels) || h("div", {class: "msw-note"}, labels.not_kept)));
  return h("div", {class: "msw-stepper-sum"},
    h("div", {class: "msw-stepper-group-title"}, labels.summed,
      h("code", {class: "msw-stepper-sum-text"}, sum.text), ` → ${sum.into}`),
    h("div", {class: "msw-stepper-terms"}, terms),
    h("div", {class: "msw-note msw-stepper-check"}, sum.check));
}

function stepperCall(model) {
  const call = model.get("current");
  if (!call || !call.node) return null;
  const legends = call.legends || {};
  const labels = model.get("labels");
  const verb = call.phase === "forward" ? labels.forward : labels.backward;
  return h("div", {class: "msw-stepper-call"},
    h("div", {class: "msw-stepper-heading"},
      h("span", {class: "msw-mono"}, `${call.op} '${call.node}'`), ` · ${verb}`,
      call.phase === "forward" ? ` (is_train=${call.is_train ? "True" : "False"})` : ""),
    call.is_train_note ? h("div", {class: "msw-note msw-stepper-is-train"}, call.is_train_note)
      : null,
    stepperSlots(model, fillLabel(labels.receives, {verb}), call.receives, legends),
    stepperSlots(model, fillLabel(labels.writes, {verb}), call.writes, legends),
    call.sums.map((sum) => stepperSum(model, sum, legends)));
}

export default {
  render({ model, el }) {
    const listId = `msw-stepper-nodes-${++stepperViews}`;
    const root = h("div", {class: "msw msw-stepper", tabindex: 0});
    root.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT") return;
      const cursor = model.get("cursor");
      if (e.key === "ArrowRight") send(model, "cursor", cursor + 1);
      if (e.key === "ArrowLeft") send(model, "cursor", Math.max(cursor - 1, 0));
    });
    el.append(root);
    redrawOn(model, root, ["cursor", "calls", "current", "phase", "error", "notes", "inspect"],
      () => [
        h("div", {class: "msw-stepper-caption"}, model.get("caption")),
        stepperToolbar(model, listId),
        errorBox(model),
        stepperCall(model),
        model.get("notes").map((note) => h("div", {class: "msw-note msw-stepper-notes"}, note)),
      ]);
  },
};
