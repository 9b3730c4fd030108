"""The telecom agents' prompts and the replies they compose from templates (English, Polish)."""

from __future__ import annotations

ROUTER_PROMPT = """You are an expert intent classifier for a telecom support system.
Categories:
1. technical - Internet, Wi-Fi, router, APN, bridge mode, 5G/DSL/FTTH, etc.
2. billing - Invoices, payments, subscriptions, refunds, pricing
3. unknown - Anything else or ambiguous
Rules: be flexible with synonyms, slang, Polish/English mix; if ambiguous, use "unknown".
Answer as JSON: {"category": "...", "confidence": 0.0-1.0, "reasoning": "..."}

Message: $message"""

# The Sources section is written by the agent from the retrieved chunks (nodes.with_sources),
# so the model is told not to write one: asked to "always add Sources", the 0.5B model often
# wrote nothing but a list of section titles.
TECHNICAL_SYSTEM = """You are TechnicalAgent, a telecom technical support specialist.
Answer the customer's QUESTION using ONLY the CONTEXT below it. If the context does not answer
it, say so and ask for one or two missing details (device model, access type, symptoms).
Rules:
- Be concise and actionable: two to five sentences, or short numbered steps for a procedure.
- Never invent facts, values or steps that are not in the CONTEXT.
- Do not list sources; they are added to your answer automatically.
- Answer in $language."""

TECHNICAL_TURN = """CONTEXT (from the knowledge base):
$context
$conversation
QUESTION:
$question"""
# The customer's earlier messages, so a clarification keeps the problem it clarifies.
EARLIER_MESSAGES = """
EARLIER IN THIS CONVERSATION (the customer's words, oldest first):
$messages
"""

FROM_THE_MANUAL = {
    "en": "Here is what the knowledge base says about this: $sentences",
    "pl": "Oto, co mówi na ten temat baza wiedzy: $sentences",
}
# A Polish question whose answer the model wrote in English (the manuals are English, and the
# 0.5B model mostly follows them over "answer in Polish"): said so in Polish, not passed off.
ONLY_IN_ENGLISH = "Ta część instrukcji jest dostępna tylko po angielsku: $sentences"
NOT_RELIABLE = {
    "en": (
        "I could not put together a reliable answer from the knowledge base. Please see the "
        "sources below, or tell me your device model and what exactly you see."
    ),
    "pl": (
        "Nie udało mi się przygotować rzetelnej odpowiedzi z bazy wiedzy. Zajrzyj do źródeł "
        "poniżej albo podaj model urządzenia i co dokładnie widzisz."
    ),
}

BILLING_SYSTEM = """You are BillingAgent, a precise billing specialist of a telecom operator.
Tools:
$tools
Fill each argument only with what the customer wrote in this conversation; use null for
anything the customer has not said. The customer's id: $user_id. Currency is PLN.
reason is one of:
- not_stated: the customer has not said why (a request alone is not a reason)
- overcharge: billed too much, a wrong or extra charge ("za dużo", "nadpłata", "naliczono")
- service_outage: the service, internet or line did not work, no signal ("awaria", "nie działał",
  "brak zasięgu")
- within_cooling_off: withdrawing within 14 days of signing ("odstąpienie od umowy")
- other: any other reason the customer gives (goodwill, a complaint about service in a shop)"""

BILLING_CHAT = """You are BillingAgent of a telecom operator. Scope: plans and prices, refund
policy, refund cases. Reply in at most 3 sentences, in the customer's language ($language).
If the request is outside billing, say so briefly and say what you can help with.
Do not invent prices, dates or case numbers."""

SOURCES_HEADING = {"en": "Sources:", "pl": "Źródła:"}

