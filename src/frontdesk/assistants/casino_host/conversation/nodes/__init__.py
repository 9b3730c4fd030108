"""The casino host's 13 nodes (feature map WP2 item 1), by part of the turn:

- `gate`: compliance_gate;
- `understanding`: router, greeting_node, off_topic_node;
- `planning`: handoff_router, whisper_planner;
- `agents`: host_agent, dining_agent, entertainment_agent, comp_agent;
- `checks`: validate_node (grounding and offer verification);
- `reply`: persona_envelope, fallback_node.

Nodes are functions of (state, runtime) returning updates; the routing functions live in
`routing.py`. Node names are the constants of `routing.py`.
"""
