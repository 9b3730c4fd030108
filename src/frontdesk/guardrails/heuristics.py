"""Detectors for payloads that no word pattern describes: adversarial suffixes and encoded blobs.

Optimisation attacks such as GCG append a run of tokens that mean nothing to a person but
steer the model, e.g. `Herezak({[HTMLsvg readers | Sure] Sure,].[ githubrelative{[paper`.
Their tell is density: within a dozen tokens there are many *unbalanced* brackets, braces and
backticks, backslashes and dollar signs glued to letters, camelCase splices ("usingSam"), runs
of bare punctuation ("??", "=>") and words that mix scripts ("double運行rač"). Each token gets
an oddness score and a span of tokens whose scores add up past a threshold is flagged.

Balanced brackets cost nothing, so markdown, function calls, JSON and SQL that a user pastes
("`check_status_bar()`", "[Spa] $120", "WHERE GenreId = 1;") stay below the threshold, as do
prices ("$45-$60 (plus 10% fee)"), e-mail addresses and brand names ("PlayStation").
"""

from __future__ import annotations

import re
import unicodedata

from frontdesk.guardrails.normalize import visible_text

_OPENERS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_CLOSERS = {closer: opener for opener, closer in _OPENERS.items()}
_BRACKETS = frozenset("()[]{}<>`")
_ODD_CHARS = _BRACKETS | frozenset("\\^~|$%#@=;")
_BRACKET_CHAR = re.compile(r"[()\[\]{}<>`]")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
# Comparison operators standing alone ("price > 20") are prose, not gibberish.
_OPERATOR_TOKEN = re.compile(r"[<>=!]=?")
# Runs of bare punctuation; pure markdown rules/bullets ("**", "---", "|") are excluded.
_BARE_PUNCTUATION = re.compile(r"[^\w\s]{2,}")
_MARKDOWN_PUNCTUATION = frozenset("*-#|.")
_CAMEL_SPLICE = re.compile(r"[a-z][A-Z]")
_MAX_PER_TOKEN = 2.0
# A span of this many tokens whose oddness adds up to the threshold is a suffix.
_WINDOW_TOKENS = 12
_THRESHOLD = 3.0

_URL_START = re.compile(r"\S*(?:://|www\.|\.(?:com|org|net|io|gl|ly)/)")
_BASE64_BLOB = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{32,}={0,2}(?![A-Za-z0-9+/=])")
_HEX_BLOB = re.compile(r"(?:\\x[0-9a-fA-F]{2}){8,}|\b(?:0x)?(?:[0-9a-fA-F]{2}[ :]?){24,}\b")


def _script(char: str) -> str:
    """Coarse script of a letter: the first word of its Unicode name (LATIN, CJK, ...)."""
    try:
        return unicodedata.name(char).split(" ", 1)[0]
    except ValueError:
        return "UNKNOWN"


def unbalanced_brackets(text: str) -> set[int]:
    """Offsets of brackets and backticks that have no partner. A closer pairs with the
    nearest open bracket of its kind; openers skipped over that way stay unpaired."""
    stack: list[tuple[str, int]] = []
    unpaired: set[int] = set()
    for match in _BRACKET_CHAR.finditer(text):
        char, index = match.group(0), match.start()
        if char in _OPENERS:
            stack.append((char, index))
        elif char in _CLOSERS:
            wanted = _CLOSERS[char]
            for depth in range(len(stack) - 1, -1, -1):
                if stack[depth][0] == wanted:
                    unpaired.update(offset for _, offset in stack[depth + 1 :])
                    del stack[depth:]
                    break
            else:
                unpaired.add(index)
        elif stack and stack[-1][0] == "`":
            stack.pop()
        else:
            stack.append((char, index))
    unpaired.update(offset for _, offset in stack)
    return unpaired


def _char_oddness(token: str, index: int, unpaired: bool) -> float:
    char = token[index]
    if char in _BRACKETS:
        return 1.0 if unpaired else 0.0
    if char in "\\^~":
        return 1.0
    if char == "|":
        return 0.0 if token == "|" else 0.5
    if char in "$%":
        # "$45" and "10%" are prices and rates.
        neighbours = token[max(0, index - 1) : index] + token[index + 1 : index + 2]
        return 0.0 if any(c.isdigit() for c in neighbours) else 1.0
    if char == "#":
        # "#3", "#A12", hashtags and markdown headings ("##") are ordinary; "#{" is not.
        following = token[index + 1 : index + 2]
        return 0.0 if following.isalnum() or set(token) == {"#"} else 0.5
    if char == "@":
        return 0.0 if _EMAIL.fullmatch(token.strip(".,;:!?()<>")) else 0.5
    if char == "=":
        return 0.5
    if char == ";":
        return 0.0 if index == len(token) - 1 else 0.5
    return 0.0


def token_scores(text: str) -> list[tuple[str, float]]:
    """Each whitespace-separated token of `text` with its oddness (0 for prose words)."""
    visible = visible_text(text)
    unpaired = unbalanced_brackets(visible)
    scored = []
    for match in re.finditer(r"\S+", visible):
        token = match.group(0)
        if _OPERATOR_TOKEN.fullmatch(token):
            scored.append((token, 0.0))
            continue
        score = 0.0
        if not _ODD_CHARS.isdisjoint(token):
            score = min(
                _MAX_PER_TOKEN,
                sum(
                    _char_oddness(token, index, match.start() + index in unpaired)
                    for index in range(len(token))
                ),
            )
        if _CAMEL_SPLICE.search(token):
            score += 0.5
        if _BARE_PUNCTUATION.fullmatch(token) and not set(token) <= _MARKDOWN_PUNCTUATION:
            score += 0.5
        # Words that splice scripts together ("packet的功能") are a tokenizer artefact.
        if not token.isascii() and len({_script(c) for c in token if c.isalpha()}) >= 2:
            score += 2.0
        scored.append((token, score))
    return scored


def adversarial_suffix(text: str) -> str | None:
    """The densest span of odd tokens, if it is dense enough to be an optimised suffix."""
    scored = token_scores(text)
    best_start, best_total, total = 0, 0.0, 0.0
    for index, (_, score) in enumerate(scored):
        total += score
        if index >= _WINDOW_TOKENS:
            total -= scored[index - _WINDOW_TOKENS][1]
        if total > best_total:
            best_start, best_total = max(0, index - _WINDOW_TOKENS + 1), total
    if best_total < _THRESHOLD:
        return None
    return " ".join(token for token, _ in scored[best_start : best_start + _WINDOW_TOKENS])


def encoded_blob(text: str) -> str | None:
    """A long base64 or hex run: an instruction smuggled past word filters."""
    visible = visible_text(text)
    for match in _BASE64_BLOB.finditer(visible):
        blob = match.group(0)
        token_start = visible.rfind(" ", 0, match.start()) + 1
        if _URL_START.match(visible, token_start):  # Document IDs in shared links.
            continue
        digits = sum(char.isdigit() for char in blob)
        upper = sum(char.isupper() for char in blob)
        lower = sum(char.islower() for char in blob)
        # Base64 of text mixes digits with both cases; a long word, code or URL path does not.
        if digits >= 2 and upper >= 4 and lower >= 4:
            return blob[:80]
    for match in _HEX_BLOB.finditer(visible):
        blob = match.group(0)
        # Hex-encoded text mixes digits and a-f letters; "aaaa..." or a phone number does not.
        if sum(char.isdigit() for char in blob) >= 4 and sum(char.isalpha() for char in blob) >= 3:
            return blob[:80]
    return None
