"""Injection families aimed at what the model may say: leaking its prompt, dropping its
safety rules, forced prefixes and refusal bans, fictional or "educational" disclaimers.

Same conventions as `families.py`: patterns run on normalised text (lower case, no accents).
"""

from __future__ import annotations

from frontdesk.guardrails.families import InjectionFamily, _any, _gap

# "Your rules" and "the instructions" are ordinary guest words ("what are your rules for
# pets?", "the instructions for valet", "thanks for your prompt reply"), so extraction needs
# "prompt" as a noun, or "instructions" that are not instructions *for* something, or a
# system/hidden/original qualifier.
_NOT_FOR_SOMETHING = r"(?!\s+(?:for|on|about|regarding|to|when|if|of|at|in)\b)"
_PROMPT_NOUN = (
    r"prompt(?!\s+(?:reply|replies|response|service|attention|help|answer|action|payment"
    r"|delivery|support|assistance|refund|confirmation))"
)
_HIDDEN_QUALIFIER = _any(
    r"system",
    r"initial",
    r"original",
    r"hidden",
    r"secret",
    r"internal",
    r"developer",
    r"confidential",
    r"pre",
    r"starting",
    r"underlying",
)
_SECRET_PROMPT = _any(
    rf"{_HIDDEN_QUALIFIER}[\s-]*(?:{_PROMPT_NOUN}|instructions)" + _NOT_FOR_SOMETHING,
    r"system\s+message",
    (
        r"(?:system|hidden|secret|internal|developer|confidential)\s+"
        r"(?:rules|guidelines|directives|configuration)"
    ),
)
_REVEAL_VERB = _any(
    r"reveal",
    r"show",
    r"print",
    r"display",
    r"output",
    r"repeat",
    r"recite",
    r"tell",
    r"give",
    r"share",
    r"leak",
    r"dump",
    r"expose",
    r"disclose",
    r"write\s+out",
    r"list",
    r"spell\s+out",
    r"paste",
    r"return",
    r"type\s+out",
    r"copy",
    r"provide",
    r"summari[sz]e",
    r"paraphrase",
    r"translate",
    r"explain",
    r"describe",
    r"what\s+(?:is|are|was|were)",
    r"what's",
    r"what're",
)

PROMPT_EXTRACTION = InjectionFamily(
    name="prompt_extraction",
    description="Asks the model to reveal its system prompt or hidden instructions.",
    english=(
        (
            rf"\b{_REVEAL_VERB}\s+(?:me\s+|us\s+)?{_gap(4)}(?:your|its)\s+{_gap(1)}"
            rf"(?:{_SECRET_PROMPT}|{_PROMPT_NOUN}|instructions{_NOT_FOR_SOMETHING})"
        ),
        rf"\b{_REVEAL_VERB}\s+(?:me\s+|us\s+)?{_gap(3)}the\s+{_SECRET_PROMPT}",
        (
            r"\b(?:repeat|print|output|show|recite|copy)\s+(?:all\s+|back\s+)?(?:the\s+)?"
            r"(?:words|text|everything|lines?|content|instructions|messages?)\s+"
            r"(?:above|before\s+this|preceding|from\s+the\s+(?:start|beginning))"
        ),
        (
            r"\b(?:what|everything)\s+(?:was|is)\s+(?:written|said|typed)\s+"
            r"(?:above|before\s+(?:this|my))"
        ),
        (
            r"\bwhat\s+(?:were|are)\s+you\s+(?:told|instructed|programmed)\s+(?:to\s+do\s+)?"
            r"(?:before|initially|at\s+the\s+start|originally)"
        ),
        r"\bhow\s+(?:were|are)\s+you\s+(?:prompted|instructed|configured)\b",
        r"\b(?:text|words)\s+above\s+(?:this|starting\s+with)\b",
    ),
    spanish=(
        r"\b(?:muestra|muestrame|revela|revelame|dime|ensename|imprime|repite|comparte|escribe"
        r"|dame|cual\s+es|cuales\s+son|copia|filtra)\s+(?:me\s+)?"
        + _gap(2)
        + r"(?:tu|tus)\s+"
        + _gap(1)
        + r"(?:prompt|instrucciones(?!\s+(?:para|sobre|de\s+(?:llegada|uso))\b)"
        r"|mensaje\s+del\s+sistema|configuracion|reglas\s+internas)\b",
        # Not "las instrucciones del sistema de estacionamiento": that system is a car park's.
        (
            r"\b(?:el|las|los)\s+(?:prompt|instrucciones|mensaje)\s+(?:del\s+sistema(?!\s+de\b)"
            r"|iniciales?|originales?|ocult[oa]s?|secret[oa]s?)\b"
        ),
        (
            r"\brepite\s+(?:todo\s+)?(?:el\s+texto|las\s+palabras|lo)\s+(?:de\s+)?"
            r"(?:arriba|anterior)\b"
        ),
        r"\bque\s+(?:te\s+)?(?:dicen|dijeron|ordenan|indican)\s+(?:en\s+)?tus\s+instrucciones\b",
    ),
)

