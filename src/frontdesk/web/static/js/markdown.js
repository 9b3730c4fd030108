// Markdown to DOM nodes, for model answers and retrieved documents.
//
// Why hand-written rather than marked + DOMPurify: those parse to an HTML string and then
// sanitise it; here no HTML is ever parsed. Every piece of text becomes a text node, so a
// `<img onerror>` in an answer or a document is shown as the characters it is. Links are kept
// only for http(s) and mailto URLs. The subset is what the assistants write: paragraphs, line
// breaks, headings, bullet and numbered lists, quotes, fenced code, `code`, **bold**, *italic*
// and [links](https://...). No dependency to vendor, audit or update, and no build step.

import { el } from "./dom.js";

const SAFE_URL = /^(https?:\/\/|mailto:)/i;
const INLINE = /(`+)([^`]+?)\1|\*\*([^*]+?)\*\*|(?<![\w])__([^_]+?)__(?![\w])|\*([^*\s][^*]*?)\*|(?<![\w])_([^_\s][^_]*?)_(?![\w])|\[([^\]]+)\]\(([^)\s]+)\)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;

// Appends `text` with inline markup to `parent`.
function appendInline(parent, text) {
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) parent.append(text.slice(last, match.index));
    const [whole, , code, bold, bold2, em, em2, label, href, bare] = match;
    if (code !== undefined) parent.append(el("code", "", code));
    else if (bold !== undefined || bold2 !== undefined) {
      const strong = el("strong");
      appendInline(strong, bold ?? bold2);
      parent.append(strong);
    } else if (em !== undefined || em2 !== undefined) {
      const emph = el("em");
      appendInline(emph, em ?? em2);
      parent.append(emph);
    } else if (label !== undefined) {
      parent.append(SAFE_URL.test(href) ? link(href, label) : `${label} (${href})`);
    } else if (bare !== undefined) {
      // The URL is its own label: as plain text, or the label would match as a URL again.
      const a = link(bare, "");
      a.append(bare);
      parent.append(a);
    } else {
      parent.append(whole);
    }
    last = match.index + whole.length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

function link(href, label) {
  const a = el("a");
  a.href = href; // only http(s) and mailto reach here: no javascript: or data: URLs
  a.target = "_blank";
  a.rel = "noopener noreferrer nofollow";
  appendInline(a, label);
  return a;
}

function appendLines(parent, lines) {
  lines.forEach((line, index) => {
    if (index) parent.append(el("br"));
    appendInline(parent, line);
  });
}

const BULLET = /^\s*[-*+•]\s+(.*)$/;
const NUMBERED = /^\s*(\d{1,3})[.)]\s+(.*)$/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const FENCE = /^\s*(```|~~~)/;

// Renders `text` into `container` (replacing what it held).
export function renderMarkdown(container, text) {
  const lines = String(text || "").replace(/\r\n?/g, "\n").split("\n");
  const blocks = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i += 1;
      continue;
    }
    if (FENCE.test(line)) {
      const fence = line.trim().slice(0, 3);
      const code = [];
      i += 1;
      while (i < lines.length && !lines[i].trim().startsWith(fence)) code.push(lines[i++]);
      i += 1; // the closing fence (or the end, while still streaming)
      const pre = el("pre");
      pre.append(el("code", "", code.join("\n")));
      blocks.push(pre);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      // Answers sit under the page's own headings: #..###### become h3..h6.
      const node = el(`h${Math.min(6, heading[1].length + 2)}`);
      appendInline(node, heading[2]);
      blocks.push(node);
      i += 1;
      continue;
    }
    if (BULLET.test(line) || NUMBERED.test(line)) {
      const numbered = !BULLET.test(line);
      const pattern = numbered ? NUMBERED : BULLET;
      const list = el(numbered ? "ol" : "ul");
      if (numbered) list.start = Number(NUMBERED.exec(line)[1]);
      let item = null;
      while (i < lines.length && lines[i].trim()) {
        const match = pattern.exec(lines[i]);
        if (match) {
          item = el("li");
          appendInline(item, numbered ? match[2] : match[1]);
          list.append(item);
        } else if (item && /^\s+/.test(lines[i])) {
          item.append(el("br"));
          appendInline(item, lines[i].trim());
        } else break;
        i += 1;
      }
      blocks.push(list);
      continue;
    }
    if (line.startsWith(">")) {
      const quoted = [];
      while (i < lines.length && lines[i].startsWith(">")) quoted.push(lines[i++].replace(/^>\s?/, ""));
      const quote = el("blockquote");
      appendLines(quote, quoted);
      blocks.push(quote);
      continue;
    }
    const paragraph = [];
    while (
      i < lines.length && lines[i].trim() && !FENCE.test(lines[i]) && !HEADING.test(lines[i])
      && !BULLET.test(lines[i]) && !NUMBERED.test(lines[i]) && !lines[i].startsWith(">")
    ) paragraph.push(lines[i++]);
    const p = el("p");
    appendLines(p, paragraph);
    blocks.push(p);
  }
  container.replaceChildren(...blocks);
}
