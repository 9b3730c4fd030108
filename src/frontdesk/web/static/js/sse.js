// Server-sent events from a POST response body (EventSource can only GET): the subset of the
// spec the chat stream uses.

export function createSseParser(onEvent) {
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
    if (line.startsWith(":")) return; // a comment, e.g. the server's keep-alive ping
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

// Reads `response.body` to its end, calling onEvent(name, parsedData) per event (events whose
// data is not JSON are skipped).
export async function readEvents(response, onEvent) {
  const parser = createSseParser((name, raw) => {
    let data;
    try {
      data = JSON.parse(raw);
    } catch (err) {
      return;
    }
    onEvent(name, data);
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.push(decoder.decode(value, { stream: true }));
  }
  parser.push(decoder.decode());
  parser.end();
}
