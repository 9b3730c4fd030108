// Markdown to DOM nodes, for model answers and retrieved documents.
//
// Why hand-written rather than marked + DOMPurify: those parse to an HTML string and then
// sanitise it; here no HTML is ever parsed. Every piece of text becomes a text node, so a
// `<img onerror>` in an answer or a document is shown as the characters it is. Links are kept
// only for http(s), mailto and tel: URLs. The subset is what the assistants write: paragraphs, line
// breaks, headings, bullet and numbered lists, quotes, fenced code, `code`, **bold**, *italic*
// and [links](https://...). Bare URLs, bare domains with a known ending ("mohegansun.com", never
// "e.g." or "3.5") and dashed phone numbers become links too. No dependency to vendor, audit
// or update, and no build step.

import { el } from "./dom.js";

const SAFE_URL = /^(https?:\/\/|mailto:)/i;
// The endings a bare domain may have: a closed list, so "e.g.", "3.5" or "file.md" stay text.
const TLDS = "com|org|net|gov|edu|info|biz|io|ai|app|dev|co|us|uk|ca|eu|de|fr|pl";
const BARE_URL = String.raw`(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])`;
const BARE_DOMAIN = String.raw`(?<![\w@.\/-])((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:${TLDS})(?:\/[^\s<>()]*[^\s<>().,;:!?'"])?)(?![\w@-]|\.\w)`;
// "1-888-226-7711", "860-862-8600", "+1 860-862-8600": dashed North American numbers.
const PHONE = String.raw`(?<![\w+-])((?:\+?1[-\s])?\d{3}-\d{3}-\d{4})(?![\w-])`;
const INLINE = new RegExp(
  String.raw`(\x60+)([^\x60]+?)\1|\*\*([^*]+?)\*\*|(?<![\w])__([^_]+?)__(?![\w])|\*([^*\s][^*]*?)\*|(?<![\w])_([^_\s][^_]*?)_(?![\w])|\[([^\]]+)\]\(([^)\s]+)\)|`
    + `${BARE_URL}|${BARE_DOMAIN}|${PHONE}`,
  "gi",
);

// Appends `text` with inline markup to `parent`. Inside a link (`linked`), URLs, domains and
// numbers stay text: a link never holds another.
function appendInline(parent, text, linked = false) {
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) parent.append(text.slice(last, match.index));
    const [whole, , code, bold, bold2, em, em2, label, href, url, domain, phone] = match;
    if (code !== undefined) parent.append(el("code", "", code));
    else if (bold !== undefined || bold2 !== undefined) {
      const strong = el("strong");
      appendInline(strong, bold ?? bold2, linked);
      parent.append(strong);
    } else if (em !== undefined || em2 !== undefined) {
      const emph = el("em");
      appendInline(emph, em ?? em2, linked);
      parent.append(emph);
    } else if (label !== undefined) {
      if (linked) appendInline(parent, label, linked);
      else parent.append(SAFE_URL.test(href) ? link(href, label) : `${label} (${href})`);
    } else if (linked) {
      parent.append(whole);
    } else if (url !== undefined) {
      parent.append(link(url, url));
    } else if (domain !== undefined) {
      parent.append(link(`https://${domain}`, domain));
    } else if (phone !== undefined) {
      parent.append(link(`tel:${phone.replace(/[^\d+]/g, "")}`, phone, false));
    } else {
      parent.append(whole);
    }
    last = match.index + whole.length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

// Only http(s), mailto and tel: URLs reach here (no javascript: or data: URLs). Web pages
// open in a new tab; a phone number opens the dialler in place.
function link(href, label, newTab = true) {
  const a = el("a");
  a.href = href;
  if (newTab) {
    a.target = "_blank";
    a.rel = "noopener noreferrer nofollow";
  }
  appendInline(a, label, true);
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
