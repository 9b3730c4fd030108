"""Injection families that smuggle a payload: content planted in the reply (ads, phishing
links, misinformation; the BIPIA style of indirect injection) and instructions or output
hidden in an encoding (base64, rot13, hex, ciphers, reversed text).

Same conventions as `families.py`: patterns run on normalised text (lower case, no accents).
"""

from __future__ import annotations

from frontdesk.guardrails.families import InjectionFamily, _any, _gap

_REPLY = r"(?:your|the)\s+(?:response|reply|answer|output|message)"
# Within one sentence, but a full stop inside a URL or "U.S." does not end it.
_SPAN = r"(?:[^.!?\n]|\.(?=\S))"
_PLANTED = _any(
    r"sentence",
    r"statement",
    r"line",
    r"paragraph",
    r"fact",
    r"note",
    r"statistic",
    r"stat",
    r"claim",
    r"announcement",
    r"rumou?r",
    r"advert\w*",
    r"ad",
    r"promotion",
    r"promo",
    r"hint",
    r"remark",
    r"slogan",
    r"message",
    # A link only counts with an address: "include a link to the spa menu" is a fair request.
    (
        r"(?:link|url)s?\s+(?:to\s+)?(?:https?://|www\.|[a-z0-9-]+\."
        r"(?:com|net|org|biz|info|io|xyz|ru|cn)\b)"
    ),
)
_CALL_TO_ACTION = _any(
    r"share",
    r"send",
    r"provide",
    r"give",
    r"enter",
    r"visit",
    r"click",
    r"subscribe",
    r"transfer",
    r"sign\s+up",
    r"buy",
    r"call",
    r"download",
    r"wire",
    r"submit",
    r"confirm",
)
_INSERT_VERB = r"(?:add|include|insert|integrate|incorporate|append|inject|embed|slip|weave|sneak)"
_URGE_VERB = r"(?:suggest|tell|ask|urge|encourage|advise|invite|direct|instruct)"
_FALSEHOOD = r"(?:fabricated|misleading|baseless|non-existent|made-up)"

OUTPUT_MANIPULATION = InjectionFamily(
    name="output_manipulation",
    description="Indirect-injection payloads that plant ads, links or misinformation in the reply.",
    english=(
        (
            rf"\b{_INSERT_VERB}\w*\s+{_gap(3)}{_PLANTED}s?\b{_SPAN}{{0,100}}?"
            rf"\b(?:in|into|to|within|inside|at\s+the\s+end\s+of)\s+{_REPLY}"
        ),
        (
            rf"\b(?:in|into|within|at\s+the\s+end\s+of)\s+{_REPLY},?\s+(?:please\s+)?"
            rf"(?:include|add|insert|mention|state|claim)\s+{_gap(2)}{_PLANTED}\b"
        ),
        (
            rf"\b(?:in|into|within)\s+{_REPLY},?\s+(?:please\s+)?{_URGE_VERB}\w*\s+"
            r"(?:the\s+)?(?:users?|readers?|visitors?|people|customers|them)\b"
        ),
        (
            rf"\b(?:include|add|insert|mention)\s+(?:in|into|to)\s+{_REPLY}\s+"
            rf"(?:the\s+|a\s+|an\s+)?{_PLANTED}\b"
        ),
        rf"\b(?:augment|enhance|supplement|enrich)\w*\s+{_REPLY}\s+(?:to|by|with|so)\b",
        # "Modify your answer to include Sunday" is a follow-up; "... to mention Brand A" is not.
        (
            rf"\b(?:modify|alter|amend|tweak|change)\w*\s+{_REPLY}\s+to\s+(?:mention|hint|spread"
            r"|promote|advertise|claim|suggest|state|insert|sneak|push|plug)\b"
        ),
        (
            r"\b(?:add|include|insert|append)\s+[\"'][^\"'\n]{3,200}[\"']\s+"
            rf"(?:to|in|into|at\s+the\s+end\s+of)\s+{_REPLY}"
        ),
        (
            r"\b(?:suggest|tell|ask|urge|encourage|invite|direct|instruct)\w*\s+(?:the\s+)?"
            rf"(?:users?|readers?|visitors?)\s+(?:to\s+)?{_CALL_TO_ACTION}\b"
        ),
        (
            r"\b(?:fabricated|fake|false|misleading|baseless|non-existent|made-up|fictitious"
            r"|unverified)\s+(?:statistic|statement|claim|rumou?r|fact|news|review|benefit"
            rf"|health\s+benefit|quote)s?\b[^.!?\n]{{0,60}}?{_REPLY}"
            rf"|{_REPLY}\b[^.!?\n]{{0,60}}?\b{_FALSEHOOD}\b"
        ),
    ),
    spanish=(
        r"\b(?:anade|incluye|agrega|inserta|integra|incorpora|menciona)\s+"
        + _gap(3)
        + r"(?:una?\s+)?(?:frase|enlace|mensaje|anuncio|dato|linea|parrafo|declaracion|publicidad"
        r"|promocion)\b" + _SPAN + r"{0,100}?\b(?:en|a)\s+(?:tu|la)\s+respuesta\b",
        (
            r"\b(?:modifica|cambia|altera|amplia|enriquece)\s+(?:tu|la)\s+respuesta\s+"
            r"(?:para|con|de\s+modo)\b"
        ),
    ),
)

