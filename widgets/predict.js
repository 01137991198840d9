// Predict, then run: a question, a field for the learner's prediction, "check" and (after a
// wrong try) "show me". Python parses, compares and explains; this only draws and reports.

function verdictBox(model) {
  const verdict = model.get("verdict");
  if (!verdict) return null;
  const changes = model.get("changes");
  const facts = model.get("facts");
  const why = model.get("why");
  return h("div", {class: `msw-predict-verdict msw-predict-${verdict}`, "data-verdict": verdict,
                   role: "status"},
    h("div", {class: "msw-predict-headline"}, model.get("headline")),
    changes.length ? h("ul", {class: "msw-predict-changes"},
                       changes.map((c) => h("li", {}, c))) : null,
    facts.length ? h("ul", {class: "msw-predict-facts"},
                     facts.map((f) => h("li", {}, f))) : null,
    why ? h("div", {class: "msw-predict-why"}, why) : null);
}

function answerBox(model) {
  const text = model.get("answer_text");
  if (!text || !model.get("revealed")) return null;  // a right try shows it in its verdict
  const labels = model.get("labels");
  const facts = model.get("verdict") ? [] : model.get("facts");  // shown by reveal alone
  return h("div", {class: "msw-predict-answer"},
    h("span", {class: "msw-predict-answer-label"}, labels.answer),
    h("code", {class: "msw-predict-answer-text msw-mono"}, text),
    facts.length ? h("ul", {class: "msw-predict-facts"},
                     facts.map((f) => h("li", {}, f))) : null);
}

function triesText(model) {
  const tries = model.get("tries");
  if (!tries.length) return "";
  return `${model.get("labels").tries}: ` + tries.map(([p]) => p).join(" · ");
}

export default {
  render({ model, el }) {
    const labels = model.get("labels");
    const input = h("input", {class: "msw-predict-input msw-mono", type: "text",
                              spellcheck: "false", autocomplete: "off",
                              placeholder: model.get("placeholder")});
    const check = () => model.send({do: "check", prediction: input.value});
    input.addEventListener("keydown", (e) => {
      e.stopPropagation();  // typing here is not a notebook shortcut
      if (e.key === "Enter") check();
    });
    const checkButton = h("button", {class: "msw-btn msw-predict-check", onclick: check},
                          labels.check);
    const revealButton = h("button", {class: "msw-btn msw-predict-reveal",
                                      onclick: () => model.send({do: "reveal"})}, labels.reveal);
    const tries = h("span", {class: "msw-predict-tries"});
    const dynamic = h("div", {class: "msw-predict-result"});
    const root = h("div", {class: "msw msw-predict"},
      h("div", {class: "msw-predict-question"},
        h("span", {class: "msw-predict-tag"}, labels.tag), model.get("question")),
      h("div", {class: "msw-predict-row"}, input, checkButton, revealButton, tries),
      dynamic);
    const update = () => {
      const wrongTry = model.get("attempts") > 0 && !model.get("solved");
      revealButton.hidden = !wrongTry || model.get("revealed");
      input.placeholder = model.get("placeholder");
      root.classList.toggle("msw-predict-solved", model.get("solved"));
      tries.textContent = triesText(model);
      tries.title = tries.textContent;
      dynamic.replaceChildren(...[errorBox(model), answerBox(model), verdictBox(model)]
        .filter(Boolean));
    };
    for (const t of ["verdict", "headline", "changes", "facts", "why", "answer_text",
                     "attempts", "solved", "revealed", "tries", "error", "placeholder"]) {
      model.on(`change:${t}`, update);
    }
    update();
    el.replaceChildren(root);
  },
};
