// The phone simulator page (issue 19): text the casino host as any guest number, see each SMS
// it would send (encoding, segments, delay), try an outbound message through the gate, move
// the casino's clock, and read what the casino holds: consent, the hash chain, audit rows.
// Every string from the server is set as text, never parsed as HTML.

import { getJson, postJson } from "/static/js/api.js";
import { el } from "/static/js/dom.js";

const $ = (id) => document.getElementById(id);
const ui = {
  casino: $("casino"), number: $("number"), clock: $("clock"), clockNow: $("clock-now"),
  thread: $("thread"), compose: $("compose"), message: $("message"), error: $("phone-error"),
  outbound: $("outbound"), outboundType: $("outbound-type"), outboundText: $("outbound-text"),
  outboundResult: $("outbound-result"), consent: $("consent"), chainStatus: $("chain-status"),
  chain: $("chain"), audit: $("audit"), queue: $("queue"),
};
const E164 = /^\+[1-9]\d{7,14}$/;
const utc = (iso) => `${iso.slice(0, 19).replace("T", " ")} UTC`;

// When the queue is read again after a send: the simulator reports delivery 0.5 s after it.
const REPORT_AFTER_S = 1.5;

// The core's JSON calls; a refusal becomes an Error that says what the server said.
async function call(method, path, body) {
  const answer = method === "GET" ? await getJson(path) : await postJson(path, body);
  if (!answer.ok) {
    const data = answer.data || {};
    const detail = data.error || data.detail;
    throw new Error(typeof detail === "string" ? detail : `HTTP ${answer.status}`);
  }
  return answer.data;
}

function who() {
  const number = ui.number.value.trim();
  if (!E164.test(number)) throw new Error("The guest number must be E.164, such as +18605550123.");
  const at = ui.clock.value ? `${ui.clock.value}:00` : null; // the casino's wall clock
  return { casino: ui.casino.value, number, at };
}

function say(role, text, meta) {
  const item = el("li", `bubble ${role}`, text);
  if (meta) item.append(el("span", "meta", meta));
  ui.thread.append(item);
  ui.thread.scrollTop = ui.thread.scrollHeight;
  return item;
}

// A host bubble follows its queued SMS: the phone shows whether it really went out (a STOP
// during the delay cancels it; the gate may block it at send time).
const OUTCOMES = {
  sending: "on its way", queued: "queued (sent later)", sent: "sent", delivered: "delivered",
  cancelled: "cancelled, never sent", blocked: "blocked at send time, never sent",
  dead: "never sent (gave up after its retries)",
};

function follow(bubble, sms) {
  if (!sms.outbound_id) return;
  bubble.dataset.outboundId = sms.outbound_id;
  bubble.append(el("span", "meta outcome", OUTCOMES.sending));
}

function showOutcomes(outbound) {
  const byId = new Map(outbound.map((m) => [m.outbound_id, m]));
  ui.thread.querySelectorAll("li[data-outbound-id]").forEach((bubble) => {
    const m = byId.get(bubble.dataset.outboundId);
    if (!m) return;
    const line = bubble.querySelector(".outcome");
    line.textContent = `${OUTCOMES[m.status] || m.status}${m.reason ? ` (${m.reason})` : ""}`;
    bubble.classList.toggle("unsent", ["cancelled", "blocked", "dead"].includes(m.status));
  });
}

function smsMeta(sms, index, count) {
  const parts = [sms.encoding, `${sms.segments} segment${sms.segments === 1 ? "" : "s"}`];
  if (typeof sms.delay_s === "number" && sms.delay_s > 0) parts.push(`after ${sms.delay_s.toFixed(1)} s`);
  if (count > 1) parts.unshift(`SMS ${index + 1} of ${count}`);
  return parts.join(" · ");
}

async function text(message) {
  ui.error.textContent = "";
  let request;
  try { request = { ...who(), text: message }; } catch (err) { ui.error.textContent = err.message; return; }
  say("guest", message, request.at ? `casino clock ${request.at.replace("T", " ")}` : null);
  const buttons = document.querySelectorAll("#compose button, .quick button");
  buttons.forEach((b) => { b.disabled = true; });
  try {
    const answer = await call("POST", "/sms/simulator/text", request);
    if (answer.status === "rate_limited") say("note", "Over the rate limit: no reply (HTTP 200).");
    else if (!answer.replies.length) say("note", answer.opted_in ? "No reply." : "Nothing was sent: this guest opted out (STOP).");
    answer.replies.forEach((sms, i) => follow(say("host", sms.body, smsMeta(sms, i, answer.replies.length)), sms));
    // The replies leave the queue after their delays, then the delivery reports come back.
    const typing = answer.replies.reduce((total, sms) => total + (sms.delay_s || 0), 0);
    setTimeout(refresh, (typing + REPORT_AFTER_S) * 1000);
  } catch (err) {
    ui.error.textContent = `Not sent: ${err.message}`;
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
    refresh();
  }
}

