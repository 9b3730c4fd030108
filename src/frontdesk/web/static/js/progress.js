// The status line shown in an answer's bubble until its first words arrive: the place in the
// model's queue, then the route, tool and steps the assistant reports.

import { humanize } from "./dom.js";

export function queueText(data) {
  // `position` counts the turns ahead of this one (0: next to run).
  const ahead = Number(data.position ?? data.ahead);
  if (!Number.isFinite(ahead) || ahead <= 0) return "Waiting for the model: you're next";
  return `Waiting for the model: ${ahead} ahead of you`;
}

// topicName(route) names a route as a person would.
export function genericProgressText(data, message, topicName) {
  switch (data && data.stage) {
    case "queue":
      return queueText(data);
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
