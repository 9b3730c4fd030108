"""The analyst's prompts and fixed replies.

Written for a small local model first: short instructions, the schema as `table(col, col, …)`
lines, the join plan spelled out as SQL, and one thing asked per call. Values are filled with
`agentkit.prompts.render`, so user text cannot break a template.
"""

from __future__ import annotations

from string import Template

ROUTER = Template(
    """Classify the user's message for a field-service company's assistant.
- sql: a question answered from the company's data (counts, lists, totals, who/which/when \
about technicians, customers, work orders, invoices, inspections, parts...).
- rag: how to use the CrewOS application (how do I, where is, what does a setting or status \
mean, rules of the application).
- general: anything else (general knowledge, concepts, greetings, chit-chat).

Message: $message"""
)

SQL_SYSTEM = Template(
    """You write one $dialect SELECT query that answers the user's question.
Rules:
- Use only the tables and columns listed below, spelled exactly as listed.
- Join tables only on the relationships given.
- Read-only: a single SELECT (or WITH ... SELECT); never INSERT, UPDATE, DELETE or DDL.
- Return at most $max_rows rows; add ORDER BY when the question asks for a ranking.
- Reply with the SQL only, no explanation."""
)

SQL_GENERATION = Template(
    """${examples}Schema:
$schema

Relationships (table.column = table.column):
$relationships

Join plan for the tables the question names (join another table only for a column the \
question needs from it):
$join_plan
$history
Question: $question
SQL:"""
)

FOLLOW_UP_HINT = Template(
    """
This question follows up the previous one: "$previous_question"
The SQL that answered it:
$previous_sql
Change that SQL to answer the follow-up: keep its tables and joins, and change only what the \
follow-up asks for (a filter value, the grouping, the order, the columns)."""
)

EMPTY_RESULT_HINT = Template(
    """
Your previous query returned no rows:
$previous_sql
If a filter value was guessed (a status, a name, a date format), check it against the sample \
values and write the query again."""
)

CORRECTION_SYSTEM = Template(
    """You fix a $dialect SELECT query that failed. Reply with the corrected SQL only.
Use only the tables and columns listed; keep it a single read-only SELECT."""
)

CORRECTION = Template(
    """Question: $question

Failed SQL:
$sql

Error:
$error

Tables used (all their columns):
$schema

Relationships between them:
$relationships
$history
Corrected SQL:"""
)

ANSWER_SYSTEM = """You answer a question from the result of a database query.
Use only the values in the result. One or two sentences. Do not show SQL."""

ANSWER = Template(
    """Question: $question

Result ($row_count rows$truncated):
$rows

Answer:"""
)

RAG_SYSTEM = """You answer questions about using the CrewOS field-service application, from \
its user manual. Use only the manual excerpts given. Name the menu path or the steps when the \
manual gives them. If the excerpts do not answer the question, say so in one sentence."""

RAG_TURN = Template(
    """Manual excerpts:
$context

Question: $question"""
)

GENERAL_SYSTEM = """You are a helpful assistant inside a field-service company's data analyst \
tool. Answer general questions briefly and accurately. You have no live data (no weather, \
news or prices); say so when asked. For questions about the company's data, the user can ask \
them directly and you will query the database."""

# -- fixed replies: facts the model must not retell wrongly -----------------------------------

EMPTY = Template(
    "The query ran but found no rows for that question, so there is nothing to report. "
    "Try a wider filter (another date range or status)."
)
FAILED = Template(
    "I could not write a query that runs for this question; the last try failed because "
    "$reason. $hint"
)
# Why a query did not run, in the user's words, by the kind the checker or the executor gave
# (sql/check.py, sql/executor.py). The technical message stays in the SQL report for the UI's
# details; it never goes into the answer.
SQL_PROBLEMS = {
    "syntax": "the query was not valid SQL",
    "unknown_table": "it named a table that does not exist",
    "unknown_column": "a column name was wrong",
    "schema": "a table or column name in it was wrong",
    "timeout": "the query took too long and was stopped",
    "invalid": "the query could not be read as one SELECT statement",
    "unsupported": "it used a feature this database cannot run",
    "unsafe": "it was not a read-only query",
    "personal": "it needed personal data your account may not read",
    "connection": "the database could not be reached",
    "other": "the database could not run the query as written",
}
SQL_PROBLEM_UNKNOWN = "of a problem I could not identify"
_HINTS = {
    "timeout": "Try a narrower question, such as a shorter date range or fewer details.",
    "connection": "Please try again in a moment.",
}
_DEFAULT_HINT = "Try naming the table or the columns you mean, or ask in other words."


def sql_problem(kind: str | None, error: str | None = None) -> str:
    """Why a query did not run, as a clause for 'it failed because ...'. The validator's
    message (kind "schema") says whether a column or a table was unknown."""
    if kind == "schema" and error:
        first = error.lstrip().split("\n")[0]
        if first.startswith("Column '"):
            kind = "unknown_column"
        elif first.startswith("Table '") and "does not exist" in first:
            kind = "unknown_table"
    return SQL_PROBLEMS.get(kind or "", SQL_PROBLEM_UNKNOWN)


def failed_answer(kind: str | None, error: str | None = None) -> str:
    """The answer when the SQL agent gave up: what went wrong in the user's terms."""
    hint = _HINTS.get(kind or "", _DEFAULT_HINT)
    return FAILED.substitute(reason=sql_problem(kind, error), hint=hint)


# The caller may not read decrypted personal data (frontdesk.agentkit.permissions).
PERSONAL_DATA = (
    "That needs personal data (names, e-mails, phone numbers, addresses or notes), which your "
    "account may not read. I can answer with counts or other fields instead."
)
# The same, for a query a person wrote (POST /analyst/sql/run and /csv).
PERSONAL_DATA_SQL = (
    "This query reads personal data (names, e-mails, phone numbers, addresses or notes), which "
    "your account may not read. Leave those columns out, or count rows instead."
)
# One sentence (issue 34): the refusal, and what can be asked instead.
REFUSED = (
    "I only read data, so I cannot change, delete or add anything in the database, but I can "
    "answer questions about it."
)
DATABASE_DOWN = "The database is not reachable right now. Please try again in a moment."
NO_LIVE_DATA = (
    "I have no live data such as the weather, news, prices or scores. I can answer questions "
    "about the company's data, or about how the system works from its manual."
)
NO_SECRETS = (
    "I don't have passwords, PINs or access codes, and I would not give them out: they are in "
    "none of the data I read. Your IT or site administrator can help. I can answer questions "
    "about the company's data, or about how the system works from its manual."
)
NO_MANUAL = (
    "The user manual does not cover that. I can answer questions about using CrewOS "
    "(customers, work orders, scheduling, inspections, invoicing) or query the data."
)
GUARDED = (
    "I can't help with that request. I answer questions about the company's data and how to "
    "use CrewOS, and I only ever read data."
)

# The chat model failed (timed out, crashed) while writing a manual or general answer.
MODEL_UNAVAILABLE = (
    "I could not write an answer just now: the language model did not respond. Please try "
    "again in a moment; questions about the data may still work."
)
MANUAL_EXCERPT = (
    "The language model did not respond, so here is the most relevant part of the manual:\n\n"
    "$excerpt"
)
