// Frontdesk chat UI: POST /chat, read the SSE answer from the response body, render it.
// Plain browser JavaScript: no build step, no dependencies, no inline handlers (CSP).
"use strict";

(() => {
  const STORAGE_KEY = "frontdesk.chat.v1";
  const MAX_STORED_MESSAGES = 200;
  const MAX_MESSAGE_CHARS = 4096;

  const $ = (id) => document.getElementById(id);
  const ui = {
    name: $("property-name"),
    location: $("property-location"),
    mark: $("brand-mark"),
    status: $("status"),
    statusText: $("status-text"),
    newConversation: $("new-conversation"),
    transcript: $("transcript"),
    welcome: $("welcome"),
    welcomeText: $("welcome-text"),
    suggestions: $("suggestions"),
    messages: $("messages"),
    form: $("composer"),
    input: $("message-input"),
    send: $("send-button"),
  };

  // threadId and messages survive a reload through localStorage.
  const state = { threadId: null, messages: [], streaming: false, controller: null, assistantName: "A" };

  // ---------- persistence ----------
  function loadConversation() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
      if (saved && Array.isArray(saved.messages)) {
        state.threadId = typeof saved.threadId === "string" ? saved.threadId : null;
        state.messages = saved.messages
          .filter((m) => m && (m.role === "user" || m.role === "assistant") && typeof m.text === "string")
          // An answer cut off by a reload is kept, but no longer shown as streaming.
          .map((m) => ({ ...m, status: m.status === "streaming" ? "interrupted" : m.status }));
      }
    } catch (err) {
      localStorage.removeItem(STORAGE_KEY);
    }
  }

  function saveConversation() {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify({
        threadId: state.threadId,
        messages: state.messages.slice(-MAX_STORED_MESSAGES).map(({ role, text, sources, status, error }) =>
          ({ role, text, sources, status, error })),
      }));
    } catch (err) {
      // Private mode or a full quota: the chat still works, it just will not survive a reload.
    }
  }

  // ---------- rendering ----------
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function isNearBottom() {
    const t = ui.transcript;
    return t.scrollHeight - t.scrollTop - t.clientHeight < 80;
  }

  function scrollToBottom() {
    ui.transcript.scrollTop = ui.transcript.scrollHeight;
  }

  function renderMessage(message) {
    const item = el("li", "message");
    item.dataset.role = message.role;
    if (message.role === "assistant") item.append(el("div", "avatar", state.assistantName));
    const body = el("div", "message-body");
    const bubble = el("div", "bubble");
    bubble.append(el("span", "bubble-text"));
    body.append(bubble);
    item.append(body);
    message.node = item;
    updateMessage(message);
    return item;
  }

  function updateMessage(message) {
    const item = message.node;
    if (!item) return;
    item.dataset.status = message.status || "done";
    const bubble = item.querySelector(".bubble");
    const text = bubble.querySelector(".bubble-text");
    text.textContent = message.status === "error" ? message.error : message.text;

    const waiting = message.status === "streaming" && !message.text;
    let typing = bubble.querySelector(".typing");
    if (waiting && !typing) {
      typing = el("span", "typing");
      typing.setAttribute("aria-label", "The assistant is typing");
      typing.append(el("span"), el("span"), el("span"));
      bubble.append(typing);
    } else if (!waiting && typing) {
      typing.remove();
    }

    item.querySelector(".sources")?.remove();
    const sources = message.status === "error" ? [] : message.sources || [];
    if (sources.length) {
      const row = el("div", "sources");
      row.append(el("span", "sources-label", "Sources"));
      for (const source of sources) row.append(el("span", "source-chip", String(source)));
      item.querySelector(".message-body").append(row);
    }
  }

  function renderAll() {
    ui.messages.replaceChildren(...state.messages.map(renderMessage));
    ui.welcome.hidden = state.messages.length > 0;
    scrollToBottom();
  }

  function setBusy(busy) {
    state.streaming = busy;
    ui.input.disabled = busy;
    ui.form.setAttribute("aria-busy", String(busy));
    refreshSendButton();
  }

  function refreshSendButton() {
    ui.send.disabled = state.streaming || !ui.input.value.trim();
  }

  function autoGrow() {
    ui.input.style.height = "auto";
    ui.input.style.height = `${Math.min(ui.input.scrollHeight, 160)}px`;
  }

  // ---------- SSE parsing (the subset of the spec a POST stream needs) ----------
  function createSseParser(onEvent) {
    let buffer = "";
    let eventName = "";
    let dataLines = [];

    function dispatch() {
      if (dataLines.length) onEvent(eventName || "message", dataLines.join("\n"));
      eventName = "";
      dataLines = [];
    }

    function handleLine(line) {
      if (line === "") return dispatch();
      if (line.startsWith(":")) return; // comment, e.g. the server's keep-alive ping
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "event") eventName = value;
      else if (field === "data") dataLines.push(value);
    }

    return {
      push(text) {
        buffer += text;
        const lineEnd = /\r\n|\r|\n/g;
        let start = 0;
        let match;
        while ((match = lineEnd.exec(buffer)) !== null) {
          // A trailing "\r" may be the first half of "\r\n": wait for the next chunk.
          if (match[0] === "\r" && match.index === buffer.length - 1) break;
          handleLine(buffer.slice(start, match.index));
          start = lineEnd.lastIndex;
        }
        buffer = buffer.slice(start);
      },
      end() {
        if (buffer) handleLine(buffer.replace(/\r$/, ""));
        buffer = "";
        dispatch();
      },
    };
  }

  // ---------- talking to the server ----------
  function politeError(status, body, retryAfter) {
    if (status === 429) {
      const wait = Number(retryAfter || (body && body.retry_after_s)) || 30;
      return `You're sending messages a little quickly. Please wait ${wait} seconds and try again.`;
    }
    if (status === 503) return "The assistant is still getting ready. Please try again in a moment.";
    if (status === 404) return "This assistant isn't available right now.";
    if (status === 422 && body && body.error) return `That message couldn't be sent. ${body.error}`;
    return "Sorry, something went wrong on our side. Please try again.";
  }

  function applyEvent(message, name, rawData) {
    let data;
    try {
      data = JSON.parse(rawData);
    } catch (err) {
      return;
    }
    switch (name) {
      case "metadata":
        if (data.thread_id) state.threadId = data.thread_id;
        saveConversation();
        break;
      case "token":
        message.text += data.content || "";
        break;
      case "replace":
        message.text = data.content || "";
        break;
      case "sources":
        message.sources = Array.isArray(data.sources) ? data.sources : [];
        break;
      case "done":
        // A service may send `done` after its own `error`; the error stays on screen.
        if (message.status === "streaming") message.status = "done";
        break;
      case "error":
        message.status = "error";
        message.error = data.error || "Sorry, something went wrong. Please try again.";
        break;
      default:
        return;
    }
    const stick = isNearBottom();
    updateMessage(message);
    if (stick) scrollToBottom();
  }

  async function sendMessage(text) {
    const question = text.trim();
    if (!question || state.streaming) return;
    if (question.length > MAX_MESSAGE_CHARS) return;

    const user = { role: "user", text: question, status: "done" };
    const answer = { role: "assistant", text: "", sources: [], status: "streaming" };
    state.messages.push(user, answer);
    ui.welcome.hidden = true;
    ui.messages.append(renderMessage(user), renderMessage(answer));
    scrollToBottom();
    ui.input.value = "";
    autoGrow();
    setBusy(true);
    saveConversation();

    const controller = new AbortController();
    state.controller = controller;
    try {
      const payload = { message: question };
      if (state.threadId) payload.thread_id = state.threadId;
      const response = await fetch("/chat", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify(payload),
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const body = await response.json().catch(() => null);
        answer.status = "error";
        answer.error = politeError(response.status, body, response.headers.get("Retry-After"));
        // Refused before any answer: give the question back so it can be sent again.
        if (!ui.input.value) ui.input.value = question;
      } else {
        const parser = createSseParser((name, data) => applyEvent(answer, name, data));
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.push(decoder.decode(value, { stream: true }));
        }
        parser.push(decoder.decode());
        parser.end();
        if (answer.status === "streaming") {
          // The stream ended without `done`: keep what arrived, say so if nothing did.
          if (answer.text) answer.status = "done";
          else {
            answer.status = "error";
            answer.error = "The answer was cut off. Please try again.";
          }
        }
      }
    } catch (err) {
      if (controller.signal.aborted) return; // "New conversation" cancelled this turn
      answer.status = "error";
      answer.error = "Couldn't reach the assistant. Check your connection and try again.";
      if (!ui.input.value) ui.input.value = question;
    } finally {
      if (state.controller === controller) {
        state.controller = null;
        updateMessage(answer);
        saveConversation();
        setBusy(false);
        autoGrow();
        ui.input.focus();
      }
    }
  }

  function newConversation() {
    if (state.controller) state.controller.abort();
    state.controller = null;
    state.threadId = null;
    state.messages = [];
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch (err) {
      // Storage unavailable: nothing was saved either.
    }
    renderAll();
    setBusy(false);
    ui.input.value = "";
    autoGrow();
    ui.input.focus();
  }

  // ---------- header and welcome card from GET /property ----------
  function setStatus(kind, text) {
    ui.status.dataset.state = kind;
    ui.statusText.textContent = text;
  }

  function titleCase(text) {
    return String(text).replace(/[_-]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
  }

  function showProperty(info) {
    const name = info.name || "Frontdesk";
    ui.name.textContent = name;
    document.title = `${name} · Concierge`;
    ui.location.textContent = info.location || "";
    state.assistantName = name.trim().charAt(0).toUpperCase() || "A";
    ui.mark.textContent = state.assistantName;
    for (const node of ui.messages.querySelectorAll(".avatar")) node.textContent = state.assistantName;
    ui.welcomeText.textContent = `I'm the virtual concierge for ${name}. Ask me anything, or start with a topic:`;
    const categories = Array.isArray(info.categories) ? info.categories.slice(0, 8) : [];
    ui.suggestions.replaceChildren(...categories.map((category) => {
      const button = el("button", "suggestion", titleCase(category));
      button.type = "button";
      button.addEventListener("click", () => sendMessage(`What can you tell me about ${titleCase(category).toLowerCase()}?`));
      return button;
    }));
  }

  async function loadProperty(attempt = 0) {
    try {
      const response = await fetch("/property", { headers: { Accept: "application/json" } });
      if (response.ok) {
        showProperty(await response.json());
        setStatus("online", "Online");
        return;
      }
      setStatus("connecting", response.status === 503 ? "Starting up…" : "Unavailable");
    } catch (err) {
      setStatus("offline", "Offline");
    }
    // The server may still be loading its models: keep asking, less and less often.
    setTimeout(() => loadProperty(attempt + 1), Math.min(30000, 2000 * 2 ** attempt));
  }

  // ---------- wiring ----------
  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    sendMessage(ui.input.value);
  });
  ui.input.addEventListener("keydown", (event) => {
    // Enter sends; Shift+Enter adds a line; never interrupt an IME composition.
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      sendMessage(ui.input.value);
    }
  });
  ui.input.addEventListener("input", () => {
    autoGrow();
    refreshSendButton();
  });
  ui.newConversation.addEventListener("click", newConversation);

  loadConversation();
  renderAll();
  setBusy(false);
  loadProperty();
  // On touch screens focusing would pop up the keyboard over the welcome card.
  if (!window.matchMedia("(pointer: coarse)").matches) ui.input.focus();
})();
