// Frontdesk chat UI: POST /chat, read the SSE answer from the response body, render it.
// Plain browser JavaScript: no build step, no dependencies, no inline handlers (CSP).
// Several assistants may be served: a picker (from GET /assistants) chooses which answers;
// one that acts for a customer (info.takes_user_id) gets a Customer ID field.
// While an answer is on its way, `progress` events (route chosen, tool or step started) show as
// a status line in the pending bubble; a data analyst's `sources` may carry the SQL that ran and
// its rows, shown under the answer as a folded SQL block and a table.
"use strict";

(() => {
  const STORAGE_KEY = "frontdesk.chat.v1";
  // The picked assistant and the customer id outlive "New conversation", so a separate key.
  const PREFS_KEY = "frontdesk.prefs.v1";
  const DEFAULT_CUSTOMER_ID = "u123";
  const MAX_STORED_MESSAGES = 200;
  const MAX_MESSAGE_CHARS = 4096;
  // At most this many result rows are kept and drawn per answer (the server's own cap too).
  const MAX_TABLE_ROWS = 100;
  // If localStorage is full, the conversation is saved again keeping only this many of the
  // most recent result tables (their SQL always stays), and then none.
  const STORED_TABLE_FALLBACKS = [Infinity, 5, 0];
  // A cell with more text than this wraps instead of widening the table.
  const LONG_CELL_CHARS = 48;

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

  function storedMessages(keepTables) {
    let tables = 0;
    return state.messages.slice(-MAX_STORED_MESSAGES).reverse().map(
      ({ role, text, sources, citations, tools, status, error, sql, columns, rows, truncated }) => {
        const stored = { role, text, sources, citations, tools, status, error, sql };
        if (Array.isArray(columns) && columns.length && tables++ < keepTables) {
          Object.assign(stored, { columns, rows, truncated });
        }
        return stored;
      }).reverse();
  }

  function saveConversation() {
    for (const keepTables of STORED_TABLE_FALLBACKS) {
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify({
          threadId: state.threadId,
          assistant: state.assistant,
          messages: storedMessages(keepTables),
        }));
        return;
      } catch (err) {
        // A full quota: try again with fewer result tables. Private mode: the chat still
        // works, it just will not survive a reload.
      }
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

    // "Running the query…" next to the dots until the first token. Hidden from screen readers
    // (and outside the live announcements): only the answer itself is read out.
    const statusLine = waiting && typeof message.progress === "string" ? message.progress : "";
    let progress = bubble.querySelector(".progress-status");
    if (statusLine) {
      if (!progress) {
        progress = el("span", "progress-status");
        progress.setAttribute("aria-hidden", "true");
        bubble.append(progress);
      }
      if (progress.textContent !== statusLine) progress.textContent = statusLine;
    } else if (progress) {
      progress.remove();
    }

    const body = item.querySelector(".message-body");
    for (const node of body.querySelectorAll(".sources, .tools")) node.remove();
    const failed = message.status === "error";
    updateQueryResult(message, body, bubble, failed);
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

  // ---------- a data analyst's query: the SQL that ran and its rows ----------
  function queryOf(message) {
    const sql = typeof message.sql === "string" ? message.sql.trim() : "";
    const columns = asList(message.columns).map((c) => String(c));
    return { sql, columns, rows: asList(message.rows), truncated: Boolean(message.truncated) };
  }

  // Drawn once per `sources` event (not again on every later update, so a screen reader is not
  // handed the table twice, and an opened SQL block stays open).
  function updateQueryResult(message, body, bubble, failed) {
    const query = queryOf(message);
    const wanted = !failed && (query.sql || query.columns.length);
    let block = body.querySelector(".query-result");
    const stale = block
      && (block.frontdeskRows !== message.rows || block.frontdeskSql !== message.sql);
    if (block && (!wanted || stale)) {
      block.remove();
      block = null;
    }
    if (!wanted || block) return;
    block = el("div", "query-result");
    // Not read out as it arrives: the answer sums it up; the table is there to browse.
    block.setAttribute("aria-live", "off");
    block.frontdeskRows = message.rows;
    block.frontdeskSql = message.sql;
    if (query.sql) block.append(renderSql(query.sql));
    if (query.columns.length) block.append(renderTable(query));
    bubble.after(block);
  }

  function renderSql(sql) {
    const details = el("details", "sql-block");
    details.append(el("summary", "", "SQL that ran"));
    const pre = el("pre");
    pre.append(el("code", "", sql));
    details.append(pre);
    return details;
  }

  function isNumber(value) {
    return typeof value === "number" && Number.isFinite(value);
  }

  function isEmpty(value) {
    return value === null || value === undefined;
  }

  function cellValue(row, column, index) {
    if (Array.isArray(row)) return row[index];
    return row && typeof row === "object" ? row[column] : undefined;
  }

  function cellText(value) {
    if (isEmpty(value)) return "—";
    if (typeof value === "object") return compactJson(value);
    return String(value);
  }

  function renderTable({ columns, rows, truncated }) {
    const shown = rows.slice(0, MAX_TABLE_ROWS);
    const values = shown.map((row) => columns.map((column, i) => cellValue(row, column, i)));
    // A column is numeric (right-aligned, header too) when every value in it is a number.
    const numeric = columns.map((_, index) => {
      const present = values.map((cells) => cells[index]).filter((v) => !isEmpty(v));
      return present.length > 0 && present.every(isNumber);
    });

    const wrap = el("div", "result-table-wrap");
    wrap.tabIndex = 0; // scrollable sideways with the keyboard
    wrap.setAttribute("role", "region");
    const table = el("table", "result-table");
    const partial = truncated || rows.length > shown.length;
    const caption = partial
      ? `first ${shown.length} rows`
      : `${shown.length} ${shown.length === 1 ? "row" : "rows"}`;
    table.append(el("caption", "", caption));
    wrap.setAttribute("aria-label", `Query result, ${caption}`);

    const headRow = el("tr");
    columns.forEach((column, index) => {
      const th = el("th", numeric[index] ? "num" : "", column);
      th.scope = "col";
      headRow.append(th);
    });
    const thead = el("thead");
    thead.append(headRow);

    const tbody = el("tbody");
    for (const cells of values) {
      const tr = el("tr");
      cells.forEach((value, index) => {
        const empty = isEmpty(value);
        const text = cellText(value);
        const classes = [
          isNumber(value) || numeric[index] ? "num" : "",
          empty ? "null" : "",
          text.length > LONG_CELL_CHARS ? "long" : "",
        ];
        const td = el("td", classes.filter(Boolean).join(" "), text);
        if (empty) td.title = "no value";
        tr.append(td);
      });
      tbody.append(tr);
    }
    table.append(thead, tbody);
    wrap.append(table);
    return wrap;
  }

  // ---------- progress: what the assistant is doing before its first token ----------
  const ROUTE_TEXT = new Map([
    ["sql", "Querying the database…"],
    ["rag", "Searching the manual…"],
    ["general", "Thinking…"],
    ["refuse", "Checking the request…"],
    ["blocked", "Checking the request…"],
  ]);
  const TOOL_TEXT = new Map([
    ["sql_agent", "Querying the database…"],
    ["rag_agent", "Searching the manual…"],
    ["general_agent", "Writing an answer…"],
  ]);

  function humanize(text) {
    if (typeof text !== "string") return "";
    const words = text.replace(/[_-]+/g, " ").trim();
    return words ? words.charAt(0).toUpperCase() + words.slice(1) : "";
  }

  // The status line for one `progress` event; unknown stages and names still say something.
  function progressText(message, data) {
    const stage = data && data.stage;
    if (stage === "queue") {
      // The embedded model is busy with other people's questions: say where this one stands.
      const position = Number(data.position);
      if (!(position > 0)) return "Working on it…"; // 0: its turn came
      if (position === 1) return "Waiting for the model: you are next";
      return `Waiting for the model: ${position - 1} ahead of you`;
    }
    if (stage === "route") return ROUTE_TEXT.get(data.route) || "Working on it…";
    if (stage === "tool") {
      if (TOOL_TEXT.has(data.tool)) return TOOL_TEXT.get(data.tool);
      const tool = humanize(data.tool).toLowerCase();
      return tool ? `Using ${tool}…` : "Working on it…";
    }
    if (stage === "step") {
      switch (data.step) {
        case "select_tables":
          return "Querying the database… · choosing tables";
        case "generate_sql":
          return "Querying the database… · writing SQL";
        case "execute":
          return message.corrections ? "Running the corrected query…" : "Running the query…";
        case "correct_sql":
          // The first correction is the second attempt at the query.
          message.corrections = (message.corrections || 0) + 1;
          return `Fixing the SQL (attempt ${message.corrections + 1})…`;
        default: {
          const step = humanize(data.step);
          return step ? `${step}…` : message.progress || "Working on it…";
        }
      }
    }
    return message.progress || "Working on it…";
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
      case "progress":
        message.progress = progressText(message, data);
        break;
      case "sources": {
        // The concierge sends {sources}; telecom adds citations, used_tools and route; the
        // analyst adds sql, columns, rows, row_count and truncated.
        message.sources = asList(data.sources);
        message.citations = asList(data.citations);
        message.tools = asList(data.used_tools);
        const sql = typeof data.sql === "string" ? data.sql.trim() : "";
        const columns = asList(data.columns).map((c) => String(c));
        message.sql = sql || undefined;
        if (columns.length) {
          const rows = asList(data.rows);
          message.columns = columns;
          message.rows = rows.slice(0, MAX_TABLE_ROWS);
          message.truncated = Boolean(data.truncated) || rows.length > MAX_TABLE_ROWS;
        } else {
          message.columns = message.rows = message.truncated = undefined;
        }
        break;
      }
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
      ui.hintSource.textContent = info.shows_sql
        ? "Answers come from the database and its documentation."
        : "Answers come from the assistant's own documentation.";
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
