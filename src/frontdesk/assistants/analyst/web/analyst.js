// The data analyst's part of the web chat (see the renderer interface in the shell's
// renderers.js): the SQL agent's steps as progress, the SQL that ran (folded), its rows as a
// table, and the manual pages an answer drew on (each opening its text).

// At most this many rows are drawn (the server's own cap too).
const MAX_TABLE_ROWS = 100;
// A cell with more text than this wraps instead of widening the table.
const LONG_CELL_CHARS = 48;

export function welcome(assistant) {
  const name = (assistant.info && assistant.info.name) || "data analyst";
  return {
    title: "What would you like to know?",
    text: `I'm your ${name}. Ask about your business data, or how the app works:`,
    hint: "Answers come from the database and its documentation.",
  };
}

const EXAMPLES = {
  sql: "How many work orders are open?",
  rag: "How do I reopen a work order?",
};

export function topicChips(assistant) {
  const topics = assistant.topics || {};
  return Object.entries(EXAMPLES).map(([route, prompt]) => ({ label: topics[route] || route, prompt }));
}

export function progressText(data, message) {
  if (!data || data.stage !== "step") return null;
  switch (data.step) {
    case "select_tables":
      return "Querying the database… · choosing tables";
    case "generate_sql":
      return "Querying the database… · writing SQL";
    case "execute":
      return message.corrections ? "Running the corrected query…" : "Running the query…";
    case "correct_sql":
      // The first correction is the second attempt at the query.
      message.corrections = (message.corrections || 0) + 1;
      return `Fixing the SQL (attempt ${message.corrections + 1})…`;
    default:
      return null;
  }
}

const isNumber = (value) => typeof value === "number" && Number.isFinite(value);
const isEmpty = (value) => value === null || value === undefined;

function cellValue(row, column, index) {
  if (Array.isArray(row)) return row[index];
  return row && typeof row === "object" ? row[column] : undefined;
}

function renderSql(sql, helpers) {
  const details = helpers.el("details", "sql-block");
  details.append(helpers.el("summary", "", "SQL that ran"));
  const pre = helpers.el("pre");
  pre.append(helpers.el("code", "", sql));
  details.append(pre);
  return details;
}

function renderTable(columns, rows, truncated, helpers) {
  const { el } = helpers;
  const shown = rows.slice(0, MAX_TABLE_ROWS);
  const values = shown.map((row) => columns.map((column, i) => cellValue(row, column, i)));
  // A column is numeric (right-aligned, header too) when every value in it is a number.
  const numeric = columns.map((_, index) => {
    const present = values.map((cells) => cells[index]).filter((v) => !isEmpty(v));
    return present.length > 0 && present.every(isNumber);
  });
  const wrap = el("div", "result-table-wrap");
  wrap.tabIndex = 0; // scrollable sideways by keyboard
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", "Query result");
  const table = el("table", "result-table");
  const more = truncated || rows.length > MAX_TABLE_ROWS;
  const count = shown.length === 1 ? "1 row" : `${shown.length} rows`;
  table.append(el("caption", "", more ? `first ${shown.length} rows` : count));
  const head = el("tr");
  columns.forEach((column, index) => {
    const th = el("th", numeric[index] ? "num" : "", column);
    th.scope = "col";
    head.append(th);
  });
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const cells of values) {
    const tr = el("tr");
    cells.forEach((value, index) => {
      const text = isEmpty(value) ? "—" : typeof value === "object" ? helpers.compactJson(value) : String(value);
      const classes = [numeric[index] ? "num" : "", isEmpty(value) ? "null" : "",
        text.length > LONG_CELL_CHARS ? "long" : ""].filter(Boolean).join(" ");
      tr.append(el("td", classes, text));
    });
    tbody.append(tr);
  }
  table.append(thead, tbody);
  wrap.append(table);
  return wrap;
}

export function renderSources(data, container, helpers) {
  const sql = typeof data.sql === "string" ? data.sql.trim() : "";
  const columns = (Array.isArray(data.columns) ? data.columns : []).map(String);
  const rows = Array.isArray(data.rows) ? data.rows : [];
  if (sql || columns.length) {
    const block = helpers.el("div", "query-result");
    if (sql) block.append(renderSql(sql, helpers));
    if (columns.length) block.append(renderTable(columns, rows, Boolean(data.truncated), helpers));
    container.append(block);
  }
  // Manual pages: "Work orders — Reopening", each opening the page's text.
  const chips = helpers.documentChips(data.documents, data.sources, "From the manual");
  if (chips) container.append(chips);
}
