"""The SQL data analyst (seed 002).

The top level is the orchestrator and what the product calls (`service`, `graph`, `nodes`,
`state`, `prompts`, `evaluation`); its parts are subpackages: `sql_agent` (the SQL graph
agent), `sql` (checks, rewrites, repairs, execution), `joins` (join graph and plans), `db`
(engines, secure views, encryption) and `demo` (the demo database).
"""
