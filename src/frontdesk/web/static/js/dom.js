// Small DOM helpers shared by the shell and the assistants' renderers. Untrusted text only
// ever goes in through textContent (el's third argument): never through innerHTML.

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

export function button(label, className, onClick, { title, ariaLabel } = {}) {
  const node = el("button", className, label);
  node.type = "button";
  if (title) node.title = title;
  if (ariaLabel) node.setAttribute("aria-label", ariaLabel);
  if (onClick) node.addEventListener("click", onClick);
  return node;
}

export function asList(value) {
  return Array.isArray(value) ? value : [];
}

export function compactJson(value) {
  try {
    return JSON.stringify(value === undefined ? null : value);
  } catch (err) {
    return String(value);
  }
}

// "open_refund_case" -> "Open refund case"
export function humanize(name) {
  const text = String(name || "").replace(/[_-]+/g, " ").trim();
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : "";
}

// A v4 UUID; crypto.randomUUID exists only on secure origins (not plain http on a LAN).
export function newThreadId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
