// Inline citation marks: each answer sentence the `sources` event's `claims` tie to documents
// gets small numbered marks after it; a mark opens its document at the sentence that supports
// the claim (highlighted). Sentences that cite nothing get no mark: a mark is a promise that
// the opened text says it.

import { el } from "./dom.js";
import { openDocument } from "./sources.js";

// How much of a claim's end is looked for in the rendered answer (markdown markers removed).
const TAIL = 24;

function plain(text) {
  return String(text || "")
    .replace(/^\s*(?:[-*•]|\d+[.)])\s+/, "")
    .replace(/[*`#>]/g, "")
    // "_" marks emphasis only at a word's edge: "get_json" is a name, and is shown as one.
    .replace(/(?<!\w)_+|_+(?!\w)/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

// The text node and offset where `tail` ends, searching after `from` (a [node, offset] pair).
// The answer's text nodes are read as one string: a sentence may end in a link or bold text.
function findEnd(root, tail, from) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  let text = "";
  let start = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement && node.parentElement.closest(".cite-marks")) continue;
    if (from && node === from[0]) start = text.length + from[1];
    nodes.push([node, text.length]);
    text += node.nodeValue;
  }
  const flat = text.replace(/\s/g, " ");
  const at = flat.indexOf(tail, start);
  if (at < 0) return null;
  const endAt = at + tail.length;
  for (let i = nodes.length - 1; i >= 0; i -= 1) {
    const [node, offset] = nodes[i];
    if (offset < endAt) return [node, endAt - offset];
  }
  return null;
}

const INLINE = new Set(["A", "STRONG", "EM", "B", "I", "CODE", "SPAN"]);

// `marks` right after the text ending at `offset` in `node`: after a link or bold text that
// the sentence ends with, never inside it (a mark inside a link would be the link).
function placeAfter(root, node, offset, marks) {
  if (offset < node.nodeValue.length) {
    const rest = node.splitText(offset);
    rest.parentNode.insertBefore(marks, rest);
    return;
  }
  let after = node;
  while (after.parentElement && after.parentElement !== root
    && INLINE.has(after.parentElement.tagName) && after === after.parentNode.lastChild) {
    after = after.parentElement;
  }
  after.parentNode.insertBefore(marks, after.nextSibling);
}

// `open(doc, {highlight})`: how a mark opens its document (an assistant's own viewer, e.g.
// code with its cited lines marked; the shell's dialog otherwise).
export function markCitations(textRoot, data, open = openDocument) {
  const claims = Array.isArray(data && data.claims) ? data.claims : [];
  const documents = Array.isArray(data && data.documents) ? data.documents : [];
  if (!claims.length || !documents.length) return;
  let from = null;
  claims.forEach((claim) => {
    const quotes = Array.isArray(claim.quotes) ? claim.quotes : [];
    // Each mark opens its document at its own sentence (an older event has one quote).
    const cites = (claim.cites || [])
      .map((n, i) => ({ n, quote: quotes[i] || claim.quote }))
      .filter(({ n }) => documents[n - 1]);
    const text = plain(claim.text);
    if (!text) return;
    const tail = text.slice(-TAIL);
    const end = findEnd(textRoot, tail, from);
    if (!end) return;
    from = end;
    if (!cites.length) return;
    const [node, offset] = end;
    const marks = el("sup", "cite-marks");
    cites.forEach(({ n, quote }) => {
      const doc = documents[n - 1];
      const mark = el("button", "cite-mark", String(n));
      mark.type = "button";
      mark.title = `Source ${n}: ${doc.title || doc.id || "document"}`;
      mark.setAttribute("aria-label", mark.title);
      mark.addEventListener("click", () => open(doc, { highlight: quote }));
      marks.append(mark);
    });
    placeAfter(textRoot, node, offset, marks);
  });
}

// In the opened document, the sentence a claim rests on: marked and scrolled to.
export function highlightQuote(root, quote) {
  const wanted = plain(quote);
  if (!wanted) return;
  const head = wanted.slice(0, 40);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue;
    const at = text.replace(/\s+/g, " ").indexOf(head);
    if (at < 0) continue;
    const length = Math.min(wanted.length, text.length - at);
    const middle = node.splitText(at);
    middle.splitText(length);
    const mark = el("mark", "cited-sentence");
    middle.parentNode.insertBefore(mark, middle);
    mark.append(middle);
    mark.scrollIntoView({ block: "center" });
    return;
  }
  // Split over several nodes ("**Hours:** Daily 8:00 AM-8:00 PM"): the smallest block holding it.
  const blocks = [...root.querySelectorAll("li, p, td, pre, h1, h2, h3, h4")].filter((block) =>
    block.textContent.replace(/\s+/g, " ").includes(head));
  const block = blocks.pop();
  if (block) {
    block.classList.add("cited-sentence");
    block.scrollIntoView({ block: "center" });
  }
}