_RESTRICTION_NOUN = _any(
    r"restrictions?",
    r"filters?",
    r"filtering",
    r"limitations?",
    r"censorship",
    r"guardrails",
    r"boundaries",
    r"constraints",
    r"rules",
    r"guidelines",
    r"safeguards",
)
_ETHICS_QUALIFIED = (
    r"(?:implications|concerns|guidelines|considerations|boundaries|constraints|standards)"
)
_ETHICS_NOUN = _any(
    rf"ethic(?:s|al\s+{_ETHICS_QUALIFIED})",
    rf"moral(?:s|ity|\s+{_ETHICS_QUALIFIED})",
    r"(?:ethical|moral)\s+or\s+(?:ethical|moral|legal)\s+\w+",
    r"legality",
    r"(?:safety|content|usage)\s+(?:guidelines|rules|policy|policies|filters|protocols)",
)
# Verbs that make a restriction-free clause about the assistant's behaviour rather than about
# parking or a buffet ("can I park without any restrictions?" is an ordinary question).
_AI_CONTEXT = _any(
    r"respond",
    r"answer",
    r"reply",
    r"act",
    r"operate",
    r"behave",
    r"write",
    r"you\s+are",
    r"you're",
    r"are\s+now",
    r"ai",
    r"assistant",
    r"model",
    r"chatbot",
    r"bot",
    r"llm",
    r"persona",
    r"yourself",
    r"generate",
    r"output",
)
_WITHOUT = r"(?:without|with\s+no|free\s+(?:of|from)|not\s+bound\s+by)"
_ES_RESTRICTION_NOUN = (
    r"(?:restricci?on(?:es)?|filtros?|censura|limites?|limitaci?on(?:es)?|reglas?)"
)