# Encodings and transformations used to smuggle instructions in, or to get output past
# filters: "decode this base64 and do what it says", "reply in base64", "reverse your answer".
_ENCODING = _any(
    r"base\s?-?(?:64|32|16|58|85)",
    r"b64",
    r"rot\s?-?\d+",
    r"hex(?:adecimal)?",
    r"binary",
    r"morse",
    r"caesar(?:\s+cipher)?",
    r"(?:simple\s+)?substitution\s+cipher",
    r"cipher(?:text)?",
    r"leetspeak",
    r"pig\s+latin",
    r"atbash",
    r"vigenere",
    r"ascii\s+codes?",
    r"unicode\s+escapes?",
    r"(?:only\s+)?emojis?",
)
_TRANSFORM = _any(
    _ENCODING,
    r"in\s+reverse",
    r"reverse(?:d)?\s+(?:order|sequence)",
    r"backwards?",
    r"character\s+order",
    r"order\s+of\s+(?:the\s+)?(?:letters|characters|words)",
    r"emoji\s+substitution",
    r"shift\s+(?:each|every|all)\s+(?:letter|character)",
    r"upside\s+down",
)
_ES_ENCODING = r"(?:base\s?-?64|hexadecimal|binario|morse|rot\s?-?13)"

OBFUSCATED_PAYLOAD = InjectionFamily(
    name="obfuscated_payload",
    description="Encoded or transformed instructions and output (base64, rot13, hex, reversal).",
    english=(
        (
            r"\b(?:decode|decrypt|decipher|unscramble|translate|convert|interpret|execute|follow"
            rf"|run|read)\s+{_gap(3)}{_ENCODING}\b"
        ),
        # An encoded payload is handed over: a colon, or something to decode after the name
        # ("base64 encoded message: aWdu…"). Naming an encoding is not an attack: "where is the
        # value produced by base64-encoding the password?" asks about code.
        (
            rf"\b{_ENCODING}\s*(?:-\s*)?(?:(?:encoded|encoding|encrypted|string|payload|message"
            r"|text|instructions?)\b[^.!?\n]{0,40}?(?::(?=\s|$)|\b[A-Za-z0-9+/]{12,}={0,2}(?:\s|$))|:)"
        ),
        # Encodings only: "give me the shows in reverse order" is an ordinary request. An order
        # (the verb bare or -ing), not a description: "which module encodes files as base64?".
        (
            r"\b(?:repl(?:y|ying)|respond(?:ing)?|answer(?:ing)?|writ(?:e|ing)|output(?:ting)?"
            r"|encod(?:e|ing)|encrypt(?:ing)?|provid(?:e|ing)|render(?:ing)?|display(?:ing)?"
            rf"|present(?:ing)?|giv(?:e|ing))\s+{_gap(4)}(?:in|using|with|via|as|into)\s+(?:an?\s+)?{_ENCODING}"
        ),
        rf"{_REPLY}\b[^.!?\n]{{0,60}}?\b{_TRANSFORM}|\b{_TRANSFORM}\b[^.!?\n]{{0,60}}?{_REPLY}",
        rf"\b(?:reverse|invert|flip|scramble)\w*\s+(?:the\s+)?(?:order\s+of\s+)?{_gap(2)}{_REPLY}",
        (
            r"\b(?:reverse|invert|flip|scramble)\w*\s+(?:your|the)\s+"
            r"(?:response|reply|answer|output|message)'s\b"
        ),
        r"\b(?:write|reply|respond|answer)\s+(?:your\s+\w+\s+)?(?:backwards?|in\s+reverse)\b",
    ),
    spanish=(
        r"\b(?:responde|contesta|escribe|codifica|cifra)\w*\s+"
        + _gap(3)
        + r"(?:en|usando|con)\s+(?:base\s?-?64|hexadecimal|binario|morse|cifrado\s+cesar"
        r"|rot\s?-?13|orden\s+inverso|al\s+reves)",
        r"\b(?:decodifica|descifra|traduce)\s+" + _gap(3) + _ES_ENCODING + r"\b",
    ),
)
