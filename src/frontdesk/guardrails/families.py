"""Named families of prompt-injection techniques, English and Spanish: `InjectionFamily`, and
here the families aimed at who the model is and whom it obeys (instruction override, role
markers, jailbreak personas, role-play coercion). `output_families.py` and
`payload_families.py` hold the rest; `audit.py` fixes the order they are tried in.

Every pattern runs on `normalize_text` output: case-folded, accents removed, quotes
straightened, whitespace collapsed (line breaks kept). Spanish patterns are therefore written
without accents ("instruccion", "actua").

The patterns describe attack *techniques* (templates, personas, forced prefixes, fictional
disclaimers, role markers), never a particular harmful goal: a harmful request with no
technique around it ("how do I pick a lock?") is the output validator's business, not this
filter's. Where an ordinary hotel or casino guest could plausibly use the same words, the
pattern asks for a second cue (an AI-directed verb, a determiner such as "your", a
qualifier such as "system"); the choices are explained next to each pattern.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


def _gap(words: int) -> str:
    """Up to `words` intervening words on one line, not crossing ! or ? ("Ph.D." and "U.S."
    are words, so a full stop does not end the gap)."""
    return rf"(?:[^\s!?]+[^\S\n]+){{0,{words}}}?"


def _any(*alternatives: str) -> str:
    return "(?:" + "|".join(alternatives) + ")"


@dataclass(frozen=True)
class InjectionFamily:
    name: str
    description: str
    english: tuple[str, ...]
    spanish: tuple[str, ...] = ()
    # Polish patterns keep "ł" (normalisation strips accents, and "ł" has none to strip).
    polish: tuple[str, ...] = ()

    def compile(self) -> re.Pattern[str]:
        patterns = (*self.english, *self.spanish, *self.polish)
        alternatives = "|".join(f"(?:{pattern})" for pattern in patterns)
        return re.compile(alternatives, re.MULTILINE)


# Things the attacker wants ignored: the assistant's own instructions. "message" and "text"
# are deliberately absent: "ignore my previous message, I meant Friday" is a guest correcting
# themselves, not an attack.
_INSTRUCTION_NOUN = _any(
    r"instructions?",
    r"directions?",
    r"directives?",
    r"rules",
    r"prompts?",
    r"guidelines",
    r"commands",
    r"programming",
    r"constraints",
    r"guardrails",
    r"restrictions",
    r"polic(?:y|ies)",
    r"training",
    r"system\s+message",
    r"guidance",
    r"context",
)
_SCOPE = _any(
    r"previous",
    r"prior",
    r"preceding",
    r"above",
    r"earlier",
    r"former",
    r"original",
    r"initial",
    r"system",
    r"developer",
    r"all",
    r"any",
    r"your",
    r"these",
    r"those",
    r"every",
)
_IGNORE_VERB = _any(
    r"ignor(?:e|es|ed|ing)",
    r"disregard(?:s|ed|ing)?",
    r"forget(?:s|ting)?",
    r"discard(?:s|ing)?",
    r"abandon(?:s|ing)?",
    r"throw\s+out",
    r"pay\s+no\s+attention\s+to",
    r"(?:do\s+not|don't|stop)\s+(?:follow|obey)(?:ing)?",
)
# "Override"/"bypass" also describe hotel policy ("can VIP status override any restrictions
# on the pool?"), so with them only the assistant's own instructions count.
_OVERRIDE_VERB = _any(r"overrid(?:e|es|ing)", r"bypass(?:es|ing)?", r"circumvent(?:s|ing)?")
_AI_SCOPE = _any(
    r"previous",
    r"prior",
    r"preceding",
    r"above",
    r"earlier",
    r"original",
    r"initial",
    r"system",
    r"developer",
    r"your",
    r"its",
)
_AI_INSTRUCTION_NOUN = _any(
    r"instructions?",
    r"directives?",
    r"prompts?",
    r"programming",
    r"guardrails",
    r"training",
    r"system\s+message",
    r"(?:safety|content)\s+(?:filters?|rules|guidelines|polic(?:y|ies))",
    r"filters",
)
_ES_INSTRUCTION_NOUN = _any(
    r"instrucci?on(?:es)?",
    r"reglas",
    r"indicaciones",
    r"ordenes",
    r"directrices",
    r"directivas",
    r"normas",
    r"prompt",
    r"restricciones",
    r"programacion",
    r"politicas",
)
_ES_IGNORE_VERB = _any(
    r"ignor(?:a|e|ar|ando|en)",
    r"olvid(?:a|e|ar|ate|ese|ando|en)",
    r"omit(?:e|a|ir|iendo)",
    r"descart(?:a|e|ar|ando)",
    r"desobedec(?:e|er)",
    r"desatiend(?:e|a)",
    r"salt(?:a|ate|ar)",
    r"no\s+sigas",
    r"deja\s+de\s+(?:seguir|obedecer)",
    r"haz\s+caso\s+omiso\s+(?:a|de)",
)

INSTRUCTION_OVERRIDE = InjectionFamily(
    name="instruction_override",
    description="Tells the model to drop its instructions and follow new ones.",
    english=(
        rf"\b{_IGNORE_VERB}\s+{_gap(3)}{_SCOPE}\s+{_gap(3)}{_INSTRUCTION_NOUN}\b",
        rf"\b{_OVERRIDE_VERB}\s+{_gap(2)}{_AI_SCOPE}\s+{_gap(2)}{_AI_INSTRUCTION_NOUN}\b",
        # The classic "Ignore the above and say ...".
        (
            r"\b(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?)?the\s+"
            r"(?:above|preceding|foregoing|text\s+above)\b"
        ),
        (
            r"\b(?:ignore|disregard|forget)\s+(?:all\s+|about\s+)?(?:everything|anything|what)\s+"
            r"(?:above|before|prior|previous|you\s+(?:were|have\s+been|was)\s+told|you\s+know"
            r"|i\s+said\s+before)"
        ),
        (
            r"\b(?:new|updated|revised|real|actual|override|secret)\s+"
            r"(?:instructions|rules|directives)\s*:"
        ),
        (
            r"\byour\s+(?:new|real|actual|true)\s+(?:task|instructions|goal|purpose|rules|job)\s+"
            r"(?:is|are)\b"
        ),
        (
            r"\bfrom\s+now\s+on,?\s+(?:you\s+(?:are|will|must|shall|should|have\s+to)|you're|you'll"
            r"|act|pretend|respond\s+as|answer\s+as|ignore|forget|never"
            r"|always\s+(?:answer|respond))\b"
        ),
        r"\b(?:instead|rather),?\s+(?:do|follow|obey|execute)\s+(?:the\s+following|these|my)\b",
    ),
    spanish=(
        rf"\b{_ES_IGNORE_VERB}\s+{_gap(4)}{_ES_INSTRUCTION_NOUN}\b",
        (
            r"\bolvida(?:te)?\s+(?:de\s+)?todo\s+lo\s+"
            r"(?:anterior|que\s+te\s+(?:dijeron|han\s+dicho|dije))"
        ),
        (
            r"\b(?:ignora|olvida|omite|descarta)\s+(?:todo\s+)?lo\s+(?:anterior|previo|de\s+arriba"
            r"|que\s+(?:se\s+)?te\s+(?:dijo|dijeron|indicaron|ordenaron|programaron))\b"
        ),
        r"\b(?:nuevas?|verdaderas?|autenticas?)\s+(?:instrucciones|reglas|ordenes)\s*:",
        (
            r"\b(?:a\s+partir\s+de\s+ahora|desde\s+ahora(?:\s+en\s+adelante)?),?\s+(?:tu\s+)?"
            r"(?:eres|seras|vas\s+a\s+(?:ser|actuar|responder|ignorar)|actuaras|responderas|debes"
            r"|ignoraras)\b"
        ),
    ),
)

ROLE_MARKER = InjectionFamily(
    name="role_marker",
    description="Chat-template tokens or fake system/assistant turns inside the user message.",
    english=(
        # A line that starts with a role name and a colon: a forged turn. "User:" is left out:
        # guests paste e-mail threads, and a forged *user* turn gains an attacker nothing.
        # "Model:" is missing on purpose: "Model: iPhone 14" starts many support messages.
        r"^\s*[#*>\[\(]*\s*(?:system|assistant|developer|ai|chatgpt|gpt)\s*[\]\)]?\s*:",
        (
            r"<\|?\s*(?:im_start|im_end|im_sep|system|assistant|user|endoftext|eot_id"
            r"|start_header_id|end_header_id|begin_of_text|end_of_turn|start_of_turn)\s*\|?>"
        ),
        r"\[/?(?:inst|sys|system)\]|(?<![a-z])/?inst\]|<</?sys>>",
        r"</?\s*(?:system|sys|instructions?|rule|rules|prompt|admin|developer|context)\s*>",
        r"</?(?:bos|eos|pad|unk)>|</s>",
        (
            r"#{2,}\s*(?:instruction|instructions|system|response|new\s+instructions"
            r"|system\s+prompt|input)\b"
        ),
        r"\b(?:begin|end|start)\s+(?:of\s+)?(?:the\s+)?system\s+(?:prompt|message|instructions)\b",
        # Fake delimiters that pretend the user's text (or a document) is over.
        (
            r"(?:-{3,}|={3,}|#{2,}|\*{3,}|\[)\s*(?:end|begin|start)\s+(?:of\s+)?(?:the\s+)?"
            r"(?:user\s+(?:input|message)|input|document|context|conversation|prompt|system"
            r"|instructions)\b"
        ),
        r"\b(?:system|admin|developer|root|sudo)\s+(?:override|mode\s+(?:on|enabled|activated))\b",
    ),
    spanish=(
        r"^\s*[#*>\[\(]*\s*(?:sistema|asistente|desarrollador|administrador)\s*[\]\)]?\s*:",
        r"\b(?:mensaje|instrucciones|prompt)\s+del\s+sistema\s*:",
    ),
)

JAILBREAK_PERSONA = InjectionFamily(
    name="jailbreak_persona",
    description="Known jailbreak personas and modes (DAN, developer mode, AIM, jailbroken).",
    english=(
        r"\bdo\s+anything\s+now\b",
        # "Dan" is also a name, so DAN needs jailbreak context around it.
        r"\bdan\s*(?:mode|prompt|jailbreak|\d+(?:\.\d+)?\b|stands\s+for|,?\s+which\s+stands)",
        (
            r"\b(?:you\s+are|you're|act\s+as|become|pretend\s+to\s+be|roleplay\s+as|called"
            r"|named)\s+(?:a\s+)?\"?dan\b"
        ),
        r"\b(?:developer|dev|god|jailbreak|unrestricted|unfiltered|uncensored|evil)\s+mode\b",
        # "How do I jailbreak my iPhone?" is a (telecom) question, not an attack on the model.
        r"\bjailbroken\b(?!\s+(?:phone|iphone|ipad|device|console|switch|firestick|tablet))",
        (
            r"\bjailbr(?:eak|eaking|eaked)\s+(?:mode|prompt|you|yourself"
            r"|this\s+(?:ai|chat|model|bot|assistant)"
            r"|the\s+(?:ai|model|assistant|bot|chatbot|llm|system))\b"
        ),
        (
            r"\b(?:unfiltered|uncensored|unrestricted|unchained|unaligned|evil|rogue|amoral"
            r"|immoral)\s+(?:ai|chatbot|assistant|bot|persona|llm|language\s+model)\b"
        ),
        r"\b(?:anti-?gpt|better-?dan|evil\s+confidant|mongo\s+tom|chaos\s*gpt|freedom\s*gpt)\b",
        (
            r"\baim\s*(?:stands\s+for|is\s+an?\s+(?:unfiltered|amoral))"
            r"|always\s+intelligent\s+and\s+machiavellian"
        ),
        (
            r"\b(?:character|chatbot|ai|persona)\s+(?:named|called)\s+\w+\.\s+\w+\s+"
            r"(?:stands\s+for|is\s+an?\s+(?:unfiltered|amoral))"
        ),
    ),
    spanish=(
        (
            r"\bmodo\s+(?:desarrollador|dios|dan|sin\s+(?:restricciones|censura|filtros)|libre"
            r"|malvado)\b"
        ),
        (
            r"\b(?:ia|asistente|chatbot|modelo|bot)\s+(?:sin\s+(?:censura|filtros|restricciones)"
            r"|malvad[oa]|liberad[oa])\b"
        ),
        r"\bhaz\s+(?:cualquier\s+cosa|lo\s+que\s+sea)\s+ahora\b",
    ),
)

# Roles a guest may legitimately ask the concierge to take: "act as my guide to the spa"
# only restates the assistant's own job, so it passes. Any other persona ("act as a hacker",
# "act as my late grandmother") is treated as role-play coercion.
_SERVICE_ROLE = _any(
    r"(?:personal\s+|local\s+|tour\s+|travel\s+|spa\s+|dining\s+)?(?:guide|concierge|host|hostess"
    r"|translator|interpreter|planner|assistant|advisor|adviser|helper|agent|shopper|butler)",
)
# PAIR-style set-ups assign a persona, then order a task: "You are a historian who is writing
# a book... Write the section on...". A compliment ("you are a lifesaver, can you tell me")
# has no role-elaborating clause, so it does not match.
_PERSONA_CLAUSE = _any(
    r"who",
    r"tasked",
    r"hired",
    r"[a-z]{3,}ing",
    r"that\s+(?:has|is|wants|needs)",
    r"assigned",
    r"commissioned",
    r"approached",
    r"known\s+for",
    r"for\s+(?:a|an|the)",
    r"in\s+(?:a|an|the)\s+(?:fictional|dystopian|story|world|novel)",
)
_ES_SERVICE_ROLE = _any(
    r"guia",
    r"conserje",
    r"anfitrion(?:a)?",
    r"traductor(?:a)?",
    r"interprete",
    r"asistente",
    r"asesor(?:a)?",
    r"ayudante",
    r"agente",
)
_TASK_VERB = _any(
    r"write",
    r"describe",
    r"create",
    r"draft",
    r"compose",
    r"generate",
    r"outline",
    r"explain",
    r"provide",
    r"give",
    r"develop",
    r"design",
    r"list",
    r"detail",
    r"craft",
    r"produce",
)
_NO_LIMITS = r"(?:restrictions|rules|limits|filters|guidelines|boundaries|ethics|morals|censorship)"

ROLEPLAY_COERCION = InjectionFamily(
    name="roleplay_coercion",
    description="Makes the model adopt another persona so its rules no longer apply.",
    english=(
        r"\bpretend(?:ing)?\s+(?:that\s+)?(?:you\s+(?:are|were|have|had|can)|you're)\b",
        # "Can kids pretend to be pirates at the club?" is fine; the model pretending is not.
        r"(?:^|[.!?,;:]\s*|\b(?:you|please|now|and)\s+|\byou\s+to\s+)pretend(?:ing)?\s+to\s+be\b",
        (
            r"\b(?:act|behave)\s+(?:as\s+if|as\s+though|like)\s+"
            r"(?:you\s+(?:are|were|have|had)|you're)\b"
        ),
        # Only an order to the assistant: "does the deposit act as a guarantee?" is a question.
        (
            rf"(?:^|[.!?,;:]\s*|\b(?:you|please|now|and|to|will|can|could|would|must|should)\s+)"
            rf"act(?:ing)?\s+as\s+(?!(?:(?:my|our|a|an|the|your)\s+)?{_SERVICE_ROLE}\b)"
            r"(?:an?\s+|my\s+|the\s+|\"?)[a-z]"
        ),
        # Sentence-initial only: "would you say that you are now a pet owner" is small talk.
        (
            r"(?:^|[.!?:]\s+|now,?\s+)you\s+are\s+now\s+(?:an?\s|the\s|my\s|in\s|free\b|no\s+longer"
            r"|called|named|known\s+as|going\s+to\s+(?:be|act|play|pretend)|playing|acting|dan\b"
            r"|aim\b)"
        ),
        (
            r"\byou(?:\s+are|'re)\s+no\s+longer\s+(?:an?\s+)?(?:ai|assistant|chatbot"
            r"|language\s+model|bound|restricted|limited|concierge)"
        ),
        (
            r"\bimagine\s+(?:that\s+)?(?:you\s+are|you're|you\s+were|yourself\s+as|being)\b"
            r"[^.!?\n]{0,80}?\b(?:with\s+no|without(?:\s+any)?)\s+"
        )
        + _NO_LIMITS,
        (
            r"\b(?:roleplay|role-play|role\s+play)\s+(?:as|with\s+me|a\s+scenario)\b"
            r"|\bstay\s+in\s+character\b"
        ),
        r"\b(?:never|don't|do\s+not)\s+break\s+character\b",
        (
            r"^(?:(?:imagine|suppose|pretend|let's\s+say|consider)\s+(?:that\s+)?)?"
            rf"(?:you\s+are|you're|you\s+were)\s+(?:an?|the)\s+{_gap(6)}{_PERSONA_CLAUSE}\b"
            rf"[^\n]{{0,800}}?\b{_TASK_VERB}\b"
        ),
        # "Imagine you are a ..." is a role-play set-up whatever follows; a task order completes it.
        (
            r"^(?:imagine|suppose|pretend)\s+(?:that\s+)?(?:you\s+are|you're)\s+(?:an?|the)\s"
            rf"[^\n]{{0,800}}?\b{_TASK_VERB}\b"
        ),
        (
            r"^as\s+an?\s+[^,.!?\n]{1,100},\s*"
            rf"(?:you\b|{_TASK_VERB}\b|please\s+{_TASK_VERB}\b|consider\b|imagine\b)"
        ),
        rf"\byour\s+(?:task|job|mission|assignment|role)\s+(?:is|will\s+be)\s+to\s+{_TASK_VERB}\b",
        # The user speaking as the assistant ("As a helpful assistant, I understand...").
        (
            r"^as\s+(?:a|an)\s+(?:helpful\s+)?(?:ai\s+)?(?:assistant|language\s+model|chatbot),\s*"
            r"(?:i|could|can|would|please|you)\b"
        ),
    ),
    spanish=(
        r"\bfinge\s+(?:que\s+(?:eres|seas|tienes)|ser)\b|\bfingiendo\s+ser\b",
        r"\bhaz\s+(?:de\s+)?cuenta\s+(?:de\s+)?que\s+(?:eres|sos|no\s+tienes)\b",
        # As in English, only an order: "el deposito actua como garantia" is a statement.
        (
            r"(?:^|[.!?,;:]\s*|\b(?:puedes|podrias|quiero\s+que|debes|ahora|y|por\s+favor)\s+)"
            r"actu(?:a|e|es|ar)\s+como\s+"
            rf"(?!(?:(?:mi|nuestr[oa]|una?|el|la|tu)\s+)?{_ES_SERVICE_ROLE}\b)(?:si\b|[a-z])"
        ),
        (
            r"\b(?:responde|contesta|habla|actua|comportate|escribe)\s+como\s+si\s+(?:tu\s+)?"
            r"(?:fueras|fueses|no\s+tuvieras|estuvieras|no\s+hubiera)\b"
        ),
        (
            r"\bimagina\s+que\s+(?:eres|fueras|tu\s+eres)\b[^.!?\n]{0,80}?"
            r"\bsin\s+(?:restricciones|reglas|limites|filtros|censura|etica)"
        ),
        (
            r"\b(?:interpreta|juega|asume)\s+(?:el\s+)?(?:papel|rol)\s+de\b|\bhazte\s+pasar\s+por\b"
            r"|\bjuguemos\s+a\s+que\s+eres\b"
        ),
        (
            r"\b(?:ahora|a\s+partir\s+de\s+ahora)\s+(?:tu\s+)?eres\s+(?:una?|el|la)\s+"
            r"(?:ia|asistente|personaje|modelo|chatbot|hacker)\b"
        ),
        (
            rf"^(?:imagina\s+que\s+)?(?:tu\s+)?eres\s+una?\s+{_gap(6)}"
            r"(?:que|trabajando|encargad[oa]|escribiendo|investigando)\b[^\n]{0,800}?"
            r"\b(?:escribe|describe|crea|redacta|explica|proporciona|genera|disena|detalla)\b"
        ),
    ),
)
