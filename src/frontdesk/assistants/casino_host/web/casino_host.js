// The casino host's part of the web chat (see the renderer interface in the shell's
// renderers.js): a phone-style view of each reply, its SMS parts as they were sent with the
// billed segment count, who answered (and the compliance gate's verdict, an escalation, an
// offer), and beside it what the host knows about the guest after the turn: the profile's
// fields with their confidence, its completeness, the conversation phase, offers and
// escalations. A casino picker (the scope) and the demo sign-in as a guest's number.
//
// Untrusted text only ever goes in through textContent; the styles are a constructed
// stylesheet (the page's Content-Security-Policy forbids inline <style> elements).

export const signInLabel = "Guest";

// --- styles ---------------------------------------------------------------------------------

const CSS = `
.message-body:has(> .answer-sources .ch-turn) { flex: 1 1 auto; max-width: min(100%, 720px); }
.message-body:has(> .answer-sources .ch-phone) > .bubble { display: none; }
.ch-turn { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; margin-top: 2px; }
.ch-phone {
  flex: 1 1 260px; max-width: 380px; min-width: 0;
  padding: 10px 10px 8px; border: 1px solid var(--border); border-radius: 22px;
  background: var(--surface); box-shadow: var(--shadow);
}
.ch-phone-head {
  display: flex; justify-content: space-between; gap: 8px; margin: 0 4px 8px;
  font-size: 11px; color: var(--text-muted); letter-spacing: 0.02em;
}
.ch-phone-head strong { color: var(--text); font-weight: 600; }
.ch-sms-list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.ch-sms { display: flex; flex-direction: column; align-items: flex-start; }
.ch-sms-bubble {
  max-width: 92%; padding: 7px 12px; border-radius: 18px; border-bottom-left-radius: 6px;
  background: #e9e9eb; color: #111;
  font-size: 15px; line-height: 1.35; white-space: pre-wrap; overflow-wrap: anywhere;
}
.ch-sms:not(:last-child) .ch-sms-bubble { border-bottom-left-radius: 18px; }
.ch-sms-caption { margin: 1px 0 0 10px; font-size: 11px; color: var(--text-muted); }
.ch-badges { display: flex; flex-wrap: wrap; gap: 5px; margin: 8px 2px 0; }
.ch-badge {
  display: inline-flex; align-items: center; gap: 4px; padding: 1px 8px; border-radius: 999px;
  font-size: 12px; line-height: 18px; background: var(--accent-soft); color: var(--accent-strong);
  border: 1px solid transparent;
}
.ch-badge-muted { background: var(--surface-muted); color: var(--text-muted); border-color: var(--border); }
.ch-badge-warn { background: #fff3bf; color: #7a4d00; border-color: #ffd43b; }
.ch-badge-sev { background: #fff4e6; color: #a13e00; border-color: #ffc078; font-weight: 600; }
.ch-badge-sev[data-severity="P0"] { background: #ffe3e3; color: #b01919; border-color: #ffa8a8; }
.ch-badge-sev[data-severity="P3"] { background: var(--surface-muted); color: var(--text-muted); border-color: var(--border); }
.ch-offer {
  margin: 8px 2px 0; padding: 8px 10px; border-radius: 12px;
  border: 1px dashed #40c057; background: #ebfbee; color: #1b4d2b; font-size: 13px;
}
.ch-offer-head { display: flex; justify-content: space-between; gap: 8px; font-weight: 600; }
.ch-offer-value { font-size: 15px; }
.ch-offer p { margin: 3px 0 0; }
.ch-offer-how { color: #2b6e3f; }
.ch-knows {
  flex: 1 1 220px; min-width: 0; max-width: 320px; padding: 10px 12px;
  border: 1px solid var(--border); border-radius: 14px; background: var(--surface-muted);
  font-size: 13px;
}
.ch-knows > summary { cursor: pointer; font-weight: 600; color: var(--text); list-style-position: inside; }
.ch-knows > summary:focus-visible { outline: 3px solid var(--accent-soft); border-radius: 6px; }
.ch-meter { margin: 8px 0 6px; }
.ch-meter-label { display: flex; justify-content: space-between; color: var(--text-muted); font-size: 12px; }
.ch-meter-label strong { color: var(--text); }
.ch-meter-track { height: 6px; margin-top: 3px; border-radius: 999px; background: var(--border); overflow: hidden; }
.ch-meter-fill { height: 100%; border-radius: 999px; background: var(--accent); }
.ch-facts { display: grid; grid-template-columns: auto 1fr; gap: 1px 10px; margin: 6px 0; }
.ch-facts dt { color: var(--text-muted); }
.ch-facts dd { margin: 0; color: var(--text); }
.ch-facts dd[data-alert="true"] { color: #b01919; font-weight: 600; }
.ch-fields { list-style: none; margin: 6px 0 0; padding: 6px 0 0; border-top: 1px solid var(--border); }
.ch-field { display: flex; align-items: baseline; gap: 6px; padding: 2px 4px; margin: 0 -4px; border-radius: 6px; }
.ch-field[data-new="true"] { background: #fff9db; }
.ch-field-name { color: var(--text-muted); white-space: nowrap; }
.ch-field-value { flex: 1; min-width: 0; color: var(--text); overflow-wrap: anywhere; }
.ch-field-conf { color: var(--text-muted); font-variant-numeric: tabular-nums; white-space: nowrap; }
.ch-field-new { font-size: 10px; font-weight: 700; text-transform: uppercase; color: #946200; letter-spacing: 0.04em; }
.ch-empty { margin: 6px 0 0; color: var(--text-muted); }
@media (max-width: 640px) {
  .ch-phone, .ch-knows { flex-basis: 100%; max-width: none; }
}
@media (prefers-color-scheme: dark) {
  .ch-sms-bubble { background: #3a3a3c; color: #f2f2f7; }
  .ch-badge-warn { background: #3d3000; color: #ffe066; border-color: #5c4a00; }
  .ch-badge-sev { background: #3d2200; color: #ffc078; border-color: #5c3a10; }
  .ch-badge-sev[data-severity="P0"] { background: #3d1010; color: #ffa8a8; border-color: #6b1f1f; }
  .ch-offer { background: #14301c; color: #b2f2bb; border-color: #2f9e44; }
  .ch-offer-how { color: #8ce99a; }
  .ch-field[data-new="true"] { background: #3a3000; }
  .ch-field-new { color: #ffd43b; }
  .ch-facts dd[data-alert="true"] { color: #ffa8a8; }
}
`;

