// Per-assistant renderers: each assistant's plug-in may ship a native ES module (its `ui` in
// GET /assistants), imported here. The shell never names an assistant; whatever differs
// between them lives in their modules. Every export is optional; a missing one (or a module
// that fails to load) falls back to the shell's generic rendering below.
//
// The interface (`assistant` is the GET /assistants entry: {name, title, description,
// topics: {route: human name}, ui, signs_in, ready, info}):
//
//   export function welcome(assistant) -> {title?, text?, hint?, link?: {label, href}}
//       The welcome card's heading and line, and the hint under the composer; `link`, a page
//       of this server ("/…"), is shown after the line.
//   export function topicChips(assistant) -> [{label, prompt}]
//       Suggestion chips: the label a person reads, the question a click sends.
//   export function progressText(data, message) -> string | null
//       The status line for a `progress` event (null: the shell's own text).
//   export function renderSources(data, container, helpers)
//       Draws a `sources` event under the answer, into an empty `container`.
//       helpers: {el, button, renderMarkdown, compactJson, humanize, topicName(route),
//                 documentChips(documents, names), openDocument(doc), renderTools(tools),
//                 markCitations(textRoot, data): the claims' numbered marks in a text the
//                 renderer drew itself (the shell marks its own answer bubble)}
//   export function openSource(doc, {highlight}, helpers)
//       Opens the document a citation mark points at (`highlight`: the claim's quote), for
//       documents the shell's dialog shows poorly: code, with its cited lines marked.
//   export function answerText(text, message) -> string
//       The answer as its bubble shows it (message: {status, data}: data is the `sources`
//       event), e.g. without a part that renderSources draws anyway. Copy and the API keep
//       the full text.
//   export function scopes(assistant) -> {label, options: [{value, label}], initial, note} | null
//       The collections a question may be about (a code assistant's repositories): a picker
//       beside the composer; the choice goes with each question as POST /chat `scope`.
//   export const signInLabel = "Customer"
//       How the sign-in picker is labelled, for assistants that sign in (`signs_in`).

import { asList, button, el } from "./dom.js";
import { documentChips } from "./sources.js";

const loaded = new Map();

// The module for `assistant` (an empty one when it has none or it fails to load).
export function rendererFor(assistant) {
  const url = assistant && assistant.ui;
  if (!url) return Promise.resolve({});
  if (!loaded.has(url)) {
    loaded.set(url, import(url).catch((err) => {
      console.warn(`the UI module ${url} did not load; using the generic rendering`, err);
      return {};
    }));
  }
  return loaded.get(url);
}

function titleCase(text) {
  return String(text).replace(/[_-]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

// A route or category as a person names it: the plug-in's topics, else the name tidied up.
export function topicName(assistant, route) {
  const topics = (assistant && assistant.topics) || {};
  return topics[route] || titleCase(route);
}

export function genericWelcome(assistant) {
  const info = (assistant && assistant.info) || {};
  const name = info.name || (assistant && assistant.title) || "assistant";
  return {
    title: "How can I help you today?",
    text: assistant && assistant.description
      ? `${assistant.description} Ask me anything, or start with a topic:`
      : `I'm the ${name} assistant. Ask me anything, or start with a topic:`,
    hint: "Answers come from the assistant's own information.",
  };
}

export function genericTopicChips(assistant) {
  const info = (assistant && assistant.info) || {};
  return asList(info.categories).slice(0, 8).map((category) => {
    const label = topicName(assistant, category);
    return { label, prompt: `What can you tell me about ${label.toLowerCase()}?` };
  });
}

export function genericSources(data, container, helpers) {
  // Named documents open; bare names (older services) are just shown.
  const names = asList(data.items).length ? data.items : data.sources;
  const chips = helpers.documentChips(data.documents, names);
  if (chips) container.append(chips);
  const tools = asList(data.used_tools);
  if (tools.length) container.append(helpers.renderTools(tools));
}

export { button, el };
