// What an answer used: chips naming the documents (a click opens the document's text in a
// dialog) and the tools that ran. Shared by the generic rendering and the assistants' modules.

import { asList, button, compactJson, el } from "./dom.js";
import { highlightQuote } from "./citations.js";
import { renderMarkdown } from "./markdown.js";

function documentsOf(value) {
  return asList(value).filter((d) => d && typeof d === "object" && (d.title || d.id));
}

// The document dialog (in index.html): a modal <dialog>, so focus stays in it, Escape closes
// it, and focus returns to the chip that opened it.
// `highlight`: the sentence a cited claim rests on, marked in the text and scrolled to.
export function openDocument(doc, { highlight = "" } = {}) {
  const dialog = document.getElementById("document-dialog");
  const opener = document.activeElement;
  dialog.querySelector("#document-title").textContent = String(doc.title || doc.id || "Document");
  const category = dialog.querySelector("#document-category");
  category.textContent = doc.category ? String(doc.category) : "";
  category.hidden = !doc.category;
  // Documents are untrusted too: markdown to DOM nodes, never HTML.
  const body = dialog.querySelector("#document-text");
  renderMarkdown(body, doc.text || "(No text for this source.)");
  dialog.onclose = () => {
    if (opener && opener.isConnected) opener.focus();
  };
  dialog.showModal();
  body.scrollTop = 0;
  if (highlight) highlightQuote(body, highlight);
}

// "Sources: [Pool] [Spa]": buttons for documents, plain chips for names without one.
// Returns null when there is nothing to show.
export function documentChips(documents, names, label = "Sources") {
  const docs = documentsOf(documents);
  const plain = docs.length ? [] : asList(names).filter((n) => n !== null && n !== "");
  if (!docs.length && !plain.length) return null;
  const row = el("div", "sources");
  row.append(el("span", "sources-label", label));
  for (const doc of docs) {
    const title = String(doc.title || doc.id);
    const chip = button(title, "source-chip source-open", () => openDocument(doc), {
      title: `Open ${title}`,
    });
    row.append(chip);
  }
  for (const name of plain) row.append(el("span", "source-chip", String(name)));
  return row;
}

// The tools that ran, each folded: its name and outcome, then its arguments and output.
export function renderTools(tools) {
  const block = el("div", "tools");
  block.append(el("span", "tools-label", "Tools used"));
  const list = el("ul", "tool-list");
  for (const tool of tools) {
    const ok = Boolean(tool && tool.ok);
    const item = el("li", "tool");
    item.dataset.ok = String(ok);
    const details = el("details");
    const summary = el("summary");
    summary.append(
      el("span", "tool-name", String((tool && tool.name) || "tool")),
      el("span", "tool-status", ok ? "ok" : "error"),
    );
    details.append(summary);
    const fields = el("dl", "tool-fields");
    const add = (label, value) => {
      const dd = el("dd");
      dd.append(el("code", "", value));
      fields.append(el("dt", "", label), dd);
    };
    add("args", compactJson(tool && tool.args !== undefined ? tool.args : {}));
    if (ok) add("output", compactJson(tool.output));
    else add("error", String((tool && tool.error) || "failed"));
    details.append(fields);
    item.append(details);
    list.append(item);
  }
  block.append(list);
  return block;
}
