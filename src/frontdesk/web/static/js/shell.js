// The chat shell: one page for every assistant. It lists them (GET /assistants), keeps one
// conversation per assistant (switching back restores it), runs the turns (chat.js), and
// hands what differs between assistants to each one's own module (renderers.js). It never
// names an assistant: a test checks this file and its neighbours for their names.

import { getJson, postJson } from "./api.js";
import { createTurns } from "./chat.js";
import { refreshConversations, showConversationsOf } from "./conversations.js";
import { markCitations } from "./citations.js";
import { asList, button, compactJson, el, humanize } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { renderMessage, updateMessage } from "./messages.js";
import { genericProgressText } from "./progress.js";
import {
  genericSources, genericTopicChips, genericWelcome, rendererFor, topicName,
} from "./renderers.js";
import { showScope } from "./scope.js";
import { loadSession, showSignIn, signInSettled } from "./session.js";
import { documentChips, openDocument, renderTools } from "./sources.js";
import { loadChats, loadPrefs, saveChats, savePrefs } from "./store.js";

const MAX_MESSAGE_CHARS = 4096;
const $ = (id) => document.getElementById(id);
const ui = {
  name: $("property-name"), location: $("property-location"), mark: $("brand-mark"),
  status: $("status"), statusText: $("status-text"), newConversation: $("new-conversation"),
  transcript: $("transcript"), welcome: $("welcome"), welcomeTitle: $("welcome-title"),
  welcomeText: $("welcome-text"), suggestions: $("suggestions"), messages: $("messages"),
  form: $("composer"), input: $("message-input"), send: $("send-button"), stop: $("stop-button"),
  pickerWrap: $("assistant-picker-wrap"), picker: $("assistant-picker"), hintSource: $("hint-source"),
};

const state = {
  assistants: [], // GET /assistants, in display order
  current: null, // the name of the assistant on screen
  renderers: {}, // name -> its module (or {})
  chats: loadChats(), // name -> {threadId, messages}
};

const assistantOf = (name) => state.assistants.find((a) => a.name === name) || { name, topics: {} };
const rendererOf = (name) => state.renderers[name] || {};

function chatOf(name) {
  if (!state.chats[name]) state.chats[name] = { threadId: null, messages: [] };
  return state.chats[name];
}

function helpersFor(name) {
  return {
    el, button, renderMarkdown, compactJson, humanize, documentChips, openDocument, renderTools,
    markCitations, topicName: (route) => topicName(assistantOf(name), route),
  };
}

// ---------- the transcript ----------
function isNearBottom() {
  const t = ui.transcript;
  return t.scrollHeight - t.scrollTop - t.clientHeight < 80;
}

function scrollToBottom() {
  ui.transcript.scrollTop = ui.transcript.scrollHeight;
}

function viewFor(name) {
  const renderer = rendererOf(name);
  const helpers = helpersFor(name);
  return {
    avatar: ui.mark.textContent,
    renderSources(data, box) {
      if (typeof renderer.renderSources === "function") renderer.renderSources(data, box, helpers);
      else genericSources(data, box, helpers);
    },
    openSource: typeof renderer.openSource === "function"
      ? (doc, options) => renderer.openSource(doc, options, helpers)
      : openDocument,
    answerText(message) {
      if (typeof renderer.answerText !== "function") return message.text;
      return renderer.answerText(message.text, { status: message.status, data: message.data });
    },
    isLast: (message) => {
      const messages = chatOf(name).messages;
      return messages[messages.length - 1] === message && !turns.busy;
    },
    actions: {
      regenerate: (message) => turns.regenerate(name, message),
      feedback: (message, rating, comment) => sendFeedback(name, message, rating, comment),
    },
  };
}

function renderTranscript() {
  const view = viewFor(state.current);
  const messages = state.current ? chatOf(state.current).messages : [];
  ui.messages.replaceChildren(...messages.map((m) => renderMessage(m, view)));
  ui.welcome.hidden = messages.length > 0;
  scrollToBottom();
}

// A turn changed `message` (null: the list itself changed) in `name`'s conversation.
function changed(name, message) {
  const streaming = message && message.status === "streaming";
  if (!streaming || message.text === "") saveChats(state.chats);
  if (name !== state.current) return;
  const stick = isNearBottom();
  if (message && message.node && message.node.isConnected) {
    updateMessage(message);
    // Regenerate belongs to the last answer only: refresh the one before too.
    for (const m of chatOf(name).messages) if (m !== message && m.node) updateMessage(m);
  } else renderTranscript();
  if (stick) scrollToBottom();
}

function turnIndexOf(name, message) {
  if (Number.isInteger(message.turn)) return message.turn;
  return chatOf(name).messages.filter((m) => m.role === "assistant").indexOf(message);
}

