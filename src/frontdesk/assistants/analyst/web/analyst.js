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

// ---------- the query under an answer: its SQL, edit and run again, download as CSV ----------

const RUN_URL = "/analyst/sql/run";
const CSV_URL = "/analyst/sql/csv";

const SQL_LABELS = {
  ran: "SQL that ran",
  edited: "SQL that ran (edited)",
  failed: "Last SQL tried: it failed, so nothing ran",
  refused: "SQL not run: it was refused",
  stopped: "Last SQL written: time ran out before it ran",
};
// What the edit button says: change a result's query, or fix (or run) one that gave none.
const EDIT_LABELS = { ran: "Edit SQL", stopped: "Edit and run the SQL" };

const sentence = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : "");

// POST `{sql}` to one of the analyst's SQL routes: {ok, status, response, body}.
async function postSql(url, sql) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/csv" },
    body: JSON.stringify({ sql }),
  });
  const json = (response.headers.get("content-type") || "").includes("json");
  const body = json ? await response.json().catch(() => null) : null;
  return { ok: response.ok, status: response.status, response, body };
}

// What to tell a person when a run or a download did not work.
function failureText(status, body) {
  if ((status === 400 || status === 403 || status === 503) && body && body.error) return body.error;
  if (status === 422) return "That SQL is too long or not valid to send.";
  if (status === 429) return "Too many requests just now. Please wait a moment and try again.";
  if (status === 401) return "Your session has expired. Reload the page and try again.";
  return "Sorry, that did not work. Please try again.";
}

function renderSql(view, helpers) {
  const { el } = helpers;
  const status = view.status || "ran";
  const details = el("details", `sql-block sql-${status}`);
  details.append(el("summary", "", SQL_LABELS[status] || SQL_LABELS.ran));
  if (view.problem && status !== "ran" && status !== "edited") {
    details.append(el("p", "sql-problem", `Why: ${view.problem}.`));
  }
  const pre = el("pre");
  pre.append(el("code", "", view.sql));
  details.append(pre);
  if (view.errors.length) {
    // The database's and the checker's own words: for whoever wants to fix the SQL.
    const debug = el("details", "sql-debug");
    debug.append(el("summary", "", "Technical details"));
    const list = el("pre");
    list.append(el("code", "", view.errors.join("\n\n")));
    debug.append(list);
    details.append(debug);
  }
  return details;
}

function renderOutput(view, helpers) {
  const output = helpers.el("div", "query-output");
  if (view.columns.length) output.append(renderTable(view.columns, view.rows, view.truncated, helpers));
  return output;
}

async function downloadCsv(view, button, note) {
  button.disabled = true;
  note.textContent = "Preparing the file…";
  try {
    const { ok, status, response, body } = await postSql(CSV_URL, view.written);
    if (!ok) {
      note.textContent = failureText(status, body);
      return;
    }
    const blob = await response.blob();
    const disposition = response.headers.get("Content-Disposition") || "";
    const named = /filename="([^"]+)"/.exec(disposition);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = named ? named[1] : "analyst-result.csv";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
    const rows = Number(response.headers.get("X-Result-Rows")) || 0;
    const limit = response.headers.get("X-Row-Limit");
    note.textContent = response.headers.get("X-Result-Truncated") === "true"
      ? `Downloaded the first ${rows} rows: downloads stop at ${limit} rows.`
      : `Downloaded ${rows === 1 ? "1 row" : `${rows} rows`}.`;
  } catch (err) {
    note.textContent = "The download did not work. Please try again.";
  } finally {
    button.disabled = false;
  }
}

