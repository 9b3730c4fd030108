"""The conversation: the casino host's graph and what it runs on.

`graph` assembles the nodes (`nodes/`) with the named routing functions (`routing`) over the
turn's state (`state`) and its runtime context (`context`); `extraction/` reads profile fields
from a message before any model, `tools` gives the agents their facts, `composed` writes a
second attempt from those facts, `verification` checks every offer a reply makes, `windowing`
keeps a long conversation's state short, and `escalation` decides when a guest needs a person.
`prompts` holds the host's words, EN and ES.
"""
