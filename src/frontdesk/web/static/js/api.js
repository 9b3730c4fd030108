// JSON calls to the server. Every call sends the session cookie (same origin only), which is
// what makes the caller's conversations and sign-in theirs.

async function call(method, url, body, signal) {
  const options = {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    signal,
  };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  const data = await response.json().catch(() => null);
  return { ok: response.ok, status: response.status, data, headers: response.headers };
}

export const getJson = (url, signal) => call("GET", url, undefined, signal);
export const postJson = (url, body, signal) => call("POST", url, body, signal);

// The POST /chat stream; the caller reads the body with sse.readEvents.
export function postChat(payload, signal) {
  return fetch("/chat", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(payload),
    signal,
  });
}

// What to tell a person when the server refused a request (never the server's internals).
export function politeError(status, body, retryAfter) {
  if (status === 429) {
    const wait = Number(retryAfter || (body && body.retry_after_s)) || 30;
    return `You're sending messages a little quickly. Please wait ${wait} seconds and try again.`;
  }
  if (status === 503) return "The assistant is busy or still getting ready. Please try again in a moment.";
  if (status === 401 || status === 403) return "You're not allowed to do that here. Try signing in again.";
  if (status === 404) return "That conversation or assistant isn't available.";
  if (status === 422 && body && body.error) return `That message couldn't be sent. ${body.error}`;
  return "Sorry, something went wrong on our side. Please try again.";
}