async function sendFeedback(name, message, rating, comment) {
  const body = { assistant: name, thread_id: chatOf(name).threadId, turn: turnIndexOf(name, message), rating };
  if (comment) body.comment = comment.slice(0, 1000);
  const answer = await postJson("/feedback", body).catch(() => null);
  return Boolean(answer && answer.ok);
}

// ---------- turns ----------
const turns = createTurns({
  chatOf,
  changed,
  progressText(name, data, message) {
    const renderer = rendererOf(name);
    const own = typeof renderer.progressText === "function" ? renderer.progressText(data, message) : null;
    return own || genericProgressText(data, message, (route) => topicName(assistantOf(name), route));
  },
  busyChanged(busy) {
    ui.stop.hidden = !busy;
    ui.form.setAttribute("aria-busy", String(busy));
    if (busy) return;
    if (document.activeElement === document.body) ui.input.focus();
    // A finished turn may have started a conversation or retitled one: the list follows.
    if (state.current) showConversationsOf(state.current, chatOf(state.current).threadId, openConversation);
    if (state.current) catchUpWithPeople(state.current);
  },
  giveBack(text) {
    // Refused before any answer: the question comes back so it can be sent again.
    if (!ui.input.value) {
      ui.input.value = text;
      refreshSendButton();
    }
  },
});

async function send(text) {
  const question = text.trim();
  if (!question || question.length > MAX_MESSAGE_CHARS || !state.current) return;
  ui.input.value = "";
  autoGrow();
  refreshSendButton();
  // Sent just after picking who is signed in: it belongs to the new person's conversation.
  await signInSettled();
  ui.welcome.hidden = true;
  turns.ask(state.current, question);
}

function refreshSendButton() {
  ui.send.disabled = !ui.input.value.trim();
}

function autoGrow() {
  ui.input.style.height = "auto";
  ui.input.style.height = `${Math.min(ui.input.scrollHeight, 160)}px`;
}

function newConversation({ focus = true } = {}) {
  if (!state.current) return;
  turns.dropAssistant(state.current);
  state.chats[state.current] = { threadId: null, messages: [] };
  saveChats(state.chats);
  renderTranscript();
  showConversationsOf(state.current, null, openConversation);
  if (focus) ui.input.focus();
}

function fetchConversation(name, threadId) {
  return getJson(`/conversations/${encodeURIComponent(name)}/${encodeURIComponent(threadId)}`)
    .catch(() => null);
}

// The server's history as this page's messages (a person's reply keeps its mark).
function messagesOf(listed) {
  let question = null;
  let turn = 0;
  return asList(listed).flatMap((m) => {
    const text = String((m && m.content) || "");
    if (m.role === "user" && m.answered === false) {
      // The server stopped mid-turn: the question stays, with a way to ask it again.
      return [
        { role: "user", text, status: "done" },
        { role: "assistant", text: "", status: "error", question: text, turn,
          error: "Not answered: the assistant stopped before it could answer. Regenerate to ask again." },
      ];
    }
    if (m.role === "user") {
      question = text;
      return [{ role: "user", text, status: "done" }];
    }
    const message = { role: "assistant", text, status: "done", question, turn: m.turn ?? turn++ };
    if (m.from === "person") message.from = "person";
    return [message];
  });
}

async function openConversation(threadId) {
  const name = state.current;
  const answer = await fetchConversation(name, threadId);
  if (!answer || !answer.ok || !answer.data || name !== state.current) return;
  turns.dropAssistant(name);
  state.chats[name] = { threadId, messages: messagesOf(answer.data.messages) };
  saveChats(state.chats);
  renderTranscript();
  showConversationsOf(name, threadId, openConversation);
  refreshConversations();
}

// A person answers a conversation handed to them between the customer's turns, and nothing
// pushes it here: on load and after each turn of a conversation that was handed over (an
// answer's sources carry its ticket_id), when the server holds more of a person's replies
// than this copy, the server's history replaces it (answers' sources drop out then).
async function catchUpWithPeople(name) {
  const chat = chatOf(name);
  const handedOver = chat.messages.some((m) => m.data && m.data.ticket_id != null);
  if (!chat.threadId || turns.busy || !handedOver) return;
  const answer = await fetchConversation(name, chat.threadId);
  if (!answer || !answer.ok || !answer.data || turns.busy || chatOf(name) !== chat) return;
  const fresh = messagesOf(answer.data.messages);
  const people = (messages) => messages.filter((m) => m.from === "person").length;
  if (people(fresh) <= people(chat.messages)) return;
  state.chats[name] = { threadId: chat.threadId, messages: fresh };
  saveChats(state.chats);
  if (name === state.current) renderTranscript();
}

