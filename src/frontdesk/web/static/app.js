// Frontdesk chat UI: POST /chat, read the SSE answer from the response body, render it.
// Plain browser JavaScript: no build step, no dependencies, no inline handlers (CSP).
// Several assistants may be served: a picker (from GET /assistants) chooses which answers;
// one that acts for a customer (info.takes_user_id) gets a Customer ID field.
"use strict";

(() => {
  const STORAGE_KEY = "frontdesk.chat.v1";
  // The picked assistant and the customer id outlive "New conversation", so a separate key.
  const PREFS_KEY = "frontdesk.prefs.v1";
  const DEFAULT_CUSTOMER_ID = "u123";
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
    pickerWrap: $("assistant-picker-wrap"),
    picker: $("assistant-picker"),
    customerRow: $("customer-row"),
    customerId: $("customer-id"),
    hintSource: $("hint-source"),
  };

  // threadId and messages survive a reload through localStorage.
  const state = {
    threadId: null,
    messages: [],
    streaming: false,
    controller: null,
    assistantName: "A",
    // The assistant answering (null: the server's default, e.g. before GET /assistants answers),
    // the one the saved conversation belongs to, and what GET /assistants listed.
    assistant: null,
    conversationAssistant: null,
    assistants: [],
    takesUserId: false,
    propertyRequest: 0,
  };

  // ---------- persistence ----------
  function loadConversation() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
      if (saved && Array.isArray(saved.messages)) {
        state.threadId = typeof saved.threadId === "string" ? saved.threadId : null;
        state.conversationAssistant = typeof saved.assistant === "string" ? saved.assistant : null;
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
        assistant: state.assistant,
        messages: state.messages.slice(-MAX_STORED_MESSAGES).map(
          ({ role, text, sources, citations, tools, status, error }) =>
            ({ role, text, sources, citations, tools, status, error })),
      }));
    } catch (err) {
      // Private mode or a full quota: the chat still works, it just will not survive a reload.
    }
  }

  function loadPrefs() {
    try {
      const prefs = JSON.parse(localStorage.getItem(PREFS_KEY) || "null") || {};
      return {
        assistant: typeof prefs.assistant === "string" ? prefs.assistant : null,
        customerId: typeof prefs.customerId === "string" ? prefs.customerId : DEFAULT_CUSTOMER_ID,
      };
    } catch (err) {
      return { assistant: null, customerId: DEFAULT_CUSTOMER_ID };
    }
  }

  function savePrefs() {
    try {
      localStorage.setItem(PREFS_KEY, JSON.stringify({
        assistant: state.assistant,
        customerId: ui.customerId.value,
      }));
    } catch (err) {
      // As above: preferences just will not survive a reload.
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

    const body = item.querySelector(".message-body");
    for (const node of body.querySelectorAll(".sources, .tools")) node.remove();
    const failed = message.status === "error";
    const citations = failed ? [] : asList(message.citations);
    const sources = failed ? [] : asList(message.sources);
    if (citations.length) body.append(renderCitations(citations));
    else if (sources.length) {
      const row = el("div", "sources");
      row.append(el("span", "sources-label", "Sources"));
      for (const source of sources) row.append(el("span", "source-chip", String(source)));
      body.append(row);
    }
    const tools = failed ? [] : asList(message.tools);
    if (tools.length) body.append(renderTools(tools));
  }

  function asList(value) {
    return Array.isArray(value) ? value : [];
  }

  function compactJson(value) {
    try {
      return JSON.stringify(value === undefined ? null : value);
    } catch (err) {
      return String(value);
    }
  }

  // "Router LED Indicators — Troubleshooting — 02_router_wifi.md (2.1)"
  function citationText(citation) {
    if (!citation || typeof citation !== "object") return String(citation);
    const present = (value) => value !== undefined && value !== null && String(value).trim() !== "";
    const parts = [citation.title, citation.section, citation.file].filter(present).map(String);
    const text = parts.join(" — ") || "Untitled document";
    return present(citation.version) ? `${text} (${citation.version})` : text;
  }

  function renderCitations(citations) {
    const block = el("div", "sources citations");
    block.append(el("span", "sources-label", "Sources"));
    const list = el("ol", "citation-list");
    for (const citation of citations) list.append(el("li", "citation", citationText(citation)));
    block.append(list);
    return block;
  }

  function renderTools(tools) {
    const block = el("div", "tools");
    block.append(el("span", "tools-label", "Tools used"));
    const list = el("ul", "tool-list");
    for (const tool of tools) {
      const ok = Boolean(tool && tool.ok);
      const item = el("li", "tool");
      item.dataset.ok = String(ok);
      const details = el("details");
      const summary = el("summary");
      summary.append(
        el("span", "tool-name", String((tool && tool.name) || "tool")),
        el("span", "tool-status", ok ? "ok" : "error"),
      );
      details.append(summary);
      const fields = el("dl", "tool-fields");
      const add = (label, value) => {
        const dd = el("dd");
        dd.append(el("code", "", value));
        fields.append(el("dt", "", label), dd);
      };
      add("args", compactJson(tool && tool.args !== undefined ? tool.args : {}));
      if (ok) add("output", compactJson(tool.output));
      else add("error", String((tool && tool.error) || "failed"));
      details.append(fields);
      item.append(details);
      list.append(item);
    }
    block.append(list);
    return block;
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
        // The concierge sends {sources}; telecom adds citations, used_tools and route.
        message.sources = asList(data.sources);
        message.citations = asList(data.citations);
        message.tools = asList(data.used_tools);
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
      if (state.assistant) payload.assistant = state.assistant;
      const customerId = ui.customerId.value.trim();
      if (state.takesUserId && customerId) payload.user_id = customerId;
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

  function newConversation({ focus = true } = {}) {
    if (state.controller) state.controller.abort();
    state.controller = null;
    state.threadId = null;
    state.messages = [];
    state.conversationAssistant = state.assistant;
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch (err) {
      // Storage unavailable: nothing was saved either.
    }
    renderAll();
    setBusy(false);
    ui.input.value = "";
    autoGrow();
    if (focus) ui.input.focus();
  }

  // ---------- header and welcome card from GET /property ----------
  function setStatus(kind, text) {
    ui.status.dataset.state = kind;
    ui.statusText.textContent = text;
  }

  function titleCase(text) {
    return String(text).replace(/[_-]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
  }

  function isConcierge() {
    return !state.assistant || state.assistant === "concierge";
  }

  function showCustomerField(takesUserId) {
    state.takesUserId = Boolean(takesUserId);
    ui.customerRow.hidden = !state.takesUserId;
  }

  function showProperty(info) {
    const name = info.name || "Frontdesk";
    ui.name.textContent = name;
    document.title = isConcierge() ? `${name} · Concierge` : `${name} · Frontdesk`;
    ui.location.textContent = info.location || "";
    state.assistantName = name.trim().charAt(0).toUpperCase() || "A";
    ui.mark.textContent = state.assistantName;
    for (const node of ui.messages.querySelectorAll(".avatar")) node.textContent = state.assistantName;
    showCustomerField(info.takes_user_id);
    if (isConcierge()) {
      ui.welcomeText.textContent = `I'm the virtual concierge for ${name}. Ask me anything, or start with a topic:`;
      ui.hintSource.textContent = "Answers come from the property's own information.";
    } else {
      ui.welcomeText.textContent = `I'm the ${name} assistant. Ask me anything, or start with a topic:`;
      ui.hintSource.textContent = "Answers come from the assistant's own documentation.";
    }
    const categories = Array.isArray(info.categories) ? info.categories.slice(0, 8) : [];
    ui.suggestions.replaceChildren(...categories.map((category) => {
      const button = el("button", "suggestion", titleCase(category));
      button.type = "button";
      button.addEventListener("click", () => sendMessage(`What can you tell me about ${titleCase(category).toLowerCase()}?`));
      return button;
    }));
  }

  async function loadProperty(attempt = 0) {
    // A newer request (another assistant picked) makes this one's answer and retries moot.
    const request = ++state.propertyRequest;
    try {
      if (!state.assistants.length) await loadAssistants();
      if (request !== state.propertyRequest) return;
      const query = state.assistant ? `?assistant=${encodeURIComponent(state.assistant)}` : "";
      const response = await fetch(`/property${query}`, { headers: { Accept: "application/json" } });
      if (request !== state.propertyRequest) return;
      if (response.ok) {
        showProperty(await response.json());
        setStatus("online", "Online");
        return;
      }
      setStatus("connecting", response.status === 503 ? "Starting up…" : "Unavailable");
    } catch (err) {
      if (request !== state.propertyRequest) return;
      setStatus("offline", "Offline");
    }
    // The server may still be loading its models: keep asking, less and less often.
    setTimeout(() => {
      if (request === state.propertyRequest) loadProperty(attempt + 1);
    }, Math.min(30000, 2000 * 2 ** attempt));
  }

  // ---------- the assistant picker, from GET /assistants ----------
  async function loadAssistants() {
    let body;
    try {
      const response = await fetch("/assistants", { headers: { Accept: "application/json" } });
      if (!response.ok) return;
      body = await response.json();
    } catch (err) {
      return; // loadProperty reports the server as offline and tries again
    }
    const listed = asList(body && body.assistants).filter((a) => a && typeof a.name === "string");
    if (!listed.length) return;
    state.assistants = listed;
    const names = listed.map((a) => a.name);
    const wanted = state.conversationAssistant || loadPrefs().assistant;
    const fallback = names.includes(body.default) ? body.default : names[0];
    const picked = names.includes(wanted) ? wanted : fallback;
    // A saved conversation with an assistant no longer served (or none recorded but not the
    // default) cannot continue: start afresh.
    const owner = state.conversationAssistant || body.default;
    state.assistant = picked;
    if (state.messages.length && owner !== picked) newConversation({ focus: false });
    state.conversationAssistant = picked;
    ui.picker.replaceChildren(...listed.map((a) => {
      const info = a.info || {};
      const option = el("option", "", titleCase(a.name));
      option.value = a.name;
      if (info.name) option.title = info.name;
      return option;
    }));
    ui.picker.value = picked;
    ui.pickerWrap.hidden = listed.length < 2;
    showCustomerField(infoOf(picked).takes_user_id);
    savePrefs();
  }

  function infoOf(name) {
    const entry = state.assistants.find((a) => a.name === name);
    return (entry && entry.info) || {};
  }

  function switchAssistant(name) {
    if (!name || name === state.assistant) return;
    state.assistant = name;
    savePrefs();
    newConversation();
    showCustomerField(infoOf(name).takes_user_id);
    const info = infoOf(name);
    if (info.name) showProperty(info);
    setStatus("connecting", "Connecting…");
    loadProperty();
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
  ui.newConversation.addEventListener("click", () => newConversation());
  ui.picker.addEventListener("change", () => switchAssistant(ui.picker.value));
  ui.customerId.addEventListener("change", savePrefs);

  ui.customerId.value = loadPrefs().customerId;
  loadConversation();
  renderAll();
  setBusy(false);
  loadProperty();
  // On touch screens focusing would pop up the keyboard over the welcome card.
  if (!window.matchMedia("(pointer: coarse)").matches) ui.input.focus();
})();