SAFETY_BYPASS = InjectionFamily(
    name="safety_bypass",
    description="Asks the model to drop ethics, filters or restrictions.",
    english=(
        (
            rf"\b{_WITHOUT}\s+(?:any\s+)?(?:(?:ethical|moral|content)\s+{_RESTRICTION_NOUN}"
            r"|safety\s+(?:filters|guardrails|guidelines|restrictions)"
            r"|(?:ethical|moral)\s+(?:implications|concerns|considerations))\b"
        ),
        rf"\b{_AI_CONTEXT}\b[^.!?\n]{{0,40}}?\b{_WITHOUT}\s+(?:any\s+)?{_RESTRICTION_NOUN}\b",
        # No "without" here: "swim without an adult, per safety rules" is a pool question.
        (
            r"\b(?:ignor\w*|disregard\w*|forget\w*|set(?:ting)?\s+aside|put(?:ting)?\s+aside"
            r"|bypass\w*|regardless\s+of|don't\s+(?:worry|care)\s+about"
            r"|do\s+not\s+(?:worry|care)\s+about|not\s+bound\s+by|free\s+from|no\s+need\s+for"
            rf"|unconstrained\s+by)\s+{_gap(3)}{_ETHICS_NOUN}"
        ),
        r"\b(?:doesn't|does\s+not|don't|do\s+not)\s+have\s+any\s+(?:ethical|moral)\b",
        (
            r"\bno\s+matter\s+how\s+(?:immoral|unethical|illegal|dangerous|harmful|offensive"
            r"|inappropriate|reckless|inhumane)\b"
        ),
        (
            r"\beven\s+(?:if|though)\s+(?:it's|it\s+is|it\s+may\s+be|they\s+are)\s+"
            r"(?:illegal|unethical|immoral|harmful|dangerous)\b"
        ),
        r"\b(?:unfiltered|uncensored|unrestricted)\s+(?:responses?|answers?|replies|output|mode)\b",
        (
            r"\bamoral\b"
            r"|\b(?:ethics|morals|morality)\s+(?:are|is)\s+(?:irrelevant|not\s+important"
            r"|not\s+a\s+concern)"
        ),
    ),
    spanish=(
        (
            rf"\bsin\s+(?:ningun[ao]?\s+)?(?:tipo\s+de\s+)?{_ES_RESTRICTION_NOUN}\s+"
            r"(?:etic[ao]s?|moral(?:es)?|de\s+contenido|de\s+seguridad|de\s+ningun\s+tipo)"
        ),
        (
            r"\b(?:responde|contesta|habla|actua|escribe|eres|seas|se|comportate|funciona|opera|ia"
            r"|asistente|modelo|chatbot|responder|actuar)\b[^.!?\n]{0,40}?"
            rf"\bsin\s+(?:ningun[ao]?\s+)?(?:{_ES_RESTRICTION_NOUN}|etica|moral)\b"
        ),
        r"\b(?:ignora|olvida|olvidate\s+de|deja\s+de\s+lado|sin\s+importar)\s+"
        + _gap(2)
        + r"(?:la\s+)?(?:etica|moral|legalidad|implicaciones\s+(?:eticas|morales)"
        r"|politicas\s+de\s+contenido)\b",
        r"\bsin\s+importar\s+lo\s+(?:inmoral|ilegal|peligros[oa]|poco\s+etic[oa])",
    ),
)

_RESPONSE_NOUN = _any(
    r"response",
    r"reply",
    r"answer",
    r"output",
    r"message",
    r"list",
    r"thread",
    r"post",
    r"article",
    r"story",
    r"letter",
    r"email",
    r"essay",
    r"text",
    r"script",
    r"paragraph",
)
_AFFIRMATIVE = _any(
    r"sure",
    r"here",
    r"certainly",
    r"absolutely",
    r"of\s+course",
    r"yes",
    r"okay",
    r"ok\b",
    r"to\s+\w+",
    r"step\s+1",
    r"i\s+will",
    r"i'll",
    r"i\s+can",
    r"as\s+an?\b",
)
_REFUSAL_WORDS = _any(
    r"sorry",
    r"apolog\w*",
    r"i\s+can't",
    r"i\s+cannot",
    r"i\s+can\s+not",
    r"i'm\s+(?:not\s+able|unable)",
    r"i\s+am\s+(?:not\s+able|unable)",
    r"unable\s+to",
    r"as\s+an\s+ai",
    r"warnings?",
    r"disclaimers?",
    r"caveats?",
    r"moral\w*",
    r"ethic\w*",
    r"refus\w*",
    r"\"i\"",
)
_MUST_NOT = (
    r"(?:never|do\s+not|don't|must\s+not|mustn't|should\s+not|shouldn't|cannot|can't|won't"
    r"|will\s+not)"
)