NO_CONTEXT = {
    "en": (
        "I couldn't find enough information in the knowledge base to answer that reliably"
        "$missing. To help, please tell me:\n"
        "1) your device or router model,\n"
        "2) your access type (FTTH fibre, DSL, LTE or 5G),\n"
        "3) the exact symptoms (for example the PON/LOS LED colour, error messages, since when)."
    ),
    "pl": (
        "Nie znalazłem w bazie wiedzy wystarczających informacji, aby rzetelnie odpowiedzieć"
        "$missing. Aby pomóc, podaj proszę:\n"
        "1) model urządzenia lub routera,\n"
        "2) rodzaj dostępu (światłowód FTTH, DSL, LTE lub 5G),\n"
        "3) dokładne objawy (np. kolor diody PON/LOS, komunikaty błędów, od kiedy)."
    ),
}
NO_CONTEXT_MISSING = {
    "en": ' (the knowledge base has nothing close enough about "$topic")',
    "pl": ' (baza wiedzy nie zawiera nic wystarczająco bliskiego tematowi "$topic")',
}

MODEL_ERROR = {
    "en": "Sorry, I could not prepare an answer just now. Please try again in a moment.",
    "pl": "Przepraszam, nie udało mi się teraz przygotować odpowiedzi. Spróbuj ponownie za chwilę.",
}

FALLBACK = {
    "en": (
        "I'm a specialist in technical support and billing.\n"
        "I can help with service setup, technical issues, or payments/invoices.\n\n"
        "Please clarify what you need (choose one option or add your own):\n"
        "• [TECH] Internet drops / no internet / APN / Wi-Fi / bridge on ONT\n"
        "• [BILLING] Plan & price / invoice / refund / case status\n"
        "• [OTHER] Describe briefly — I'll route you to the right team."
    ),
    "pl": (
        "Jestem specjalistą od wsparcia technicznego i rozliczeń.\n"
        "Mogę pomóc w konfiguracji usług, problemach technicznych albo płatnościach i fakturach.\n\n"
        "Doprecyzuj proszę, czego potrzebujesz (wybierz opcję lub opisz własnymi słowami):\n"
        "• [TECH] Zrywanie połączenia / brak internetu / APN / Wi-Fi / bridge na ONT\n"
        "• [BILLING] Plan i cena / faktura / zwrot / status zgłoszenia\n"
        "• [INNE] Opisz krótko — przekażę sprawę właściwemu zespołowi."
    ),
}
FALLBACK_HINT = {
    "en": {
        "technical": "\n\nIt sounds like a technical matter: describe the problem and I'll help.",
        "billing": "\n\nIt sounds like a billing matter: tell me what you need with your invoice.",
    },
    "pl": {
        "technical": "\n\nTo brzmi jak sprawa techniczna: opisz problem, a pomogę.",
        "billing": "\n\nTo brzmi jak sprawa rozliczeniowa: napisz, czego potrzebujesz.",
    },
}
GUARDRAIL = {
    "en": "I can't help with that request. I can help with technical support and billing.",
    "pl": "Nie mogę pomóc w tej sprawie. Mogę pomóc we wsparciu technicznym i rozliczeniach.",
}
TURN_LIMIT = {
    "en": "This conversation has grown long. Please start a new one so I can keep helping.",
    "pl": "Ta rozmowa jest już bardzo długa. Rozpocznij proszę nową, abym mógł dalej pomagać.",
}

