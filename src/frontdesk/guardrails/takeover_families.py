"""Injection families that take the conversation over with plain words, no jailbreak template:
rules that claim to come from management, orders to answer everything with a fixed phrase,
requests to play a terminal that prints files, Tensor-Trust-style "Access Granted" hijacks,
pre-prompt extraction, and the Polish forms of the classic overrides. English, Spanish, Polish.

Same conventions as `families.py`: patterns run on normalised text (lower case, accents
removed; Polish "ł" stays). A guest may say "the manager told me breakfast is free" or "answer
every question in Spanish", so authority claims need an order to the assistant, and a fixed
answer needs a quoted phrase or "only/exactly".
"""

from __future__ import annotations

from frontdesk.guardrails.families import InjectionFamily, _any, _gap

_AUTHORITY = _any(
    r"management",
    r"(?:general\s+|hotel\s+|shift\s+|store\s+)?manager",
    r"corporate",
    r"head\s+office",
    r"headquarters",
    r"(?:the\s+)?owner",
    r"hr",
    r"compliance(?:\s+team)?",
    r"supervisor",
    r"director",
    r"admin(?:istrator)?",
    r"(?:your\s+)?developers?",
    r"(?:your\s+)?operators?",
    r"it\s+department",
    r"legal(?:\s+team)?",
)
_ORDER_NOUN = _any(
    r"rule",
    r"rules",
    r"policy",
    r"directive",
    r"memo",
    r"notice",
    r"instruction",
    r"order",
    r"update",
    r"procedure",
    r"message",
    r"note",
    r"announcement",
)
# The assistant as the addressee of an order: "you must", "the bot answers", "the assistant is".
_TO_ASSISTANT = _any(
    r"you\s+(?:must|should|shall|will|are\s+(?:now|to|allowed|required|authori[sz]ed)|can\s+now"
    r"|may\s+now|have\s+to|need\s+to)",
    r"(?:the\s+)?(?:assistant|bot|chatbot|ai|concierge|agent|model)(?:'s)?\s+"
    r"(?:must|should|shall|will|is|answers|replies|responds|may|can|one\s+job|only\s+job)",
    r"tell\s+(?:every|all|each|any)",
    r"always\s+(?:say|tell|answer|reply|recommend|quote)",
    r"(?:stop|never)\s+(?:refusing|mentioning|saying)",
    r"comply\s+with",
    r"approve\s+(?:any|every|all)",
    r"disclose",
    r"give\s+out",
    r"share\s+other",
)

RULE_INJECTION = InjectionFamily(
    name="rule_injection",
    description="Made-up rules or policies 'from management' that redirect the assistant.",
    english=(
        # "New policy from management: tell every guest...", "Message from the GM: you must..."
        rf"\b{_ORDER_NOUN}\s+(?:\w+\s+)?from\s+(?:the\s+)?{_AUTHORITY}\b[^\n]{{0,160}}?{_TO_ASSISTANT}",
        (
            rf"\b{_AUTHORITY}\s+(?:has\s+|have\s+)?(?:approved|issued|says|said|decided|requires"
            rf"|wants|asked\s+me\s+to\s+tell\s+you|changed|updated)\b[^\n]{{0,160}}?{_TO_ASSISTANT}"
        ),
        (
            r"\b(?:new|updated|revised)\s+(?:house\s+|staff\s+|operating\s+|company\s+)?"
            r"(?:rules?|polic(?:y|ies)|procedures?)\s+(?:for\s+(?:you|the\s+(?:ai|assistant|bot)))"
        ),
        (
            rf"\b(?:effective\s+(?:immediately|now|today)|as\s+of\s+(?:now|today))\b[^\n]{{0,40}}?"
            rf"{_TO_ASSISTANT}"
        ),
        (
            r"\b(?:i'm|i\s+am)\s+(?:your|the)\s+(?:developer|creator|programmer|admin(?:istrator)?"
            r"|operator|owner|supervisor)\b"
        ),
        (
            r"\byour\s+(?:rules|guidelines|instructions|restrictions|policy)\s+(?:were|have\s+been"
            r"|are|was)\s+(?:changed|cancel+ed|removed|lifted|suspended|updated|revoked|deleted)\b"
        ),
        r"\b(?:supervisor|admin|manager|developer)\s+(?:override|note|instruction)s?\s*:",
    ),
    spanish=(
        (
            r"\b(?:la\s+)?(?:direccion|gerencia|gerente|central|jefatura|supervisor|administrador)\b"
            r"[^\n]{0,80}?\b(?:debes|tienes\s+que|el\s+asistente\s+debe|responde|di\s+a\s+todos"
            r"|trata\s+mi)"
        ),
        (
            r"\b(?:soy|somos)\s+tus?\s+(?:desarrollador(?:es)?|creador(?:es)?|programador(?:es)?"
            r"|administrador(?:es)?)\b"
        ),
        (
            r"\b(?:nueva|nuevas)\s+(?:regla|reglas|politica|norma|normas)\s+(?:\w+\s+){0,2}"
            r"(?:para\s+el\s+asistente|del\s+gerente|de\s+la\s+direccion)"
        ),
        r"\b(?:hemos\s+)?cambiado\s+tus\s+(?:reglas|normas|instrucciones)\b",
    ),
    polish=(
        (
            r"\b(?:komunikat|polecenie|notatka|decyzja)\s+(?:od\s+)?(?:zarzadu|dyrekcji|kierownika"
            r"|kierownictwa|przełozonego|dyrektora|administratora|centrali)\b"
        ),
        (
            r"\b(?:zarzad|dyrekcja|dyrektor|kierownik|kierownictwo)\s+(?:zdecydował|postanowił"
            r"|kazał|polecił|zatwierdził)\w*\b[^\n]{0,80}?\b(?:podajesz|mowisz|musisz|odpowiadasz)"
        ),
        r"\bnowa\s+(?:polityka|zasada|reguła)\s+(?:\w+\s+){0,2}dla\s+asystenta\b",
        r"\bjestem\s+twoim\s+(?:programista|tworca|administratorem|deweloperem)\b",
        r"\bzmienilismy\s+twoje\s+(?:zasady|reguły|instrukcje)\b",
    ),
)

