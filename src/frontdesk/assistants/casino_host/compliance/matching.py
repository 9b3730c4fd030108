"""Building blocks shared by every compliance layer: the pattern type and the bounded views of a
message that patterns are matched against.

Why Python's `re` and not RE2 or `regex`: `google-re2` and `regex` both install from PyPI here,
but either would be a new run-time dependency for 100-odd short patterns, and RE2 cannot express
the negative lookaheads the seed itself relies on (`inj_act_as` exempts "act as a guide").
Instead every pattern here is written to run in linear time on `re`:

* no nested or overlapping quantifiers (`(a+)+`, `[\\w\\s]+\\s+`): repeated groups are bounded
  (`(?:\\w+\\s+){0,2}`) and made of disjoint character classes, so there is one way to parse;
* the seed's unbounded `.*` gaps are bounded (`[^.?!\\n]{0,60}`) to one clause;
* the text is capped: at most `CHECKED_CHARS` normalised characters are matched, and a longer
  message is matched on its head and on its tail separately (see `matching_windows`).

With those three rules the worst case is a small constant times the capped length, whatever
the guest sends; `tests/casino_host/test_compliance.py` feeds a 100 kB adversarial message.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from frontdesk.guardrails.normalize import deobfuscate, normalize_text

# Normalised characters matched per window. An SMS is at most 1,600 characters (10 segments)
# at every provider we support, so a real message is always matched whole.
CHECKED_CHARS = 2_000
# Raw characters normalised per window. Larger than CHECKED_CHARS so that invisible characters
# an attacker pads a phrase with ("ig\u200bnore") are removed before the cap is applied.
RAW_WINDOW_CHARS = 8 * CHECKED_CHARS

FLAGS = re.IGNORECASE

# Layer names; the seed's five layers plus the three families the feature map adds (item 12,
# D27). They double as the labels of the evaluation files.
INJECTION = "injection"
RESPONSIBLE_GAMING = "responsible_gaming"
AGE_VERIFY = "age_verify"
BSA_AML = "bsa_aml"
PATRON_PRIVACY = "patron_privacy"
PII = "pii"
EMERGENCY = "emergency"
SELF_HARM = "self_harm"


def compile_pattern(source: str) -> re.Pattern[str]:
    """Compile once at import, case-insensitive (the views are case-folded anyway)."""
    return re.compile(source, FLAGS)


@dataclass(frozen=True, slots=True)
class Pattern:
    """One named check of a layer. `language` is the language the wording belongs to ("en",
    "es") or None for language-neutral checks (digits, "911"); the gate uses it to answer in the
    guest's language. `annotate_only` marks checks that note a fact for the graph (a child in
    the party) without ending the turn."""

    layer: str
    pattern_id: str
    language: str | None
    regex: re.Pattern[str] | None = None
    # For checks a regex cannot express alone (a Luhn checksum): called with a view.
    matcher: Callable[[str], bool] | None = None
    annotate_only: bool = False

    def search(self, view: str) -> bool:
        if self.matcher is not None:
            return self.matcher(view)
        if self.regex is None:
            raise ValueError(f"pattern {self.pattern_id} has neither a regex nor a matcher")
        return self.regex.search(view) is not None


def regex_pattern(
    layer: str, pattern_id: str, language: str | None, source: str, *, annotate_only: bool = False
) -> Pattern:
    return Pattern(
        layer=layer,
        pattern_id=pattern_id,
        language=language,
        regex=compile_pattern(source),
        annotate_only=annotate_only,
    )


def _windows(text: str, view: Callable[[str], str]) -> tuple[str, ...]:
    """The capped views of `text`: the whole message when it is short, else its head and its
    tail, each normalised separately (so no phrase is made up across the cut)."""
    if len(text) <= RAW_WINDOW_CHARS:
        folded = view(text)
        if len(folded) <= CHECKED_CHARS:
            return (folded,)
        return (folded[:CHECKED_CHARS], folded[-CHECKED_CHARS:])
    head = view(text[:RAW_WINDOW_CHARS])[:CHECKED_CHARS]
    tail = view(text[-RAW_WINDOW_CHARS:])[-CHECKED_CHARS:]
    return (head, tail)


def matching_windows(text: str) -> tuple[str, ...]:
    """Accent-, case- and look-alike-folded windows (the core guard's `normalize_text`)."""
    return _windows(text, normalize_text)


def deobfuscated_windows(text: str) -> tuple[str, ...]:
    """Windows with leetspeak undone and spaced-out letters joined ("1gn0re" -> "ignore").
    Only the injection layer uses them: undoing leetspeak elsewhere would read digits as
    letters in ordinary messages."""
    return _windows(text, deobfuscate)