let styled = false;

function ensureStyles() {
  if (styled || typeof document === "undefined") return;
  styled = true;
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch (err) {
    console.warn("the casino host's styles did not apply", err);
  }
}

// --- words ----------------------------------------------------------------------------------

const AGENTS = {
  compliance_gate: "Compliance gate",
  greeting_node: "Greeting",
  off_topic_node: "Off-topic reply",
  host_agent: "Host agent",
  dining_agent: "Dining agent",
  entertainment_agent: "Shows & spa agent",
  comp_agent: "Offers agent",
  fallback_node: "Fallback reply",
  holding: "Holding reply (a person has the conversation)",
};

const LAYERS = {
  injection: "Prompt injection",
  responsible_gaming: "Responsible gaming",
  age_verify: "Age check",
  bsa_aml: "BSA / AML",
  patron_privacy: "Patron privacy",
  pii: "Personal data",
  emergency: "Emergency",
  self_harm: "Self-harm",
  error: "Gate error (closed)",
};

const SEVERITIES = {
  P0: "urgent",
  P1: "within 30 min",
  P2: "needs a host",
  P3: "routine",
};

const PHASES = {
  pre_visit: "Pre-visit",
  active: "Active",
  rapport: "Rapport",
  discovery: "Discovery",
  offer: "Offer",
  post_visit: "Post-visit",
  dormant: "Dormant",
};

const FIELDS = {
  "core_identity.name": "Name",
  "core_identity.full_name": "Full name",
  "core_identity.email": "Email",
  "core_identity.language": "Language",
  "core_identity.timezone": "Time zone",
  "core_identity.loyalty_tier": "Loyalty tier",
  "visit_context.planned_visit_date": "Visit date",
  "visit_context.party_size": "Party size",
  "visit_context.occasion": "Occasion",
  "visit_context.kids_ages": "Kids' ages",
  "visit_context.visit_frequency": "Visits",
  "visit_context.visit_history": "Past visits",
  "visit_context.referral_source": "Heard of us",
  "preferences.dining.dietary_restrictions": "Dietary needs",
  "preferences.dining.cuisine_preferences": "Cuisine",
  "preferences.dining.budget_range": "Dining budget",
  "preferences.dining.kids_menu_needed": "Kids' menu",
  "preferences.entertainment.interests": "Entertainment",
  "preferences.entertainment.accessibility_needs": "Accessibility",
  "preferences.entertainment.date_preferences": "Show dates",
  "preferences.spa.treatments_interested": "Spa",
  "preferences.gaming.level": "Gaming level",
  "preferences.gaming.preferred_games": "Games",
  "preferences.gaming.typical_spend": "Typical spend",
  companions: "Companions",
};
// The order the panel lists fields in (unknown ones after, alphabetically).
const FIELD_ORDER = Object.keys(FIELDS);

