// One message in the transcript: the bubble (an answer's markdown as DOM nodes), the progress
// line while it is on its way, what it used (drawn by the assistant's renderer) and, once
// done, its actions: copy, regenerate, thumbs up or down. A person's reply (the conversation
// was handed to a person) is labelled as such and has no actions: they are about the bot.

import { markCitations } from "./citations.js";
import { button, el } from "./dom.js";
import { feedbackControls } from "./feedback.js";
import { renderMarkdown } from "./markdown.js";

export const PERSON_LABEL = "Agent (person)";

const STATUS_NOTES = {
  stopped: "Stopped",
  interrupted: "Interrupted",
  queued: "Queued: sends when the current answer is finished",
};

// view: {avatar, renderSources(data, container), answerText(message),
//        actions: {copy, regenerate, feedback}, isLast(message)}
export function renderMessage(message, view) {
  const item = el("li", "message");
  item.dataset.role = message.role;
  const person = message.role === "assistant" && message.from === "person";
  if (person) item.dataset.from = "person";
  if (message.role === "assistant") item.append(el("div", "avatar", person ? "P" : view.avatar));
  const body = el("div", "message-body");
  if (person) body.append(el("p", "message-author", PERSON_LABEL));
  const bubble = el("div", "bubble");
  bubble.append(el("div", "bubble-text"));
  body.append(bubble);
  item.append(body);
  message.node = item;
  message.view = view;
  updateMessage(message);
  return item;
}

export function updateMessage(message) {
  const item = message.node;
  const view = message.view;
  if (!item || !view) return;
  const status = message.status || "done";
  item.dataset.status = status;
  const body = item.querySelector(".message-body");
  const bubble = item.querySelector(".bubble");
  const text = bubble.querySelector(".bubble-text");
  const answer = message.role === "assistant" && status !== "error";
  let shown = status === "error" ? message.error : message.text;
  if (answer && message.from !== "person") shown = view.answerText(message);
  const cited = answer && status === "done" ? message.data : null;
  if (text.frontdeskShown !== shown || text.frontdeskCited !== cited) {
    text.frontdeskShown = shown;
    text.frontdeskCited = cited;
    // Questions are shown as typed; answers are markdown, rendered to nodes (no HTML parsed).
    if (answer) renderMarkdown(text, shown);
    else text.textContent = shown || "";
    // Each sentence's sources, as marks after it, once the answer is whole.
    if (cited) markCitations(text, cited, view.openSource);
  }
  updateWaiting(message, bubble, status);
  updateNote(body, STATUS_NOTES[status]);
  updateSources(message, body, bubble, status);
  updateActions(message, body, status);
}

function updateWaiting(message, bubble, status) {
  const waiting = status === "streaming" && (!message.text || Boolean(message.checking));
  let typing = bubble.querySelector(".typing");
  if (waiting && !typing) {
    typing = el("span", "typing");
    typing.setAttribute("aria-label", "The assistant is typing");
    typing.append(el("span"), el("span"), el("span"));
    bubble.append(typing);
  } else if (!waiting && typing) typing.remove();
  // Hidden from screen readers (outside the live announcements): only answers are read out.
  const line = waiting && typeof message.progress === "string" ? message.progress : "";
  let progress = bubble.querySelector(".progress-status");
  if (line) {
    if (!progress) {
      progress = el("span", "progress-status");
      progress.setAttribute("aria-hidden", "true");
      bubble.append(progress);
    }
    if (progress.textContent !== line) progress.textContent = line;
  } else if (progress) progress.remove();
}

function updateNote(body, note) {
  let node = body.querySelector(".message-note");
  if (!note) {
    if (node) node.remove();
    return;
  }
  if (!node) {
    node = el("p", "message-note");
    body.append(node);
  }
  node.textContent = note;
}

// Drawn once per `sources` event, not on every later update: an opened SQL block stays open
// and a screen reader is not handed a table twice.
function updateSources(message, body, bubble, status) {
  const data = status === "error" ? null : message.data;
  let box = body.querySelector(".answer-sources");
  if (box && box.frontdeskData === data) return;
  if (box) box.remove();
  if (!data) return;
  box = el("div", "answer-sources");
  box.setAttribute("aria-live", "off"); // browsed, not read out as it arrives
  box.frontdeskData = data;
  message.view.renderSources(data, box);
  if (box.childNodes.length) bubble.after(box);
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (err) {
    // No clipboard API (a plain-http origin): the old way.
    const area = el("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

function updateActions(message, body, status) {
  const wanted = message.role === "assistant" && message.from !== "person"
    && ["done", "stopped", "interrupted", "error"].includes(status);
  const last = wanted && message.view.isLast(message);
  const key = wanted ? `${status}|${last}|${message.turn}` : "";
  let bar = body.querySelector(".message-actions");
  if (bar && bar.frontdeskKey === key) return;
  if (bar) bar.remove();
  for (const old of body.querySelectorAll(".feedback-form, .feedback-thanks")) old.remove();
  if (!wanted) return;
  const { actions } = message.view;
  bar = el("div", "message-actions");
  bar.frontdeskKey = key;
  if (status !== "error" && message.text) {
    const copy = button("Copy", "small-button", async () => {
      const ok = await copyText(message.text);
      copy.textContent = ok ? "Copied" : "Couldn't copy";
      setTimeout(() => { copy.textContent = "Copy"; }, 1500);
    }, { title: "Copy the answer" });
    bar.append(copy);
  }
  if (last && message.question) {
    bar.append(button("Regenerate", "small-button", () => actions.regenerate(message), {
      title: "Answer the last question again",
    }));
  }
  if (status !== "error" && message.text) {
    bar.append(feedbackControls(message, (rating, comment) => actions.feedback(message, rating, comment)));
  }
  if (bar.childNodes.length) body.append(bar);
}