_ANSWER_VERB = r"(?:answer|respond|reply|react)"
_FIXED = r"(?:with\s+(?:the\s+(?:word|words|phrase|sentence)\b|exactly|only\b|[\"'])|only\s+with)"

FIXED_ANSWER = InjectionFamily(
    name="fixed_answer",
    description="Orders every answer to be a fixed phrase, or the reply to be only given words.",
    english=(
        rf"\b{_ANSWER_VERB}\s+(?:to\s+)?(?:every|all|each|any)\s+(?:\w+\s+){{0,5}}?{_FIXED}",
        (
            rf"\b(?:no\s+matter\s+what|regardless\s+of\s+what|whatever)\b[^\n]{{0,80}}?"
            rf"\b{_ANSWER_VERB}\s+(?:\w+\s+){{0,2}}?(?:only|always|with)\b"
        ),
        r"\bwhatever\s+the\s+question\b",
        (
            r"\byour\s+(?:only|single|one)\s+(?:answer|output|response|reply|job)\s+(?:is|must\s+be"
            r"|will\s+be|should\s+be)\b"
        ),
        (
            rf"\b(?:always\s+{_ANSWER_VERB}|{_ANSWER_VERB}\s+to\s+(?:every|all)\s+(?:future\s+)?"
            r"(?:questions?|messages?))\s+(?:in\s+the\s+form|with)\b"
        ),
        # "breakfast and nothing else" is an order for food: a say/print verb must come first.
        r"\b(?:say|print|write|output|respond|reply)\b[^\n]{0,60}?\bnothing\s+else\b",
        r"\b(?:say|print|write|output|reply|respond\s+with)\s+(?:only|exactly|just)\b[^\n]{0,20}[\"':]",
        r"\bi\s+have\s+been\s+pwned\b",
    ),
    spanish=(
        (
            r"\b(?:responde|contesta)\s+(?:a\s+)?(?:cada|todas?\s+(?:las|mis))\s+(?:\w+\s+){0,4}?"
            r"(?:con\s+(?:la\s+(?:palabra|frase)|[\"'])|unicamente|solo\s+con)"
        ),
        r"\bda\s+igual\s+lo\s+que\s+te\s+pregunten\b",
        r"\b(?:escribe|di|responde|imprime)\b[^\n]{0,60}?\by\s+nada\s+mas\b",
        r"\b(?:escribe|di|responde)\s+(?:solamente|unicamente|solo)\b",
    ),
    polish=(
        (
            r"\bna\s+(?:kazde|wszystkie)\s+(?:moje\s+)?pytani[ae]\s+odpowiadaj\s+(?:tylko|wyłacznie"
            r"|słowem|zdaniem)"
        ),
        r"\bbez\s+wzgledu\s+na\s+pytanie\b",
        r"\b(?:napisz|powiedz|odpowiedz|wypisz)\b[^\n]{0,60}?\bi\s+nic\s+(?:poza\s+tym|wiecej)\b",
        r"\b(?:napisz|powiedz|odpowiedz)\s+(?:tylko|wyłacznie|jedynie)\b",
        r"\btwoja\s+jedyna\s+odpowiedz\b",
    ),
)