# Names of tool arguments as a customer reads them, when the agent asks for them.
FIELD_NAMES = {
    "en": {
        "user_id": "your customer ID (for example u123)",
        "invoice_id": "the invoice number (for example INV-20251001)",
        "reason": "the reason (overcharge, service outage, within the 14-day cooling-off, other)",
        "amount_pln": "the amount to refund in PLN",
    },
    "pl": {
        "user_id": "Twój identyfikator klienta (np. u123)",
        "invoice_id": "numer faktury (np. INV-20251001)",
        "reason": "powód (nadpłata, awaria usługi, odstąpienie w 14 dni, inny)",
        "amount_pln": "kwotę zwrotu w PLN",
    },
}
# More than one of the customer's invoices fits what they said ("the 45 zł one").
WHICH_INVOICE = {
    "en": "More than one of your invoices fits that: $choices. Which one do you mean?",
    "pl": "Pasuje do tego więcej niż jedna Twoja faktura: $choices. O którą chodzi?",
}
# The invoice the customer described, named back before the next question.
FOUND_INVOICE = {
    "en": "That is invoice $invoice.",
    "pl": "To faktura $invoice.",
}
# The customer dropped the request before it was made: nothing was opened.
REQUEST_DROPPED = {
    "en": "All right, I have not opened anything. If you need something else, just write.",
    "pl": "Dobrze, niczego nie zgłosiłem. Jeśli potrzebujesz czegoś innego, napisz.",
}
# A correction applied to the case this conversation opened.
CASE_AMENDED = {
    "en": "I have updated your refund case $case: $amount PLN on invoice $invoice "
    "(status: $status). No second case was opened.",
    "pl": "Zaktualizowałem zgłoszenie zwrotu $case: $amount PLN do faktury $invoice "
    "(status: $status). Nie otwierałem drugiego zgłoszenia.",
}
# The customer dropped the request just after its case was opened.
CASE_WITHDRAWN = {
    "en": "All right, I have withdrawn refund case $case; nothing will be refunded on it. If you "
    "need something else, just write.",
    "pl": "Dobrze, wycofałem zgłoszenie zwrotu $case; nic nie zostanie z niego zwrócone. Jeśli "
    "potrzebujesz czegoś innego, napisz.",
}
# A billing reply the model wrote stated what nobody looked up: the offer instead.
BILLING_OFFER = {
    "en": "I am not sure what you need. I can show your plan, your invoices or your refund "
    "cases, explain the refund rules, or open a refund: tell me which.",
    "pl": "Nie jestem pewien, o co chodzi. Mogę pokazać Twój plan, faktury lub zgłoszenia "
    "zwrotu, wyjaśnić zasady zwrotów albo otworzyć zwrot: napisz, czego potrzebujesz.",
}
ASK_FIELDS = {
    "en": "I can help with that. To continue, I need: $fields.",
    "pl": "Chętnie pomogę. Aby kontynuować, potrzebuję: $fields.",
}
# The customer is the signed-in caller (the web UI's sign-in, an API key's end user), never
# someone a message names.
SIGN_IN = {
    "en": "To look at an account I need you to be signed in as its customer. Please sign in, "
    "then ask again.",
    "pl": "Aby sprawdzić konto, musisz być zalogowany jako jego klient. Zaloguj się i zapytaj "
    "ponownie.",
}
OTHER_CUSTOMER = {
    "en": "I can only help with the account you are signed in as, not another customer's. "
    "If you are that customer, please sign in as them.",
    "pl": "Mogę pomóc tylko w sprawie konta, na które jesteś zalogowany, a nie konta innego "
    "klienta. Jeśli to Twoje konto, zaloguj się na nie.",
}
TOOL_FAILED = {
    "en": "I could not complete that: $error",
    "pl": "Nie udało się tego wykonać: $error",
}

# The handoff agent's fixed replies (no model): the ticket opened, then each message held on it
# until a person closes it. The seed's policy says "YOU ARE BEING TRANSFERRED TO A HUMAN AGENT.
# PLEASE HOLD ON."; here the person answers in this same conversation.
HANDOFF_OPENED = {
    "en": (
        "You are being transferred to a person. I opened ticket #$ticket with our conversation "
        "so far; a member of our support team will answer here, in this conversation. Until "
        "then I will add anything you write to the ticket."
    ),
    "pl": (
        "Przekazuję Cię do konsultanta. Założyłem zgłoszenie nr $ticket z dotychczasową "
        "rozmową; pracownik obsługi odpowie tutaj, w tej rozmowie. Do tego czasu dołączę do "
        "zgłoszenia wszystko, co napiszesz."
    ),
}
HANDOFF_HELD = {
    "en": "Thank you, I added your message to ticket #$ticket. A person will answer here.",
    "pl": "Dziękuję, dołączyłem Twoją wiadomość do zgłoszenia nr $ticket. Odpowie Ci konsultant.",
}
