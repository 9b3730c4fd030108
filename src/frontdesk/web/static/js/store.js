// What survives a reload, in localStorage: each assistant's current conversation (its thread
// id and messages, sources included, which the server's history does not keep) and the
// assistant last picked. Private mode or a full quota: the chat works, it just won't survive.

const CHATS_KEY = "frontdesk.chats.v2";
const PREFS_KEY = "frontdesk.prefs.v2";
const MAX_STORED_MESSAGES = 200;
// A full quota: save again with fewer of the most recent result tables (rows), then none.
const ROW_FALLBACKS = [Infinity, 5, 0];

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch (err) {
    return null;
  }
}

function cleanMessage(m) {
  if (!m || (m.role !== "user" && m.role !== "assistant") || typeof m.text !== "string") return null;
  // An answer cut off by a reload is kept, no longer shown as streaming; a queued question
  // was never sent.
  if (m.status === "queued") return null;
  const status = m.status === "streaming" ? "interrupted" : m.status || "done";
  return { ...m, status };
}

export function loadChats() {
  const saved = read(CHATS_KEY);
  const chats = {};
  if (!saved || typeof saved !== "object") return chats;
  for (const [name, chat] of Object.entries(saved)) {
    if (!chat || !Array.isArray(chat.messages)) continue;
    chats[name] = {
      threadId: typeof chat.threadId === "string" ? chat.threadId : null,
      messages: chat.messages.map(cleanMessage).filter(Boolean),
    };
  }
  return chats;
}

function storedMessage(message, keepRows) {
  const { role, text, status, error, turn, question, data } = message;
  const stored = { role, text, status, error, turn, question };
  if (message.from === "person") stored.from = "person";
  if (data && typeof data === "object") {
    stored.data = keepRows.left-- > 0 ? data : { ...data, rows: [], columns: [] };
  }
  return stored;
}

export function saveChats(chats) {
  for (const rows of ROW_FALLBACKS) {
    const keepRows = { left: rows };
    const out = {};
    for (const [name, chat] of Object.entries(chats)) {
      const messages = chat.messages.slice(-MAX_STORED_MESSAGES).reverse()
        .map((m) => storedMessage(m, keepRows)).reverse();
      out[name] = { threadId: chat.threadId, messages };
    }
    try {
      localStorage.setItem(CHATS_KEY, JSON.stringify(out));
      return;
    } catch (err) {
      // Try again with fewer tables.
    }
  }
}

export function loadPrefs() {
  const prefs = read(PREFS_KEY) || {};
  return { assistant: typeof prefs.assistant === "string" ? prefs.assistant : null };
}

export function savePrefs(prefs) {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch (err) {
    // As above.
  }
}
