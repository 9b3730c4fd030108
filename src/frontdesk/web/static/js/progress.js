// The status line shown in an answer's bubble until its first words arrive (the place in the
// model's queue, then the route, tool and steps the assistant reports), and after them while
// the rest of the answer is being checked.

import { humanize } from "./dom.js";

export function queueText(data) {
  // `position` is this turn's place in the model's queue (1: next to run); 0 once it runs.
  const position = Number(data.position);
  if (!Number.isFinite(position) || position < 0) return "Waiting for the model…";
  if (position === 0) return "Working on it…";
  if (position === 1) return "Waiting for the model: you're next";
  return `Waiting for the model: ${position - 1} ahead of you`;
}

// topicName(route) names a route as a person would.
export function genericProgressText(data, message, topicName) {
  switch (data && data.stage) {
    case "queue":
      return queueText(data);
    case "checking":
      // Text with a time, price or name waits until it is checked against the sources.
      return "Checking the details before showing them…";
    case "route":
      return data.route ? `Looking into ${topicName(data.route).toLowerCase()}…` : "Thinking…";
    case "tool":
      return data.tool ? `${humanize(data.tool)}…` : "Working on it…";
    case "step":
      return data.step ? `${humanize(data.step)}…` : message.progress || "Working on it…";
    default:
      return message.progress || "Working on it…";
  }
}