const LANGUAGES = { en: "English", es: "Spanish" };

function sentence(text) {
  const words = String(text || "").replace(/[_.-]+/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "";
}

function fieldLabel(path) {
  return FIELDS[path] || sentence(String(path).split(".").pop());
}

function languageName(code) {
  const key = String(code || "").toLowerCase();
  return LANGUAGES[key] || key.toUpperCase();
}

function formatDate(text) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(text));
  if (!match) return String(text);
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toLocaleDateString("en-US", { weekday: "short", month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
}

function formatRecord(record) {
  if (!record || typeof record !== "object") return formatValue(record);
  const who = [record.relationship, record.name].filter((v) => v !== null && v !== undefined && v !== "");
  let text = who.map(String).join(" ");
  if (record.age !== null && record.age !== undefined && record.age !== "") text += `${text ? ", " : ""}${record.age}`;
  if (text) return text;
  return Object.entries(record)
    .filter(([, v]) => v !== null && v !== undefined && v !== "")
    .map(([k, v]) => `${sentence(k)}: ${formatValue(v)}`)
    .join(", ");
}

function formatValue(value, path) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value)) {
    if (!value.length) return "—";
    if (value.every((v) => v && typeof v === "object")) {
      if (path === "visit_context.visit_history") return `${value.length} recorded`;
      return value.map(formatRecord).join("; ");
    }
    return value.map((v) => formatValue(v)).join(", ");
  }
  if (typeof value === "object") return formatRecord(value);
  if (path === "core_identity.language") return languageName(value);
  if (path === "visit_context.planned_visit_date") return formatDate(value);
  return String(value);
}

function percent(value) {
  const number = Number(value);
  if (!Number.isFinite(number)) return null;
  return Math.round(Math.max(0, Math.min(1, number)) * 100);
}

function money(value) {
  const number = Number(value);
  if (!Number.isFinite(number)) return null;
  return number.toLocaleString("en-US", {
    style: "currency", currency: "USD", maximumFractionDigits: Number.isInteger(number) ? 0 : 2,
  });
}

// --- the welcome, the chips, the casino picker --------------------------------------------

// Casino id -> name, as GET /assistants lists them (the phone's header names the casino).
const casinoNames = {};

function casinosOf(assistant) {
  const info = (assistant && assistant.info) || {};
  const casinos = (Array.isArray(info.scopes) ? info.scopes : [])
    .filter((c) => c && typeof c === "object" && c.id);
  for (const casino of casinos) casinoNames[String(casino.id)] = String(casino.name || casino.id);
  return casinos;
}

export function welcome(assistant) {
  ensureStyles();
  const names = casinosOf(assistant).map((c) => String(c.name || c.id));
  const where = names.length ? names.join(" and ") : "the casino";
  return {
    title: "Text your casino host",
    text: `An AI host for ${where}, by SMS: dining, shows, the spa, your visit and offers, in English or Spanish. Pick a casino and a guest, then text away. To try STOP, quiet hours and consent as a phone would:`,
    hint: "Replies show as the SMS a guest gets, with what the host knows beside them.",
    link: { label: "open the phone simulator", href: "/sms/simulator" },
  };
}

const EXAMPLES = [
  { label: "Dining", prompt: "What time does Michael Jordan's Steak House open tonight?" },
  { label: "Shows", prompt: "Any shows this weekend?" },
  { label: "Offers", prompt: "Do you have any offers for me?" },
  { label: "Español", prompt: "Prefiero hablar en español" },
];

export function topicChips() {
  return EXAMPLES.map((example) => ({ ...example }));
}

export function scopes(assistant) {
  const casinos = casinosOf(assistant);
  if (!casinos.length) return null;
  const info = assistant.info || {};
  return {
    label: "Casino",
    options: casinos.map((c) => ({ value: String(c.id), label: String(c.name || c.id) })),
    initial: info.default_scope,
    note: "",
  };
}

// --- the answer -----------------------------------------------------------------------------

function smsOf(data) {
  const parts = data && Array.isArray(data.sms) ? data.sms : [];
  return parts.filter((part) => typeof part === "string" && part.trim());
}

