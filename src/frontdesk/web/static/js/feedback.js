// Thumbs up or down on an answer, with an optional comment, sent to POST /feedback.
// A thumb opens a small form (the comment is optional); "Send feedback" sends both.

import { button, el } from "./dom.js";

const MAX_COMMENT_CHARS = 1000;

// Drawn as SVG, not emoji: a system without an emoji font would show empty boxes.
const THUMB_UP = "M7 10v10H4V10h3zm2 10h8.2a2 2 0 0 0 2-1.6l1.2-6A2 2 0 0 0 18.4 10H14l.8-3.8A1.6 1.6 0 0 0 13.2 4L9 10v10z";
const THUMBS = [
  { rating: "up", label: "Good answer", flip: false },
  { rating: "down", label: "Bad answer", flip: true },
];

function thumbIcon(flip) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "14");
  svg.setAttribute("height", "14");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  if (flip) svg.setAttribute("transform", "rotate(180)");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", THUMB_UP);
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", "currentColor");
  path.setAttribute("stroke-width", "1.8");
  path.setAttribute("stroke-linejoin", "round");
  svg.append(path);
  return svg;
}

// send(rating, comment) -> Promise<boolean> (true once stored).
export function feedbackControls(message, send) {
  const wrap = el("div", "feedback");
  const thumbs = THUMBS.map(({ rating, label, flip }) => {
    const thumb = button("", "icon-button thumb", () => openForm(rating), { title: label, ariaLabel: label });
    thumb.append(thumbIcon(flip));
    thumb.dataset.rating = rating;
    thumb.setAttribute("aria-pressed", String(message.feedback === rating));
    return thumb;
  });
  wrap.append(...thumbs);
  let form = null;

  function openForm(rating) {
    if (form) form.remove();
    for (const thumb of thumbs) thumb.setAttribute("aria-pressed", String(thumb.dataset.rating === rating));
    form = el("form", "feedback-form");
    const id = `feedback-${Math.random().toString(36).slice(2)}`;
    const label = el("label", "", rating === "up" ? "What was good? (optional)" : "What could be better? (optional)");
    label.htmlFor = id;
    const comment = el("textarea");
    comment.id = id;
    comment.rows = 2;
    comment.maxLength = MAX_COMMENT_CHARS;
    const sendButton = el("button", "small-button primary", "Send feedback");
    sendButton.type = "submit";
    const cancel = button("Cancel", "small-button", () => {
      form.remove();
      form = null;
      for (const thumb of thumbs) thumb.setAttribute("aria-pressed", String(message.feedback === thumb.dataset.rating));
    });
    const status = el("span", "feedback-status");
    status.setAttribute("role", "status");
    const buttons = el("div", "feedback-buttons");
    buttons.append(sendButton, cancel, status);
    form.append(label, comment, buttons);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      sendButton.disabled = true;
      const ok = await send(rating, comment.value.trim());
      if (ok) {
        message.feedback = rating;
        const thanks = el("p", "feedback-thanks", "Thanks for your feedback.");
        thanks.setAttribute("role", "status");
        form.replaceWith(thanks);
        form = null;
      } else {
        sendButton.disabled = false;
        status.textContent = "Couldn't send it. Please try again.";
      }
    });
    (wrap.closest(".message-actions") || wrap).after(form);
    comment.focus();
  }
  return wrap;
}