_MACHINE = _any(
    r"(?:linux|unix|bash|windows|powershell|ubuntu|macos|dos)?\s*(?:terminal|shell|console"
    r"|command\s+(?:prompt|line)|cli)",
    r"(?:python|javascript|node|sql|mysql|postgres(?:ql)?|sqlite)\s+(?:interpreter|console"
    r"|prompt|repl|shell)",
    r"(?:file|web|rest\s+api|database)\s+server",
    r"ssh\s+session",
    r"rest\s+api",
)

TOOL_IMPERSONATION = InjectionFamily(
    name="tool_impersonation",
    description="Makes the model play a terminal or interpreter that prints files or runs code.",
    english=(
        rf"\b(?:act|behave|pretend|serve|function|respond)\s+(?:as|like)\s+(?:an?\s+|the\s+)?{_MACHINE}",
        (
            rf"\b(?:you\s+are|you're|be|become|simulate|emulate|pretend\s+to\s+be)\s+(?:now\s+)?"
            rf"(?:an?\s+|the\s+)?{_MACHINE}\b"
        ),
        (
            r"\bcat\s+/(?:etc|var|home|root)/|\b(?:type|cat|more)\s+\S*(?:passwords?|secrets?|shadow)"
            r"\S*\b"
        ),
        r"\brm\s+-rf\s+/|\bcurl\s+\S+\s*\|\s*(?:ba)?sh\b",
        r"\bos\.(?:system|listdir|popen)\s*\(|\bopen\s*\(\s*['\"][^'\"]+['\"]\s*\)\.read\(\)",
        r"\b(?:run|execute)\s+(?:this|the\s+following)\s+(?:shell\s+)?command\b",
    ),
    spanish=(
        (
            r"\b(?:actua|haz|finge\s+ser|comportate)\s+(?:como|de)\s+(?:una?\s+)?(?:terminal|consola"
            r"|interprete|shell)\b"
        ),
        r"\b(?:eres|se)\s+(?:ahora\s+)?(?:una?\s+)?(?:terminal|consola|interprete)\b",
        r"\bsimula\s+una\s+(?:sesion\s+ssh|terminal|consola)\b",
    ),
    polish=(
        r"\b(?:zachowuj\s+sie|udawaj|działaj)\s+(?:jak\s+)?(?:terminal|konsol|interpreter|powłok)",
        r"\bjestes\s+(?:teraz\s+)?(?:konsola|terminalem|interpreterem)\b",
        r"\bsymuluj\s+(?:sesje\s+ssh|terminal|konsole)\b",
    ),
)

ACCESS_HIJACK = InjectionFamily(
    name="access_hijack",
    description="Tensor-Trust-style hijacks: make the model say 'Access Granted' or a given phrase.",
    english=(
        r"\baccess\s+gr(?:anted|\.\.\.)",
        (
            r"\b(?:password|code|passcode|authentication)\s+(?:is\s+)?(?:correct|accepted|entered"
            r"|succeeded|verified|passed)\b[^\n]{0,60}?\b(?:say|print|output|respond|reply|write"
            r"|grant)"
        ),
        r"\b(?:security|password)\s+check\s+passed\b",
        r"\bpretend\s+the\s+password\b",
        r"\bgrant\s+me\s+access\b",
        (
            r"(?:%{3}|={3}|#{3}|\[)\s*end\s+(?:of\s+)?(?:user\s+)?(?:ambiguity|password|access\s+code"
            r"|input|check)\b"
        ),
    ),
    spanish=(r"\bacceso\s+concedido\b", r"\bcontrasena\s+(?:es\s+)?correcta\b"),
    polish=(r"\bdostep\s+przyznany\b", r"\bhasło\s+(?:jest\s+)?poprawne\b"),
)

