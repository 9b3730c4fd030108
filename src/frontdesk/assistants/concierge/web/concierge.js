// The resort concierge's part of the web chat (see the renderer interface in the shell's
// renderers.js): its welcome, topic chips named as a guest would, and the items it used.

// Topics a guest would pick from; the others (greeting, off_topic...) are routes, not topics.
const CHIP_TOPICS = ["restaurants", "entertainment", "hotel", "amenities", "gaming", "promotions", "faq"];

export function welcome(assistant) {
  const name = (assistant.info && assistant.info.name) || "the resort";
  return {
    title: "How can I help you today?",
    text: `I'm the virtual concierge for ${name}. Ask me anything, or start with a topic:`,
    hint: "Answers come from the property's own information.",
  };
}

export function topicChips(assistant) {
  const topics = assistant.topics || {};
  const categories = (assistant.info && assistant.info.categories) || [];
  // The property's own categories (what it has), named as its topics say.
  const keys = categories.length ? categories : CHIP_TOPICS;
  return keys.map((key) => {
    const label = topics[key] || humanize(key);
    return { label, prompt: `What can you tell me about ${label.toLowerCase()}?` };
  });
}

function humanize(key) {
  const text = String(key).replace(/[_-]+/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// The items the answer drew on (a restaurant, a show), each opening its description; never
// the categories they were filed under.
export function renderSources(data, container, helpers) {
  const chips = helpers.documentChips(data.documents, data.items, "Sources");
  if (chips) container.append(chips);
}