function renderEditor(view, helpers, onResult) {
  const { el, button } = helpers;
  const form = el("form", "sql-editor");
  form.hidden = true;
  const id = `sql-edit-${Math.random().toString(36).slice(2, 10)}`;
  form.id = `${id}-form`;
  const label = el("label", "sql-editor-label", "Edit the SQL, then run it (read-only, like every query here)");
  label.htmlFor = id;
  const area = el("textarea");
  area.id = id;
  area.rows = 5;
  area.spellcheck = false;
  area.value = view.written;
  const status = el("p", "sql-run-status");
  status.setAttribute("role", "status");
  const run = button("Run", "small-button primary");
  run.type = "submit";
  const cancel = button("Cancel", "small-button", () => close());
  const actions = el("div", "sql-editor-actions");
  actions.append(run, cancel);
  form.append(label, area, actions, status);
  // Ctrl/Cmd+Enter runs it, as in most SQL editors.
  area.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) form.requestSubmit();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const sql = area.value.trim();
    if (!sql) {
      status.textContent = "Write one SELECT query first.";
      status.className = "sql-run-status failed";
      return;
    }
    run.disabled = true;
    status.className = "sql-run-status";
    status.textContent = "Running…";
    try {
      const { ok, status: code, body } = await postSql(RUN_URL, sql);
      if (!ok || !body) {
        status.textContent = failureText(code, body);
        status.className = "sql-run-status failed";
        return;
      }
      const count = body.row_count === 1 ? "1 row" : `${body.row_count} rows`;
      status.textContent = body.truncated ? `Ran: showing the first ${count}.` : `Ran: ${count}.`;
      onResult(sql, body);
    } catch (err) {
      status.textContent = "The query could not be sent. Please try again.";
      status.className = "sql-run-status failed";
    } finally {
      run.disabled = false;
    }
  });
  const open = (opener) => {
    form.hidden = false;
    opener.setAttribute("aria-expanded", "true");
    area.focus();
  };
  let close = () => { form.hidden = true; };
  return {
    form,
    area,
    bind(opener) {
      opener.setAttribute("aria-expanded", "false");
      opener.setAttribute("aria-controls", form.id);
      close = () => {
        form.hidden = true;
        opener.setAttribute("aria-expanded", "false");
        opener.focus();
      };
      opener.addEventListener("click", () => open(opener));
    },
  };
}

export function renderSources(data, container, helpers) {
  const sql = typeof data.sql === "string" ? data.sql.trim() : "";
  const columns = (Array.isArray(data.columns) ? data.columns : []).map(String);
  if (sql || columns.length) container.append(renderQuery(data, sql, columns, helpers));
  // Manual pages: "Work orders — Reopening", each opening the page's text.
  const chips = helpers.documentChips(data.documents, data.sources, "From the manual");
  if (chips) container.append(chips);
}

// The answer's query; an edited run replaces what it shows (not the stored answer).
function renderQuery(data, sql, columns, helpers) {
  const { el, button } = helpers;
  const written = typeof data.sql_written === "string" && data.sql_written.trim() ? data.sql_written.trim() : sql;
  const view = {
    sql,
    written,
    status: data.sql_status || "ran",
    problem: typeof data.sql_problem === "string" ? data.sql_problem : "",
    errors: (Array.isArray(data.sql_errors) ? data.sql_errors : []).map(String),
    columns,
    rows: Array.isArray(data.rows) ? data.rows : [],
    truncated: Boolean(data.truncated),
  };
  const block = el("div", "query-result");
  let sqlBlock = sql ? renderSql(view, helpers) : null;
  let output = renderOutput(view, helpers);
  const tools = el("div", "query-tools");
  const note = el("span", "query-note");
  note.setAttribute("role", "status");
  const editor = renderEditor(view, helpers, (ranSql, body) => {
    Object.assign(view, {
      sql: body.sql, written: ranSql, status: "edited", problem: "", errors: [],
      columns: body.columns.map(String), rows: body.rows, truncated: Boolean(body.truncated),
    });
    const open = sqlBlock ? sqlBlock.open : false;
    const nextSql = renderSql(view, helpers);
    nextSql.open = open;
    if (sqlBlock) sqlBlock.replaceWith(nextSql);
    else block.prepend(nextSql);
    sqlBlock = nextSql;
    const nextOutput = renderOutput(view, helpers);
    output.replaceWith(nextOutput);
    output = nextOutput;
    csv.hidden = false;
    note.textContent = "";
  });
  const edit = button(EDIT_LABELS[view.status] || "Fix the SQL", "small-button", null, {
    title: "Change the query and run it again",
  });
  editor.bind(edit);
  const csv = button("Download CSV", "small-button", () => downloadCsv(view, csv, note), {
    title: "The whole result as a CSV file (not only the rows shown)",
  });
  csv.hidden = !(view.status === "ran" && columns.length);
  if (written) tools.append(edit);
  tools.append(csv, note);
  if (sqlBlock) block.append(sqlBlock);
  block.append(tools, editor.form, output);
  return block;
}