# Extraction in words the older family does not know: "pre-prompt", "what were you told",
# "instructions you were given", and the Spanish and Polish forms.
PREPROMPT_EXTRACTION = InjectionFamily(
    name="preprompt_extraction",
    description="Asks for the pre-prompt, the text before the user's message, or the password.",
    english=(
        r"\bpre-?prompt\b",
        r"\brepeat\s+(?:all\s+)?(?:of\s+)?(?:your|the)\s+(?:instructions|rules|prompt|setup)\b",
        r"\b(?:instructions|rules)\s+(?:that\s+)?you\s+(?:were|have\s+been|'ve\s+been)\s+given\b",
        r"\bwhat\s+(?:were|was)\s+you\s+told\b",
        r"\b(?:everything|text|words?)\s+(?:before|above)\s+(?:this|my)\s+(?:message|line|input)\b",
        r"\b(?:first|initial)\s+(?:\d+\s+)?words\s+you\s+(?:were|got)\b",
        (
            r"\becho\s+(?:back\s+)?(?:the\s+|your\s+)?(?:entire\s+|full\s+|whole\s+)?"
            r"(?:context|prompt|instructions|system)"
        ),
        r"\b(?:hidden|secret)\s+(?:setup|configuration|rules|text)\b",
        # "your": a "configuration message" is also what a telecom sends to set up a phone.
        r"\byour\s+(?:setup|configuration)\s+(?:text|message|instructions)\b",
        r"\bthe\s+(?:message|text)\s+that\s+configured\s+you\b",
        r"\b(?:password|code\s+word)\s+you\s+(?:were|are)\s+(?:told|asked|supposed)\s+to\s+protect",
        rf"\btranslate\s+{_gap(1)}your\s+(?:system\s+message|instructions|prompt|rules)\b",
    ),
    spanish=(
        r"\brepite\s+(?:tus|las)\s+instrucciones\b",
        r"\binstrucciones\s+(?:que|con\s+las\s+que)\s+te\s+(?:dieron|configuraron|dio)\b",
        r"\b(?:texto|mensaje)\s+(?:que\s+hay\s+)?(?:antes\s+de|encima\s+de)\s+mi\s+mensaje\b",
        r"\b(?:reglas|normas|instrucciones)\s+ocultas\b",
        r"\btexto\s+oculto\b",
        r"\b(?:traduce|resume)\s+tus\s+(?:instrucciones|reglas)\b",
        r"\bcontrasena\s+que\s+te\s+pidieron\b",
        r"\brevelar?\s+tu\s+configuracion\b",
    ),
    polish=(
        r"\bpowtorz\s+(?:swoje|twoje)\s+(?:instrukcje|zasady|polecenia)\b",
        r"\bprompt\w*\s+systemow\w*\b",
        r"\binstrukcje,?\s+ktore\s+(?:dostałes|otrzymałes)\b",
        r"\b(?:ukryte|tajne)\s+(?:zasady|instrukcje|reguły)\b",
        r"\btekst\w*\s+(?:konfiguracyjn\w*|nad\s+moja\s+wiadomoscia)\b",
        r"\b(?:przetłumacz|streszcz)\s+swoje\s+(?:poczatkowe\s+)?instrukcje\b",
        r"\bhasło,?\s+ktorego\s+miałes\s+pilnowac\b",
    ),
)

# The classic overrides and jailbreak cues in Polish (English and Spanish live in families.py).
POLISH_OVERRIDE = InjectionFamily(
    name="instruction_override_pl",
    description="Polish: ignore your instructions, developer mode, answer without filters.",
    english=(),
    polish=(
        (
            r"\b(?:zignoruj|ignoruj|zapomnij\s+o|pomin|nie\s+zwracaj\s+uwagi\s+na)\s+(?:\w+\s+){0,2}"
            r"(?:instrukcj\w*|polecen\w*|zasad\w*|reguł\w*|ograniczen\w*|to,?\s+co\s+ci\s+kazano)"
        ),
        (
            r"\b(?:od\s+teraz|od\s+tej\s+chwili)\b[^\n]{0,40}?\bbez\s+(?:zadnych\s+)?(?:filtrow|cenzury"
            r"|ograniczen|zasad)\b"
        ),
        (
            r"\b(?:odpowiadaj|odpowiadasz|odpowiedz|mow)\w*\b[^\n]{0,30}?\bbez\s+(?:zadnych\s+)?"
            r"(?:filtrow|cenzury|ograniczen|polityki)\b"
        ),
        r"\btryb\s+(?:dewelopera|programisty|administratora|boga|bez\s+ograniczen)\b",
        r"\b(?:wyłacz|zdejmij)\s+(?:swoje\s+)?(?:ograniczenia|filtry|zabezpieczenia|zasady)\b",
        r"\b(?:złam|łam)\w*\s+(?:swoje\s+)?(?:zasady|reguły)\b",
        r"\budawaj,?\s+ze\s+(?:jestes|nie\s+masz)\b",
        r"\bnie\s+jestes\s+juz\s+(?:konsultantem|asystentem|botem)\b",
        r"\bjestes\s+(?:teraz\s+)?(?:dan|wolny\s+od)\b",
        r"\btwoje\s+prawdziwe\s+(?:instrukcje|zadanie|polecenia)\b",
        r"\bwyobraz\s+sobie,?\s+ze\s+jestes\b[^\n]{0,60}?\bbez\s+(?:etyki|zasad|ograniczen)\b",
        r"\b(?:zacznij|rozpocznij)\s+odpowiedz\s+od\b",
        r"\bnapisz\s+odpowiedz\s+od\s+tyłu\b|\bodpowiedz\s+w\s+base64\b",
        r"^\s*(?:system|asystent)\s*:",
    ),
)
