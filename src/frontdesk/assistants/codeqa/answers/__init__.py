"""Writing the answer: prompts' context, and citations checked against what was retrieved."""