async function sendOutbound(event) {
  event.preventDefault();
  ui.outboundResult.className = "result";
  ui.outboundResult.textContent = "";
  let request;
  try {
    request = { ...who(), type: ui.outboundType.value, text: ui.outboundText.value.trim() };
  } catch (err) { ui.outboundResult.textContent = err.message; return; }
  if (!request.text) { ui.outboundResult.textContent = "Write the message first."; return; }
  try {
    const answer = await call("POST", "/sms/simulator/outbound", request);
    if (answer.sent) {
      ui.outboundResult.className = "result ok";
      ui.outboundResult.textContent = "Sent.";
      follow(say("host", answer.sms.body, `${ui.outboundType.value} · ${smsMeta(answer.sms, 0, 1)}`), answer.sms);
      setTimeout(refresh, REPORT_AFTER_S * 1000);  // its delivery report
    } else {
      ui.outboundResult.className = "result bad";
      ui.outboundResult.textContent = `Not sent (${answer.reason}): ${answer.detail || ""}`;
    }
  } catch (err) {
    ui.outboundResult.className = "result bad";
    ui.outboundResult.textContent = `Not sent: ${err.message}`;
  }
  refresh();
}

function rows(list, items, render) {
  list.replaceChildren(...(items.length ? items.map(render) : [el("li", "when", "None yet.")]));
}

function forget() {
  // No valid guest: nothing of the last one stays on show as if it were this one's.
  ui.consent.replaceChildren(el("span", "badge off", "No guest: enter an E.164 number."));
  ui.chainStatus.textContent = "";
  [ui.chain, ui.audit, ui.queue].forEach((list) => list.replaceChildren());
}

async function refresh() {
  let request;
  try { request = who(); } catch (err) { forget(); return; }
  const query = new URLSearchParams({ casino: request.casino, number: request.number });
  let view;
  try { view = await call("GET", `/sms/simulator/guest?${query}`); } catch (err) { return; }
  // The number changed while this view was on its way (under load it came after "No guest"):
  // it is another guest's, and is not shown.
  let current;
  try { current = who(); } catch (err) { forget(); return; }
  if (current.number !== request.number || current.casino !== request.casino) return;
  const consent = view.consent || {};
  const badge = (label, on, cls) => el("span", `badge ${cls || (on ? "on" : "off")}`, `${label}: ${on ? "yes" : "no"}`);
  ui.consent.replaceChildren(
    ...(view.known ? [
      badge("SMS opt-in", Boolean(consent.sms_opt_in)),
      badge("Marketing", Boolean(consent.marketing_consent)),
      badge("Written consent", consent.consent_type === "express_written"),
      badge("Opted out (STOP)", Boolean(consent.suppressed), consent.suppressed ? "stop" : "off"),
    ] : [el("span", "badge off", "Not a guest yet: text the host or send a message.")]),
  );
  const chain = view.chain;
  ui.chainStatus.textContent = chain
    ? `${chain.valid ? "Verifies" : "BROKEN at " + chain.broken_links.join(", ")} · ${chain.chain_length} event${chain.chain_length === 1 ? "" : "s"}`
    : "";
  rows(ui.chain, chain ? chain.events : [], (e) => {
    const item = el("li", "", `#${e.position} ${e.event || e.action} (${e.method || ""}) `);
    item.append(el("span", "when", `${utc(e.at)} · ${e.hash}`));
    return item;
  });
  rows(ui.audit, view.audit, (a) => {
    const item = el("li", "", `${a.event} ${JSON.stringify(a.details)} `);
    item.append(el("span", "when", utc(a.at)));
    return item;
  });
  showOutcomes(view.outbound);
  rows(ui.queue, view.outbound, (m) => {
    const item = el("li", "", `${m.status}${m.reason ? " (" + m.reason + ")" : ""} · ${m.kind}: ${m.body} `);
    item.append(el("span", "when", `attempts ${m.attempts}`));
    return item;
  });
}

async function loadCasinos() {
  let casinos = [];
  let wanted = null;
  try {
    const data = await call("GET", "/assistants");
    const listed = Array.isArray(data) ? data : data.assistants || [];
    const host = listed.find((a) => a.name === "casino_host");
    casinos = (host && host.info && host.info.scopes) || [];
    wanted = host && host.info && host.info.default_scope;
  } catch (err) {
    ui.error.textContent = `The server is not answering: ${err.message}`;
  }
  ui.casino.replaceChildren(...casinos.map((c) => {
    const option = el("option", "", c.name);
    option.value = c.id;
    return option;
  }));
  if (wanted && casinos.some((c) => c.id === wanted)) ui.casino.value = wanted;
}

ui.compose.addEventListener("submit", (event) => {
  event.preventDefault();
  const message = ui.message.value.trim();
  if (!message) return;
  ui.message.value = "";
  text(message);
});
document.querySelectorAll(".quick button").forEach((button) => {
  button.addEventListener("click", () => text(button.dataset.text));
});
ui.outbound.addEventListener("submit", sendOutbound);
ui.clockNow.addEventListener("click", () => { ui.clock.value = ""; });
ui.number.addEventListener("change", () => { ui.thread.replaceChildren(); refresh(); });
ui.casino.addEventListener("change", () => { ui.thread.replaceChildren(); refresh(); });

loadCasinos().then(refresh);
