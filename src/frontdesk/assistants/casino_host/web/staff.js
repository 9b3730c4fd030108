// The staff desk (issue 33): the casino host's open escalations, their acknowledgement timers
// and de-identified transcripts; a host takes one, answers the guest by SMS through the
// sending gate, and closes it. Signed in with a staff API key, kept in this tab only.
"use strict";

const $ = (id) => document.getElementById(id);
const ui = {
  signin: $("signin"), key: $("key"), name: $("name"), signinError: $("signin-error"),
  desk: $("desk"), casino: $("casino"), who: $("who"), signout: $("signout"),
  error: $("desk-error"), empty: $("empty"), list: $("list"),
};
const REFRESH_MS = 10000;
let timer = null;
let drafts = {}; // what a host was typing, kept across refreshes

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function session() {
  return { key: sessionStorage.getItem("staffKey") || "", name: sessionStorage.getItem("staffName") || "" };
}

async function call(method, path, body) {
  const headers = { Accept: "application/json" };
  const { key } = session();
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body) headers["Content-Type"] = "application/json";
  // No cookie: a guest's web session is not staff.
  const response = await fetch(path, { method, headers, credentials: "omit",
                                       body: body ? JSON.stringify(body) : undefined });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.error || `the server answered ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

function clock(seconds) {
  const late = seconds < 0;
  const s = Math.abs(seconds);
  const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  return late ? `${text} overdue` : `${text} left to acknowledge`;
}

function bubble(turn) {
  const who = turn.direction === "inbound" ? "inbound" : turn.agent === "person" ? "person" : "outbound";
  const node = el("li", `bubble ${who}`, turn.text);
  const label = who === "inbound" ? "Guest" : who === "person" ? "Staff" : `Host (${turn.agent || "AI"})`;
  node.append(el("small", "", `${label} · ${new Date(turn.at).toLocaleTimeString()}`));
  return node;
}

function card(item) {
  const node = el("li", `card ${item.severity}`);
  node.id = item.escalation_id;
  node.append(el("h3", "", `${item.severity} · ${item.reason}`));
  const meta = el("div", "meta");
  meta.append(el("span", "", `Guest ••${item.guest_last_four} (${item.guest_id_hash})`));
  meta.append(el("span", "", `Since ${new Date(item.timestamp).toLocaleString()}`));
  meta.append(el("span", "", `Level ${item.escalation_level}`));
  if (item.acknowledged) {
    meta.append(el("span", "notice ok", `Taken by ${item.acknowledged_by}`));
  } else if (item.seconds_left !== null) {
    meta.append(el("span", `timer${item.seconds_left < 0 ? " late" : ""}`, clock(item.seconds_left)));
  }
  meta.append(item.notified_level > 0
    ? el("span", "notice ok", `Alert accepted (level ${item.notified_level})`)
    : el("span", "notice failed", `Alert not delivered yet${item.notice_error ? `: ${item.notice_error}` : ""}; retrying`));
  node.append(meta);
  const transcript = el("ol", "transcript");
  transcript.append(...item.transcript.map(bubble));
  node.append(transcript);

  const form = el("form", "reply");
  const label = el("label", "", "Answer the guest by SMS");
  const box = el("textarea");
  box.rows = 2; box.maxLength = 640; box.required = true;
  box.id = `reply-${item.escalation_id}`; label.htmlFor = box.id;
  box.value = drafts[item.escalation_id] || "";
  box.addEventListener("input", () => { drafts[item.escalation_id] = box.value; });
  const send = el("button", "", "Send SMS");
  send.type = "submit";
  const result = el("p", "result");
  result.setAttribute("role", "status");
  form.append(label, box, send);
  const actions = el("div", "actions");
  if (!item.acknowledged) actions.append(action("Take it", "ack", item, result));
  actions.append(action("Close", "close", item, result));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    send.disabled = true;
    const key = drafts[`${item.escalation_id}:key`] || crypto.randomUUID().replaceAll("-", "");
    drafts[`${item.escalation_id}:key`] = key; // a retry of this answer is sent once
    try {
      const sent = await call("POST", `/casino_host/staff/escalations/${item.escalation_id}/reply`,
        { casino: ui.casino.value, by: session().name, text: box.value, key });
      result.textContent = sent.sent ? "Sent." : `Not sent: ${sent.reason || sent.status}${sent.detail ? ` (${sent.detail})` : ""}`;
      if (sent.sent) { delete drafts[item.escalation_id]; delete drafts[`${item.escalation_id}:key`]; }
      await refresh();
    } catch (err) {
      result.textContent = `Not sent: ${err.message}`;
    } finally {
      send.disabled = false;
    }
  });
  node.append(form, actions, result);
  return node;
}

function action(label, verb, item, result) {
  const button = el("button", "quiet", label);
  button.type = "button";
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await call("POST", `/casino_host/staff/escalations/${item.escalation_id}/${verb}`,
        { casino: ui.casino.value, by: session().name });
      await refresh();
    } catch (err) {
      result.textContent = err.message;
      button.disabled = false;
    }
  });
  return button;
}

async function refresh() {
  clearTimeout(timer);
  try {
    const data = await call("GET", `/casino_host/staff/escalations?casino=${encodeURIComponent(ui.casino.value)}`);
    ui.error.textContent = "";
    ui.empty.hidden = data.escalations.length > 0;
    ui.list.replaceChildren(...data.escalations.map(card));
  } catch (err) {
    if (err.status === 401 || err.status === 403) return signOut(err.message);
    ui.error.textContent = `Could not load the escalations: ${err.message}`;
  }
  timer = setTimeout(refresh, REFRESH_MS);
}

async function showDesk() {
  const data = await call("GET", "/assistants");
  const listed = Array.isArray(data) ? data : data.assistants || [];
  const host = listed.find((a) => a.name === "casino_host");
  const casinos = (host && host.info && host.info.scopes) || [];
  ui.casino.replaceChildren(...casinos.map((c) => {
    const option = el("option", "", c.name);
    option.value = c.id;
    return option;
  }));
  if (host && host.info && host.info.default_scope) ui.casino.value = host.info.default_scope;
  ui.who.textContent = `Signed in as ${session().name}`;
  ui.signin.hidden = true;
  ui.desk.hidden = false;
  await refresh();
}

function signOut(message) {
  clearTimeout(timer);
  sessionStorage.removeItem("staffKey");
  ui.desk.hidden = true;
  ui.signin.hidden = false;
  ui.signinError.textContent = message || "";
}

ui.signin.addEventListener("submit", async (event) => {
  event.preventDefault();
  sessionStorage.setItem("staffKey", ui.key.value.trim());
  sessionStorage.setItem("staffName", ui.name.value.trim());
  ui.signinError.textContent = "";
  try {
    await call("GET", "/casino_host/staff/escalations?casino=_probe").catch((err) => {
      if (err.status !== 404) throw err; // 404: signed in, the probe casino just does not exist
    });
    await showDesk();
  } catch (err) {
    signOut(err.status === 401 || err.status === 403 ? `Not signed in: ${err.message}` : err.message);
  }
});
ui.signout.addEventListener("click", () => signOut());
ui.casino.addEventListener("change", refresh);
if (session().name) { ui.name.value = session().name; showDesk().catch(() => signOut()); }
