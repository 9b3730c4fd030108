// The caller's past conversations with the current assistant (GET /conversations), in a side
// panel; picking one loads it (GET /conversations/{assistant}/{thread_id}).

import { getJson } from "./api.js";
import { button, el } from "./dom.js";

const panel = document.getElementById("history-panel");
const list = document.getElementById("history-list");
const empty = document.getElementById("history-empty");
const toggle = document.getElementById("history-toggle");
const close = document.getElementById("history-close");

let current = { assistant: null, threadId: null, onOpen: null };

function when(updatedAt) {
  const date = new Date(updatedAt);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function setPanelOpen(open) {
  panel.hidden = !open;
  toggle.setAttribute("aria-expanded", String(open));
  if (open) {
    refreshConversations();
    (list.querySelector("[aria-current=true]") || list.querySelector("button") || close).focus();
  }
}

// assistant: whose list; threadId: the one on screen; onOpen(threadId) loads one.
export function showConversationsOf(assistant, threadId, onOpen) {
  current = { assistant, threadId, onOpen };
  if (!panel.hidden) refreshConversations();
}

export async function refreshConversations() {
  const { assistant, onOpen } = current;
  if (!assistant) return;
  let conversations = [];
  try {
    const answer = await getJson(`/conversations?assistant=${encodeURIComponent(assistant)}`);
    if (answer.ok && answer.data) conversations = answer.data.conversations || [];
  } catch (err) {
    // Offline: an empty list says as much as an error would here.
  }
  if (assistant !== current.assistant) return; // another assistant picked meanwhile
  list.replaceChildren(...conversations.map((c) => {
    const item = el("li");
    const open = button("", "history-item", () => {
      if (window.matchMedia("(max-width: 900px)").matches) setPanelOpen(false);
      onOpen(c.thread_id);
    });
    open.append(el("span", "history-title", c.title || "Untitled conversation"),
      el("span", "history-when", when(c.updated_at)));
    if (c.thread_id === current.threadId) open.setAttribute("aria-current", "true");
    item.append(open);
    return item;
  }));
  empty.hidden = conversations.length > 0;
}

toggle.addEventListener("click", () => setPanelOpen(panel.hidden));
close.addEventListener("click", () => {
  setPanelOpen(false);
  toggle.focus();
});
panel.addEventListener("keydown", (event) => {
  if (event.key === "Escape") {
    setPanelOpen(false);
    toggle.focus();
  }
});
