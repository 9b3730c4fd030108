"""The SQL graph agent: from a question to SQL, rows and a checked answer.

`graph` wires the agent's LangGraph (select tables, plan joins, generate, rewrite, validate,
execute, correct, summarize); `nodes` are its steps; `toolkit` (`SQLToolkit`) is one database as
the agent sees it and everything deterministic it does there; `table_search` pre-filters the
tables by embedding; `answers` writes the reply from the rows and checks it against them.

Uses `sql`, `joins` and `db`, and the orchestrator's shared `state` and `prompts`; the
orchestrator (`service`, `graph`, `nodes`, `evaluation`) calls it, never the other way round.
"""