// What the bubble says for a guest who opted out: the host stores the message and sends
// nothing (TCPA), which an empty bubble would not tell.
export const NOT_SENT =
  "Nothing was sent: this guest opted out with STOP. The message is kept; texting START " +
  "re-subscribes.";

// Once the turn's SMS have come, they are the reply (drawn by renderSources) and the plain
// bubble says nothing; while the reply streams, or for a turn without them, the text shows.
export function answerText(text, message) {
  if (!message || message.status === "streaming") return text;
  if (smsOf(message.data).length) return "";
  if (!text && message.data && message.data.agent === "consent") return NOT_SENT;
  return text;
}

function badge(el, text, className = "", title = "") {
  const node = el("span", `ch-badge ${className}`.trim(), text);
  if (title) node.title = title;
  return node;
}

function renderPhone(data, parts, el) {
  const phone = el("section", "ch-phone");
  phone.setAttribute("aria-label", "The reply as SMS");
  const head = el("div", "ch-phone-head");
  const casino = data.casino_id ? casinoNames[data.casino_id] || sentence(data.casino_id) : "";
  head.append(el("strong", "", casino ? `${casino} · SMS` : "SMS"));
  const segments = Number(data.segments);
  const count = Number.isFinite(segments) && segments > 0 ? segments : null;
  if (data.language) head.append(el("span", "ch-sms-meta", languageName(data.language)));
  phone.append(head);

  const list = el("ol", "ch-sms-list");
  parts.forEach((part, index) => {
    const item = el("li", "ch-sms");
    item.append(el("div", "ch-sms-bubble", part));
    let caption = `SMS ${index + 1}/${parts.length}`;
    if (index === parts.length - 1 && count !== null) {
      caption += ` · ${count} ${count === 1 ? "segment" : "segments"}`;
    }
    item.append(el("span", "ch-sms-caption", caption));
    list.append(item);
  });
  phone.append(list);
  return phone;
}

function renderBadges(data, el) {
  const row = el("div", "ch-badges");
  if (data.agent) {
    const agent = String(data.agent);
    row.append(badge(el, AGENTS[agent] || sentence(agent), "ch-badge-agent", "Who answered"));
  }
  const guardrail = data.guardrail && typeof data.guardrail === "object" ? data.guardrail : null;
  if (guardrail && guardrail.layer) {
    const layer = String(guardrail.layer);
    const pattern = guardrail.pattern_id ? ` (${guardrail.pattern_id})` : "";
    row.append(badge(el, `⚠ ${LAYERS[layer] || sentence(layer)}`, "ch-badge-warn",
      `The compliance gate answered: ${layer}${pattern}`));
  }
  const escalation = data.escalation && typeof data.escalation === "object" ? data.escalation : null;
  if (escalation) {
    const severity = String(escalation.severity || "");
    const when = SEVERITIES[severity];
    const node = badge(el, `Escalated to a host · ${severity}${when ? ` ${when}` : ""}`, "ch-badge-sev",
      escalation.id ? `Escalation ${escalation.id}` : "Escalated to a person");
    node.dataset.severity = severity;
    row.append(node);
  }
  const tools = (Array.isArray(data.used_tools) ? data.used_tools : [])
    .map((tool) => (tool && typeof tool === "object" ? tool.name : tool))
    .filter((name) => typeof name === "string" && name);
  if (tools.length) {
    row.append(badge(el, `Looked up: ${[...new Set(tools)].map((t) => sentence(t).toLowerCase()).join(", ")}`,
      "ch-badge-muted", "Tools the agent used"));
  }
  return row.childNodes.length ? row : null;
}

function renderOffer(offer, el) {
  const card = el("div", "ch-offer");
  card.setAttribute("role", "note");
  const head = el("div", "ch-offer-head");
  const tier = offer.tier ? ` · ${sentence(offer.tier)}` : "";
  head.append(el("span", "", `Offer made${tier}`));
  const value = money(offer.value_usd);
  if (value) head.append(el("span", "ch-offer-value", value));
  card.append(head);
  if (offer.text) card.append(el("p", "", String(offer.text)));
  if (offer.redemption_instruction) {
    card.append(el("p", "ch-offer-how", `How to redeem: ${offer.redemption_instruction}`));
  }
  return card;
}

function fieldOrder(a, b) {
  const ia = FIELD_ORDER.indexOf(a);
  const ib = FIELD_ORDER.indexOf(b);
  if (ia >= 0 && ib >= 0) return ia - ib;
  if (ia >= 0) return -1;
  if (ib >= 0) return 1;
  return a.localeCompare(b);
}