// ---------- the assistant on screen ----------
function setStatus(kind, text) {
  ui.status.dataset.state = kind;
  ui.statusText.textContent = text;
}

function showHeader(assistant) {
  const info = assistant.info || {};
  const name = info.name || assistant.title || humanize(assistant.name);
  ui.name.textContent = name;
  document.title = assistant.title && assistant.title !== name ? `${name} · ${assistant.title}` : `${name} · Frontdesk`;
  ui.location.textContent = info.location || "";
  ui.mark.textContent = name.trim().charAt(0).toUpperCase() || "A";
}

function showWelcome(assistant, renderer) {
  const own = typeof renderer.welcome === "function" ? renderer.welcome(assistant) || {} : {};
  const texts = { ...genericWelcome(assistant), ...own };
  ui.welcomeTitle.textContent = texts.title;
  ui.welcomeText.textContent = texts.text;
  // A renderer may add one link of this server's (a page of its own, such as a simulator).
  const link = own.link;
  if (link && typeof link.href === "string" && link.href.startsWith("/") && !link.href.startsWith("//")) {
    const anchor = document.createElement("a");
    anchor.href = link.href;
    anchor.textContent = String(link.label || link.href);
    ui.welcomeText.append(" ", anchor);
  }
  ui.hintSource.textContent = texts.hint;
  const chips = typeof renderer.topicChips === "function"
    ? asList(renderer.topicChips(assistant)) : genericTopicChips(assistant);
  ui.suggestions.replaceChildren(...chips.slice(0, 8).map(({ label, prompt }) =>
    button(label, "suggestion", () => send(prompt || label))));
}

async function showAssistant(name) {
  state.current = name;
  savePrefs({ assistant: name });
  const assistant = assistantOf(name);
  state.renderers[name] = await rendererFor(assistant);
  if (state.current !== name) return; // another one picked while its module loaded
  const renderer = rendererOf(name);
  ui.picker.value = name;
  showHeader(assistant);
  showWelcome(assistant, renderer);
  showSignIn(assistant, renderer.signInLabel, () => newConversation({ focus: false }));
  showScope(assistant, renderer);
  showConversationsOf(name, chatOf(name).threadId, openConversation);
  renderTranscript();
  catchUpWithPeople(name);
  setStatus(assistant.ready === false ? "connecting" : "online", assistant.ready === false ? "Starting up…" : "Online");
}

async function loadAssistants(attempt = 0) {
  let body = null;
  try {
    await loadSession();
    const answer = await getJson("/assistants");
    if (answer.ok) body = answer.data;
    else setStatus("connecting", answer.status === 503 ? "Starting up…" : "Unavailable");
  } catch (err) {
    setStatus("offline", "Offline");
  }
  const listed = asList(body && body.assistants).filter((a) => a && typeof a.name === "string");
  if (listed.length) {
    state.assistants = listed;
    const names = listed.map((a) => a.name);
    ui.picker.replaceChildren(...listed.map((a) => {
      // A service without a plug-in is titled by its bare name: its own name reads better.
      const titled = a.title && a.title !== a.name;
      const option = el("option", "", titled ? a.title : (a.info && a.info.name) || humanize(a.name));
      option.value = a.name;
      return option;
    }));
    ui.pickerWrap.hidden = listed.length < 2;
    const wanted = state.current || loadPrefs().assistant;
    const fallback = names.includes(body.default) ? body.default : names[0];
    await showAssistant(names.includes(wanted) ? wanted : fallback);
    if (listed.every((a) => a.ready !== false)) return;
  }
  // The server may still be loading its models: keep asking, less and less often.
  setTimeout(() => loadAssistants(attempt + 1), Math.min(30000, 2000 * 2 ** attempt));
}

// ---------- wiring ----------
ui.form.addEventListener("submit", (event) => {
  event.preventDefault();
  send(ui.input.value);
});
ui.input.addEventListener("keydown", (event) => {
  // Enter sends (or queues, while an answer is on its way); Shift+Enter adds a line; never
  // interrupt an IME composition.
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    send(ui.input.value);
  }
});
ui.input.addEventListener("input", () => {
  autoGrow();
  refreshSendButton();
});
ui.stop.addEventListener("click", () => {
  turns.stop();
  ui.input.focus();
});
ui.newConversation.addEventListener("click", () => newConversation());
ui.picker.addEventListener("change", () => showAssistant(ui.picker.value));

refreshSendButton();
loadAssistants();
// On touch screens focusing would pop up the keyboard over the welcome card.
if (!window.matchMedia("(pointer: coarse)").matches) ui.input.focus();
