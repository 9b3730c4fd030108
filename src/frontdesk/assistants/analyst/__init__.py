"""The SQL data analyst (seed 002): orchestrator, SQL graph agent, join-path planning, secure views."""
