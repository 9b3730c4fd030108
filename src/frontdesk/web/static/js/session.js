// The caller's session (GET /session sets the signed, HTTP-only cookie when missing) and the
// demo sign-in picker for assistants that act for someone (`signs_in` in GET /assistants).

import { getJson, postJson } from "./api.js";
import { el } from "./dom.js";

const row = document.getElementById("signin-row");
const label = document.getElementById("signin-label");
const picker = document.getElementById("signin-picker");
const note = document.getElementById("signin-note");

let session = null;
let shown = null; // {assistant, onChange}

export async function loadSession() {
  try {
    const answer = await getJson("/session");
    if (answer.ok && answer.data) session = answer.data;
  } catch (err) {
    // Offline: the page retries through its readiness loop.
  }
  return session;
}

export function signedInAs(name) {
  const signed = session && session.caller && session.caller.signed_in;
  return (signed && signed[name]) || null;
}

// Shows the picker for `assistant` (hidden when it signs nobody in). onChange(userId) runs
// after the server accepted a new sign-in (or sign-out: null).
export function showSignIn(assistant, signInLabel, onChange) {
  shown = { assistant, onChange };
  if (!assistant || !assistant.signs_in) {
    row.hidden = true;
    return;
  }
  row.hidden = false;
  label.textContent = signInLabel || "Signed in as";
  const users = (session && session.demo_users && session.demo_users[assistant.name]) || [];
  const current = signedInAs(assistant.name);
  const options = [el("option", "", "Not signed in")];
  options[0].value = "";
  for (const user of users) {
    const option = el("option", "", user.label || user.id);
    option.value = user.id;
    options.push(option);
  }
  if (current && !users.some((u) => u.id === current)) {
    const option = el("option", "", current);
    option.value = current;
    options.push(option);
  }
  picker.replaceChildren(...options);
  picker.value = current || "";
  const demo = Boolean(session && session.demo_sign_in);
  picker.disabled = !demo;
  note.textContent = demo ? "Demo sign-in: pick one of the sample customers." : "Sign-in is managed by your organisation.";
}

// The sign-in change in flight: a message sent meanwhile waits for it (signInSettled), so it
// lands in the new person's conversation instead of being wiped by it.
let changing = null;

export function signInSettled() {
  return changing || Promise.resolve();
}

async function changeSignIn() {
  if (!shown) return;
  const { assistant, onChange } = shown;
  const userId = picker.value;
  const answer = userId
    ? await postJson("/session/sign-in", { assistant: assistant.name, user_id: userId }).catch(() => null)
    : await postJson("/session/sign-out", { assistant: assistant.name }).catch(() => null);
  if (answer && answer.ok && answer.data) {
    session = answer.data;
    onChange(signedInAs(assistant.name));
  } else {
    note.textContent = "Couldn't change who is signed in. Please try again.";
  }
  picker.value = signedInAs(assistant.name) || "";
}

picker.addEventListener("change", () => {
  row.setAttribute("aria-busy", "true");
  changing = changeSignIn().finally(() => {
    changing = null;
    row.removeAttribute("aria-busy");
  });
});
