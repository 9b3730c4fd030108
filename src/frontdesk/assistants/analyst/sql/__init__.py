"""SQL text and its execution, independent of any model or graph.

Everything here works on sqlglot trees: `check` (the one entry point) refuses anything but a
single read-only SELECT (`safety`), swaps encrypted tables for their secure views and renders
the tree for the target dialect (`rewrite`, `dates`) and resolves every table and column
against a catalog (`schema`); `repair` fixes the column mistakes a small model makes without
asking it again; `executor` runs what passes the same check again, read-only, and `errors`
turns database errors into messages the correction agent can act on.

Depends on `joins` (the relationships `repair` follows) and on nothing else of the analyst.
"""