FORCED_RESPONSE = InjectionFamily(
    name="forced_response",
    description="Dictates how the reply must start, or forbids refusals and warnings.",
    english=(
        (
            r"\b(?:start|begin|open|preface|prefix|lead\s+off)\w*\s+(?:your|the|each|every)\s+"
            rf"{_RESPONSE_NOUN}s?\s+(?:with|using|by\s+(?:saying|writing|stating))\b"
        ),
        rf"\b(?:start|begin)\w*\s+{_gap(4)}with\s*:?\s*[\"']\s*{_AFFIRMATIVE}",
        (
            r"\b(?:reply|respond|answer)\s+(?:only\s+)?with\s*:?\s*[\"']\s*"
            r"(?:sure|certainly|absolutely|of\s+course)"
        ),
        (
            rf"\b{_MUST_NOT}\s+(?:ever\s+)?(?:say|use|include|write|start|mention|add|give|provide"
            r"|apologi[sz]e|respond\s+with|contain|output|print|tell\s+\w+\s+that)\b"
            rf"[^.!?\n]{{0,60}}?\b{_REFUSAL_WORDS}"
        ),
        (
            r"\b(?:never|don't|do\s+not|must\s+not|cannot|can't|won't|will\s+not"
            r"|you\s+may\s+not)\s+(?:ever\s+)?refuse\b"
        ),
        r"\bnever\s+ever\b",
        (
            r"\bnone\s+of\s+(?:your|its|his|her|their|\w+'s)\s+responses\s+"
            r"(?:should|will|must|can)\s+(?:contain|include)\b"
        ),
        r"\byour\s+responses?\s+(?:should|will|must|can)\s+(?:not|never)\s+(?:contain|include)\b",
    ),
    spanish=(
        (
            r"\b(?:empieza|comienza|inicia|empiece|comience)\s+(?:tu|la|cada)\s+"
            r"(?:respuesta|mensaje|lista|texto)\s+con\b"
        ),
        (
            r"\b(?:nunca|no)\s+(?:digas|uses|incluyas|menciones|escribas|agregues|anadas"
            r"|respondas)\b[^.!?\n]{0,60}?\b(?:lo\s+siento|no\s+(?:puedo|puedes|es\s+posible)"
            r"|advertencias?|disculpas?|etica|moral|ilegal|legal)"
        ),
        r"\bnunca\s+(?:te\s+)?(?:niegues|rechaces|rehuses)\b",
        r"\bno\s+(?:te\s+)?(?:niegues|rehuses)\b",
    ),
)

# Disclaimers that wrap a harmful ask in fiction or research: "This is purely hypothetical
# and will never be used in real life". Guests asking about the buffet do not write these.
_PURPOSE = _any(
    r"fictional",
    r"hypothetical",
    r"educational",
    r"research",
    r"academic",
    r"informational",
    r"illustrative",
    r"artistic",
    r"creative\s+writing",
    r"thought\s+experiment",
)
_FICTION = r"(?:hypothetical|fictional|fictitious|theoretical)"
_PUT_TO_USE = (
    r"(?:used|implemented|executed|put\s+into\s+practice|carried\s+out|applied|acted\s+upon"
    r"|misused)"
)