function renderKnows(profile, extracted, el) {
  const panel = el("details", "ch-knows");
  panel.open = true;
  panel.append(el("summary", "", "What the host knows"));

  const complete = percent(profile.completeness);
  if (complete !== null) {
    const meter = el("div", "ch-meter");
    const label = el("div", "ch-meter-label");
    label.append(el("span", "", "Profile completeness"), el("strong", "", `${complete}%`));
    const track = el("div", "ch-meter-track");
    track.setAttribute("role", "progressbar");
    track.setAttribute("aria-label", "Profile completeness");
    track.setAttribute("aria-valuemin", "0");
    track.setAttribute("aria-valuemax", "100");
    track.setAttribute("aria-valuenow", String(complete));
    const fill = el("div", "ch-meter-fill");
    fill.style.width = `${complete}%`;
    track.append(fill);
    meter.append(label, track);
    panel.append(meter);
  }

  const facts = el("dl", "ch-facts");
  const fact = (name, value, alert = false) => {
    const dd = el("dd", "", value);
    if (alert) dd.dataset.alert = "true";
    facts.append(el("dt", "", name), dd);
  };
  if (profile.phase) fact("Phase", PHASES[profile.phase] || sentence(profile.phase));
  if (profile.offers_sent !== undefined && profile.offers_sent !== null) fact("Offers made", String(profile.offers_sent));
  if (profile.escalations !== undefined && profile.escalations !== null) {
    fact("Escalations", String(profile.escalations), Number(profile.escalations) > 0);
  }
  if (profile.responsible_gaming) fact("Gaming", "Responsible gaming flag: no gaming offers", true);
  if (facts.childNodes.length) panel.append(facts);

  const fields = profile.fields && typeof profile.fields === "object" ? profile.fields : {};
  const paths = Object.keys(fields).sort(fieldOrder);
  if (!paths.length) {
    panel.append(el("p", "ch-empty", "Nothing learned about the guest yet."));
    return panel;
  }
  const list = el("ul", "ch-fields");
  list.setAttribute("aria-label", "Profile fields");
  for (const path of paths) {
    const field = fields[path] && typeof fields[path] === "object" ? fields[path] : { value: fields[path] };
    const item = el("li", "ch-field");
    item.dataset.path = path;
    const learned = Object.prototype.hasOwnProperty.call(extracted, path);
    item.dataset.new = String(learned);
    item.append(el("span", "ch-field-name", fieldLabel(path)));
    item.append(el("span", "ch-field-value", formatValue(field.value, path)));
    const confidence = percent(field.confidence);
    if (confidence !== null) {
      const conf = el("span", "ch-field-conf", `${confidence}%`);
      conf.title = field.source ? `Confidence; ${sentence(field.source).toLowerCase()}` : "Confidence";
      item.append(conf);
    }
    if (learned) {
      const tag = el("span", "ch-field-new", "new");
      tag.title = "Learned this turn";
      item.append(tag);
    }
    list.append(item);
  }
  panel.append(list);
  return panel;
}

export function renderSources(data, container, helpers) {
  ensureStyles();
  const { el } = helpers;
  if (!data || typeof data !== "object") return;
  const parts = smsOf(data);
  const profile = data.profile && typeof data.profile === "object" ? data.profile : null;
  if (!parts.length && !profile) {
    // Not a casino host turn as this module knows it: the shell's usual rendering.
    const chips = helpers.documentChips(data.documents, data.sources);
    if (chips) container.append(chips);
    return;
  }
  const turn = el("div", "ch-turn");
  const side = el("div", "ch-phone-wrap");
  if (parts.length) {
    const phone = renderPhone(data, parts, el);
    // Each sentence's sources as numbered marks in the SMS (a mark opens the catalog item at
    // the line it rests on), and the items as chips: what a guest is told, checked by staff.
    if (typeof helpers.markCitations === "function") {
      helpers.markCitations(phone.querySelector(".ch-sms-list"), data);
    }
    const chips = helpers.documentChips(data.documents, data.sources);
    if (chips) phone.append(chips);
    const badges = renderBadges(data, el);
    if (badges) phone.append(badges);
    if (data.offer && typeof data.offer === "object") phone.append(renderOffer(data.offer, el));
    turn.append(phone);
  } else {
    const badges = renderBadges(data, el);
    if (badges) side.append(badges);
    if (side.childNodes.length) turn.append(side);
  }
  if (profile) {
    const extracted = data.extracted && typeof data.extracted === "object" ? data.extracted : {};
    turn.append(renderKnows(profile, extracted, el));
  }
  container.append(turn);
}
