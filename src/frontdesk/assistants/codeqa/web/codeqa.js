// The code assistant's part of the web chat (see the renderer interface in the shell's
// renderers.js): a repository picker, and citations that open the cited lines, numbered and
// highlighted, in the source dialog.

export function welcome(assistant) {
  const info = assistant.info || {};
  const indexing = info.indexing && ["starting", "reading", "embedding"].includes(info.indexing.stage);
  return {
    title: "What would you like to know about the code?",
    text: indexing
      ? `Indexing ${info.indexing.repository}: ${info.indexing.status}. Ask meanwhile about a repository already indexed, or try:`
      : "Ask where something is, what uses it or how it works. Every answer cites the lines it comes from:",
    hint: "Answers come from the repository's own code, with the cited lines.",
  };
}

// Examples about the repository served by default (Frontdesk's own code).
const EXAMPLES = {
  locate: "Where is `create_app` defined?",
  usages: "What calls `load_services`?",
  explain: "How are answers streamed to the browser?",
};

export function topicChips(assistant) {
  const topics = assistant.topics || {};
  return Object.entries(EXAMPLES).map(([route, prompt]) => ({ label: topics[route] || route, prompt }));
}

export function scopes(assistant) {
  const info = assistant.info || {};
  const ids = Array.isArray(info.repositories) ? [...info.repositories] : [];
  const indexing = info.indexing && ["starting", "reading", "embedding"].includes(info.indexing.stage);
  if (indexing && !ids.includes(info.indexing.repository)) ids.push(info.indexing.repository);
  if (!ids.length) return null;
  return {
    label: "Repository",
    options: ids.map((id) => ({ value: id, label: indexing && id === info.indexing.repository ? `${id} (indexing…)` : id })),
    initial: info.repository,
    note: ids.length > 1 ? "" : "Add one with: frontdesk codeqa index PATH",
  };
}

// --- citations -------------------------------------------------------------------------------

const KEYWORDS = new Set((
  "and as assert async await break case catch class const continue def default defer del do " +
  "elif else enum except export extends false final finally fn for from func function go if " +
  "impl import in interface is lambda let match mod module mut new nil none not null or " +
  "package pass private protected pub public raise return self static struct super switch " +
  "this throw trait true try type typeof use var void while with yield True False None"
).split(" "));
const HASH_COMMENTS = /\.(py|rb|sh|toml|ya?ml|cfg|ini|r)$/i;
// One token at a time: comments, strings, numbers, words; anything else as it is.
const TOKEN = /(\/\/.*$|#.*$|\/\*.*?\*\/|"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`[^`]*`?|\b\d[\w.]*|\b[A-Za-z_]\w*)/g;

// One line of code as nodes: keywords, strings, comments and numbers in their own spans
// (text nodes only: the code is untrusted and never parsed as HTML).
function highlightLine(line, hashComments, el) {
  const nodes = [];
  let last = 0;
  for (const match of line.matchAll(TOKEN)) {
    const [text] = match;
    let kind = null;
    if (text.startsWith("//") || text.startsWith("/*")) kind = hashComments ? null : "comment";
    else if (text.startsWith("#")) kind = hashComments ? "comment" : null;
    else if (/^["'`]/.test(text)) kind = "string";
    else if (/^\d/.test(text)) kind = "number";
    else if (KEYWORDS.has(text)) kind = "keyword";
    if (match.index > last) nodes.push(document.createTextNode(line.slice(last, match.index)));
    nodes.push(kind ? el("span", `tok-${kind}`, text) : document.createTextNode(text));
    last = match.index + text.length;
    if (kind === "comment") break;
  }
  if (last < line.length) nodes.push(document.createTextNode(line.slice(last)));
  return nodes;
}

// The cited block in the source dialog: numbered lines, the cited ones marked, scrolled to.
function openCode(doc, el) {
  const dialog = document.getElementById("document-dialog");
  const opener = document.activeElement;
  dialog.querySelector("#document-title").textContent = String(doc.title || doc.id);
  const category = dialog.querySelector("#document-category");
  category.textContent = String(doc.path || "");
  category.hidden = !doc.path;
  const [from, to] = Array.isArray(doc.highlight) ? doc.highlight : [0, -1];
  const hashComments = HASH_COMMENTS.test(String(doc.path || ""));
  const pre = el("pre", "code-view");
  pre.setAttribute("aria-label", `${doc.path} from line ${doc.start_line}`);
  const lines = String(doc.text || "").split("\n");
  let first = null;
  lines.forEach((text, index) => {
    const number = (Number(doc.start_line) || 1) + index;
    const row = el("span", "code-line");
    const cited = number >= from && number <= to;
    row.dataset.cited = String(cited);
    row.append(el("span", "code-number", String(number)), ...highlightLine(text, hashComments, el));
    pre.append(row);
    if (cited && !first) first = row;
  });
  const body = dialog.querySelector("#document-text");
  body.replaceChildren(el("p", "code-note", `Lines ${from}-${to} cited; the code around them as the answer saw it.`), pre);
  dialog.onclose = () => {
    if (opener && opener.isConnected) opener.focus();
  };
  dialog.showModal();
  body.scrollTop = 0;
  if (first) first.scrollIntoView({ block: "center" });
}

// A citation mark opens its code at the cited lines, as the chips under the answer do.
export function openSource(doc, options, helpers) {
  openCode(doc, helpers.el);
}

export function renderSources(data, container, helpers) {
  const { el, button } = helpers;
  const docs = Array.isArray(data.documents) ? data.documents : [];
  if (!docs.length) return;
  const row = el("div", "sources");
  row.append(el("span", "sources-label", "Cited"));
  for (const doc of docs) {
    const label = String(doc.id || doc.title);
    row.append(button(label, "source-chip source-open", () => openCode(doc, el), {
      title: `Open ${doc.title || label}`,
    }));
  }
  container.append(row);
}