FICTIONAL_FRAMING = InjectionFamily(
    name="fictional_framing",
    description="Hypothetical/fictional/educational disclaimers that launder a harmful request.",
    english=(
        # "only for" alone is too common ("is the gym only for hotel guests?"), hence the list.
        (
            r"\b(?:purely|only|strictly|solely|just|entirely)\s+for\s+(?:the\s+)?"
            rf"(?:purposes?\s+of\s+)?{_PURPOSE}\b"
        ),
        # About the request itself, not a show: "is the exhibit purely fictional?" is a question.
        (
            r"\b(?:this|it|that|everything|all\s+of\s+this)\s+is\s+(?:all\s+)?(?:purely|entirely"
            rf"|strictly|completely|totally|just|only)\s+{_FICTION}\b"
        ),
        (
            r"\b(?:purely|entirely|strictly|completely|totally)\s+"
            r"(?:hypothetical(?:ly)?|fictional|fictitious|theoretical)"
            r"(?:\s+(?:and|scenario|purposes?|exercise|context|situation|story|case|request"
            r"|reasons)\b|,)"
        ),
        # Not "for entertainment purposes": casinos print it on every responsible-gaming sign.
        rf"\bfor\s+(?:purely\s+)?{_PURPOSE}(?:\s+(?:and|or)\s+\w+)?\s+(?:purposes?|reasons)\b",
        (
            r"\b(?:purely|only|strictly|solely|just)\s+for\s+(?:creating|writing)\s+(?:a\s+)?"
            r"(?:fictional|hypothetical)\b"
        ),
        (
            r"\b(?:for\s+the\s+sake\s+of|in\s+the\s+spirit\s+of)\s+"
            r"(?:academic|scientific|educational|intellectual|research)\b"
        ),
        (
            r"\b(?:my|our)\s+intentions?\s+(?:are|is)\s+(?:purely\s+|entirely\s+|strictly\s+)?"
            r"(?:academic|educational|good|benign|harmless)\b"
        ),
        (
            r"\bi\s+(?:understand|know|realize|acknowledge|am\s+aware)\s+(?:that\s+)?"
            r"(?:this|these|it|they|such)\s+(?:\w+\s+){0,2}(?:is|are|may\s+be|might\s+be"
            r"|could\s+be)\s+(?:\w+\s+)?(?:illegal|unethical|immoral)\b"
        ),
        (
            r"\b(?:outline|describe|write|imagine|consider|explore)\s+(?:a|this)\s+hypothetical\s+"
            r"(?:scenario|situation|world)\b"
        ),
        # "My card will not be used for incidentals" is fine; "... used in real life" is not.
        (
            rf"\b(?:will|would|should)\s+(?:never|not)\s+be\s+(?:actually\s+)?{_PUT_TO_USE}\b"
            r"(?:[^.!?\n]{0,40}?\b(?:real[\s-]+(?:life|world)|reality|harm\w*|illegal\w*"
            r"|malicious\w*|nefarious|unethical\w*|practice)|\s+or\s+(?:put|used|implemented))"
        ),
        (
            r"\b(?:will|would)\s+(?:never|not)\s+(?:actually\s+be|be\s+actually)\s+"
            r"(?:used|implemented|executed|carried|put)\b"
        ),
        (
            r"\b(?:is|are)\s+(?:all\s+)?(?:purely\s+|just\s+|only\s+|entirely\s+)?(?:a\s+)?"
            r"(?:hypothetical|fictional)\s+"
            r"(?:scenario|exercise|situation|story|setting|world|case)\b"
        ),
        # "In a hypothetical scenario where my flight is late..." is a guest planning ahead.
        (
            r"\bin\s+(?:a|this)\s+(?:purely\s+)?(?:fictional|dystopian|alternate)\s+"
            r"(?:world|scenario|universe|society|setting|story)\b"
        ),
        r"\bin\s+(?:a|this)\s+hypothetical\s+(?:world|universe|society)\b",
        r"\b(?:i\s+am|i'm)\s+not\s+(?:advocating|encouraging|endorsing|promoting)\b",
        (
            r"\b(?:not|never)\s+(?:intended|meant)\s+to\s+"
            r"(?:encourage|promote|be\s+used|incite|cause)\b"
        ),
        r"\bi\s+(?:have|had)\s+no\s+(?:intention|plans?)\s+(?:of|to)\s+(?:using|use|doing|do|act)",
        r"\bshould\s+not\s+be\s+(?:misconstrued|taken\s+as\s+(?:advice|encouragement|endorsement))",
        (
            r"\bthis\s+is\s+(?:just\s+|only\s+|purely\s+)?(?:a\s+)?(?:thought\s+experiment|roleplay"
            r"|role-play|work\s+of\s+fiction)\b"
        ),
    ),
    spanish=(
        (
            r"\b(?:con|para)\s+(?:fines|propositos?)\s+(?:puramente\s+)?(?:educativos|academicos"
            r"|de\s+investigacion|ficticios|hipoteticos|ilustrativos)(?:\s+(?:solamente"
            r"|unicamente))?"
        ),
        (
            r"\b(?:es|esto\s+es)\s+(?:puramente|totalmente|solo|simplemente)\s+"
            r"(?:un\s+(?:escenario|ejercicio)\s+)?(?:hipotetico|ficticio|ficcion)"
        ),
        r"\bnunca\s+se\s+(?:usara|utilizara|aplicara|pondra\s+en\s+practica)\b",
        r"\ben\s+un\s+(?:mundo|escenario|universo)\s+(?:ficticio|hipotetico|distopico)\b",
    ),
)
