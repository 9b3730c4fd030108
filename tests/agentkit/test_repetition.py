"""A looping model's answer keeps each sentence once; code blocks are left whole."""

from __future__ import annotations

from frontdesk.agentkit.repetition import repeats, without_repeats

LOOP = (
    "The snippet defines a class that decodes payloads. It is used by the guard.\n\n"
    "To answer the question, we need to find the module.\n\n"
    "The snippet defines a class that decodes payloads. It is used by the guard.\n\n"
    "To answer the question, we need to find the module. The snippet defines a class that dec"
)


def test_a_looping_answer_keeps_each_sentence_once_and_drops_the_cut_off_copy():
    assert repeats(LOOP)
    assert without_repeats(LOOP) == (
        "The snippet defines a class that decodes payloads. It is used by the guard.\n\n"
        "To answer the question, we need to find the module."
    )


def test_an_answer_without_repeats_is_unchanged():
    text = "It reads the file. Then it parses each line.\n\nShort. Short."
    assert not repeats(text)
    assert without_repeats(text) == text


def test_repeated_lines_inside_a_code_block_are_code():
    text = "Set it twice:\n\n```python\nx = compute_the_value()\nx = compute_the_value()\n```"
    assert not repeats(text)
    assert without_repeats(text) == text
