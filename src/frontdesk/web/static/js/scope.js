// The scope picker: for assistants with several collections to answer from (a code
// assistant's repositories), the one a question is about. An assistant's UI module offers
// them with `scopes(assistant)`; the choice is remembered per assistant in this browser and
// sent with each question as POST /chat `scope`.

import { el } from "./dom.js";

const row = document.getElementById("scope-row");
const label = document.getElementById("scope-label");
const picker = document.getElementById("scope-picker");
const note = document.getElementById("scope-note");
const KEY = "frontdesk.scope.v1";

let current = null; // {assistant name, value}

function saved() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch (err) {
    return {};
  }
}

// Shows the picker for `assistant` when its module offers scopes ({label, options:
// [{value, label}], initial, note}), else hides it.
export function showScope(assistant, renderer) {
  const offered = assistant && renderer && typeof renderer.scopes === "function"
    ? renderer.scopes(assistant) : null;
  const options = (offered && Array.isArray(offered.options)) ? offered.options : [];
  if (!options.length) {
    row.hidden = true;
    current = null;
    return;
  }
  row.hidden = false;
  label.textContent = offered.label || "About";
  picker.replaceChildren(...options.map((o) => {
    const option = el("option", "", String(o.label || o.value));
    option.value = String(o.value);
    return option;
  }));
  const remembered = saved()[assistant.name];
  const values = options.map((o) => String(o.value));
  const value = values.includes(remembered) ? remembered
    : values.includes(String(offered.initial)) ? String(offered.initial) : values[0];
  picker.value = value;
  note.textContent = offered.note || "";
  current = { assistant: assistant.name, value };
}

// The scope a question to `assistantName` is about (null: the assistant's own default).
export function scopeFor(assistantName) {
  return current && current.assistant === assistantName ? current.value : null;
}

picker.addEventListener("change", () => {
  if (!current) return;
  current.value = picker.value;
  const all = saved();
  all[current.assistant] = picker.value;
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch (err) {
    // Storage full or disabled: the choice holds for this page only.
  }
});
