"""What the model reads, and the fixed replies that need no model."""

from __future__ import annotations

from string import Template

SYNTHESIS_SYSTEM = """You answer a developer's question about a code repository, using only \
the code excerpts given. Each excerpt starts with [path:start-end]. Explain in a few \
sentences what the code does and where, and cite the lines you rely on as path:start-end, \
for example src/app/client.py:40-52. Name functions and classes exactly as the code writes \
them. If the excerpts do not answer the question, say so; never invent a file or a function."""

SYNTHESIS = Template(
    """Repository map (the most used definitions):
$codebase_tree

Code excerpts:
$context
$history
Question: $question"""
)

HISTORY = Template(
    """
Earlier in this conversation:
$turns
"""
)

BLOCKED = (
    "I can't help with that request. Ask me about the code in this repository: where "
    "something is defined, how it works, or what calls it."
)
NOT_FOUND = Template(
    "I could not find code about that in the repository $repo. Try naming a function, class "
    "or file, or describe what the code does in other words."
)
NOT_FOUND_NAMED = Template("$name is not defined anywhere in the repository $repo.")
NOT_MENTIONED = Template(
    "Nothing in the repository $repo mentions $words, in its code, tests or docs: no code "
    "there does it."
)
MENTIONED_ONLY_IN = Template(
    "The words of the question appear in the repository $repo only outside its code, in "
    "$files: no code there does it."
)
NO_HISTORY = "We have not talked about anything yet in this conversation."
HISTORY_LIST = Template("You asked:\n$questions")
MODEL_UNAVAILABLE = Template(
    "I could not write an explanation just now (the language model did not answer), but this "
    "is the code that matches your question:\n$places"
)
