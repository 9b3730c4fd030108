// Telecom support's part of the web chat (see the renderer interface in the shell's
// renderers.js): cited manual sections (title — section, each opening its text) shown once,
// the billing tools that ran, and the customer the demo sign-in acts as.

export const signInLabel = "Customer";

export function welcome() {
  return {
    title: "How can we help?",
    text: "Troubleshooting for your internet, TV and mobile, and questions about plans and invoices. Sign in as a customer for billing.",
    hint: "Technical answers cite the support manuals.",
  };
}

const EXAMPLES = {
  technical: "My router's PON light is blinking red. What should I do?",
  billing: "Why is my last invoice higher than usual?",
};

export function topicChips(assistant) {
  const topics = assistant.topics || {};
  return Object.entries(EXAMPLES).map(([route, prompt]) => ({ label: topics[route] || route, prompt }));
}

// The Sources section the service ends a technical answer with (technical.with_sources):
// "\n\nSources:" (or "Źródła:") and one "- Title — Section — file (version)" line per source.
const SOURCES_HEADINGS = ["Sources:", "Źródła:"];

function withoutSourcesSection(text) {
  for (const heading of SOURCES_HEADINGS) {
    const at = text.lastIndexOf(`\n\n${heading}\n`);
    if (at < 0) continue;
    const lines = text.slice(at + heading.length + 3).split("\n").filter((line) => line.trim());
    if (lines.length && lines.every((line) => line.startsWith("- "))) return text.slice(0, at);
  }
  return text;
}

// The answer's text keeps its Sources section (an API reader and Copy get it), but the bubble
// does not show it where the citation list below does: while the answer streams (its list
// follows) and once the list has arrived. An answer stopped before its list keeps the section.
export function answerText(text, message) {
  const citations = message.data && Array.isArray(message.data.citations) ? message.data.citations : [];
  if (message.status === "streaming" || citations.length) return withoutSourcesSection(text || "");
  return text;
}

function citationText(citation) {
  const present = (value) => value !== undefined && value !== null && String(value).trim() !== "";
  const parts = [citation.title, citation.section].filter(present).map(String);
  const text = parts.join(" — ") || "Untitled document";
  const where = [citation.file, present(citation.version) ? `v${citation.version}` : ""].filter(present);
  return { text, where: where.join(" · ") };
}

export function renderSources(data, container, helpers) {
  const citations = (Array.isArray(data.citations) ? data.citations : []).filter((c) => c && typeof c === "object");
  const documents = Array.isArray(data.documents) ? data.documents : [];
  if (citations.length) {
    const block = helpers.el("div", "sources citations");
    block.append(helpers.el("span", "sources-label", "Sources"));
    const list = helpers.el("ol", "citation-list");
    citations.forEach((citation, index) => {
      const { text, where } = citationText(citation);
      const item = helpers.el("li", "citation");
      // The section's text came with the answer: the citation opens it.
      const doc = documents[index];
      item.append(doc
        ? helpers.button(text, "citation-open", () => helpers.openDocument({ ...doc, title: text }), { title: `Open ${text}` })
        : helpers.el("span", "", text));
      if (where) item.append(helpers.el("span", "citation-where", where));
      list.append(item);
    });
    block.append(list);
    container.append(block);
  } else {
    const chips = helpers.documentChips(documents, data.sources);
    if (chips) container.append(chips);
  }
  const tools = Array.isArray(data.used_tools) ? data.used_tools : [];
  if (tools.length) container.append(helpers.renderTools(tools));
}
