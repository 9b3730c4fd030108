// Turns: a question goes to POST /chat and its answer streams back as SSE. One turn runs at a
// time (the model is shared); a question sent meanwhile waits in a queue, shown as "Queued",
// and goes when the answer before it ends. Stop aborts the stream and cancels the turn on
// the server (POST /chat/cancel). A 503 with Retry-After is retried once, after saying so.

import { politeError, postChat, postJson } from "./api.js";
import { asList, newThreadId } from "./dom.js";
import { scopeFor } from "./scope.js";
import { readEvents } from "./sse.js";

// At most this many result rows are kept per answer (the server's own cap too).
const MAX_ROWS = 100;
const MAX_RETRY_WAIT_S = 30;
const CANCEL_WAIT_MS = 2000;

// hooks: {chatOf(name), changed(name, message), progressText(name, data, message),
//         busyChanged(busy), giveBack(text)}
export function createTurns(hooks) {
  let running = null; // {assistant, threadId, controller, answer, stopped}
  const queue = []; // {assistant, user}

  function ask(assistant, text) {
    const chat = hooks.chatOf(assistant);
    if (!chat.threadId) chat.threadId = newThreadId();
    const user = { role: "user", text, status: running ? "queued" : "done" };
    chat.messages.push(user);
    hooks.changed(assistant, null);
    if (running) queue.push({ assistant, user });
    else start(assistant, user, {});
  }

  function regenerate(assistant, answer) {
    if (running || !answer.question) return;
    Object.assign(answer, { text: "", data: undefined, error: undefined, status: "streaming", progress: undefined, checking: false });
    start(assistant, { text: answer.question }, { regenerate: true, answer });
  }

  async function start(assistant, user, { regenerate: again = false, answer: reused = null }) {
    const chat = hooks.chatOf(assistant);
    user.status = "done";
    const answer = reused || { role: "assistant", text: "", status: "streaming", question: user.text };
    if (!reused) chat.messages.push(answer);
    const controller = new AbortController();
    running = { assistant, threadId: chat.threadId, controller, answer, stopped: false };
    const turn = running;
    hooks.busyChanged(true);
    hooks.changed(assistant, answer);
    const payload = { message: user.text, thread_id: chat.threadId, assistant };
    if (again) payload.regenerate = true;
    const scope = scopeFor(assistant);
    if (scope) payload.scope = scope;
    try {
      await exchange(turn, payload, true);
    } catch (err) {
      if (!turn.stopped) {
        fail(answer, "Couldn't reach the assistant. Check your connection and try again.");
        if (!again) hooks.giveBack(user.text);
      }
    } finally {
      if (turn.stopped) answer.status = "stopped";
      else if (answer.status === "streaming") {
        // The stream ended without `done`: keep what arrived, say so if nothing did.
        if (answer.text) answer.status = "done";
        else fail(answer, "The answer was cut off. Please try again.");
      }
      answer.progress = undefined;
      running = null;
      hooks.changed(assistant, answer);
      hooks.busyChanged(false);
      const next = queue.shift();
      if (next) start(next.assistant, next.user, {});
    }
  }

  async function exchange(turn, payload, mayRetry) {
    const { answer, assistant } = turn;
    const response = await postChat(payload, turn.controller.signal);
    if (response.ok && response.body) {
      await readEvents(response, (name, data) => apply(turn, name, data));
      return;
    }
    const body = await response.json().catch(() => null);
    const retryAfter = Number(response.headers.get("Retry-After"));
    if (response.status === 503 && mayRetry && retryAfter > 0 && retryAfter <= MAX_RETRY_WAIT_S) {
      answer.progress = `The assistant is busy: retrying in ${retryAfter} s`;
      hooks.changed(assistant, answer);
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      if (turn.stopped) return;
      answer.progress = "Retrying…";
      hooks.changed(assistant, answer);
      return exchange(turn, payload, false);
    }
    fail(answer, politeError(response.status, body, response.headers.get("Retry-After")));
    if (!payload.regenerate) hooks.giveBack(payload.message);
  }

  function apply(turn, name, data) {
    const { answer, assistant } = turn;
    if (turn.stopped) return;
    switch (name) {
      case "metadata":
        if (Number.isInteger(data.turn)) answer.turn = data.turn;
        break;
      case "token":
        answer.text += data.content || "";
        break;
      case "replace":
        answer.text = data.content || "";
        break;
      case "progress":
        answer.progress = hooks.progressText(assistant, data, answer);
        // Shown below the words already there until the answer ends.
        if (data && data.stage === "checking") answer.checking = true;
        break;
      case "sources": {
        const rows = asList(data.rows);
        answer.data = { ...data, rows: rows.slice(0, MAX_ROWS), truncated: Boolean(data.truncated) || rows.length > MAX_ROWS };
        break;
      }
      case "done":
        // A service may send `done` after its own `error`; the error stays on screen.
        if (answer.status === "streaming") answer.status = "done";
        break;
      case "error":
        fail(answer, data.error || "Sorry, something went wrong. Please try again.");
        break;
      default:
        return;
    }
    hooks.changed(assistant, answer);
  }

  function fail(answer, error) {
    answer.status = "error";
    answer.error = error;
  }

  // Stops the running turn: the server is told to stop generating, then the fetch is aborted.
  // In that order: an abort first would end the turn as a disconnect, and the cancel would
  // find nothing to cancel. Nothing that arrives after Stop is shown either way.
  function stop() {
    if (!running || running.stopped) return;
    const turn = running;
    turn.stopped = true;
    turn.answer.progress = undefined;
    hooks.changed(turn.assistant, turn.answer);
    const abort = () => turn.controller.abort();
    const fallback = setTimeout(abort, CANCEL_WAIT_MS); // a server that does not answer
    postJson("/chat/cancel", { assistant: turn.assistant, thread_id: turn.threadId })
      .catch(() => {})
      .finally(() => {
        clearTimeout(fallback);
        abort();
      });
  }

  // Forget an assistant's queued questions and stop its turn (a new conversation).
  function dropAssistant(assistant) {
    for (let i = queue.length - 1; i >= 0; i -= 1) if (queue[i].assistant === assistant) queue.splice(i, 1);
    if (running && running.assistant === assistant) stop();
  }

  return {
    ask,
    regenerate,
    stop,
    dropAssistant,
    get busy() {
      return running !== null;
    },
    runningFor: (assistant) => Boolean(running && running.assistant === assistant),
  };
}
