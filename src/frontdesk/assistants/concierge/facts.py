"""The facts step: what a question asks (which item, which field, which day, a comparison, a
thing the resort lacks, the shows on some dates), answered from the structured items in code.

Shown the right entry, the 0.5B model still gives the capacity of the neighbouring item, turns
"cash or chips only" into "you can pay by card" and compares prices the wrong way round. Where
the knowledge has the structure (hours, prices, phone numbers, capacities, check-in times, a
policy's own answer, dated performances), the answer is worked out here and phrased from a
template; the model answers the rest. A question about a named thing the knowledge does not
mention at all is answered as absent, never with somebody else's hours or prices.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from frontdesk.assistants.concierge.absent import (
    PROPERTY_WORDS,
    absent_answer,
    asked_thing,
    item_words,
    missing_place,
    present_answer,
)
from frontdesk.assistants.concierge.described import (
    FIELD_WORDS,
    described_answer,
    opened_comparison,
)
from frontdesk.assistants.concierge.events import events_answer
from frontdesk.assistants.concierge.fact_answer import FactAnswer
from frontdesk.assistants.concierge.phrases import phrases
from frontdesk.knowledge.absence import STOP_WORDS, content_words, guide_words, known
from frontdesk.knowledge.focus import names_item
from frontdesk.knowledge.lists import list_answer
from frontdesk.knowledge.loader import KnowledgeItem
from frontdesk.knowledge.schedule import asked_days, hours_by_day
from frontdesk.routing.asked_field import asked_field
from frontdesk.routing.followup import asks_its_own_question, corrects_previous
from frontdesk.routing.question_form import asks_whether_exists

_STOP = STOP_WORDS | PROPERTY_WORDS
_CHEAPER = re.compile(r"\bcheaper\b|\bless expensive\b|\bmore affordable\b|\bcheapest\b")
_PRICIER = re.compile(r"\bpricier\b|\bmore expensive\b|\bcostlier\b|\bmost expensive\b|\bfancier\b")
_BIGGER = re.compile(r"\bbigger\b|\blarger\b|\bholds? more\b|\bmore (?:seats|people)\b|\bsmaller\b")
_YES_NO = re.compile(r"^(?:is|are|can|could|may|do|does|will|am)\b")


_words = guide_words


def _content(text: str) -> set[str]:
    return content_words(text, PROPERTY_WORDS)


def named_items(question: str, items: Sequence[KnowledgeItem]) -> list[KnowledgeItem]:
    """The items `question` names, in full first ("Sky Tower", not "Sky Tower Suite")."""
    exact = [i for i in items if names_item(question, i.name, exact=True)]
    # "Sky Tower" inside "Sky Tower Deluxe King Room": keep the longer name only.
    exact = [i for i in exact if not any(o is not i and i.name in o.name for o in exact)]
    return exact or [i for i in items if names_item(question, i.name)]


def subject_items(
    question: str, items: Sequence[KnowledgeItem], retrieved: Sequence[str]
) -> tuple[list[KnowledgeItem], bool]:
    """The items a question is about, and whether it names them: those it names, else the
    retrieved items, best first, whose names share a word with it ("the spa", Elemis Spa)."""
    named = named_items(question, items)
    if named:
        return named, True
    by_name = {i.name: i for i in items}
    words = _content(question)
    overlapping = [by_name[n] for n in retrieved if n in by_name and words & _name_words(n)]
    return overlapping, False


def _name_words(name: str) -> set[str]:
    """A name's words, and each two of them written as one ("Steak House": "steakhouse")."""
    words = re.findall(r"[a-z]+", name.casefold())
    return _content(name) | {a + b for a, b in itertools.pairwise(words)}


def _names_words(subjects: Sequence[KnowledgeItem]) -> set[str]:
    return {w for i in subjects for w in _content(i.name)}


def _low_price(text: str) -> float:
    found = re.findall(r"\$(\d+(?:\.\d+)?)", text)
    return float(found[0]) if found else float("inf")


def _tier(text: str) -> int:
    match = re.match(r"\$+", text.strip())
    return len(match.group(0)) if match else 0


def _price(item: KnowledgeItem) -> str | None:
    return item.fields.get("price_range") or item.fields.get("rate_range")


def _hours(item: KnowledgeItem) -> str | None:
    return item.fields.get("hours") or item.fields.get("schedule")


def _capacity(item: KnowledgeItem) -> int | None:
    value = item.fields.get("capacity")
    return value if isinstance(value, int) else None


def compare(
    question: str, subjects: Sequence[KnowledgeItem], language: str = "en"
) -> FactAnswer | None:
    """Which of two named items is cheaper, pricier or bigger, from their own values."""
    say = phrases(language)
    text = question.casefold()
    if len(subjects) < 2:
        return None
    a, b = subjects[:2]
    if _CHEAPER.search(text) or _PRICIER.search(text):
        pa, pb = _price(a), _price(b)
        if not pa or not pb:
            return None
        ka, kb = (_tier(pa), _low_price(pa)), (_tier(pb), _low_price(pb))
        if ka == kb:
            return None
        cheap, dear = (a, b) if ka < kb else (b, a)
        lead = (
            say.cheaper.format(name=cheap.name)
            if _CHEAPER.search(text)
            else say.pricier.format(name=dear.name)
        )
        return FactAnswer(
            say.both_prices.format(
                lead=lead, a=cheap.name, pa=_price(cheap), b=dear.name, pb=_price(dear)
            ),
            (a.name, b.name),
        )
    if _BIGGER.search(text):
        ca, cb = _capacity(a), _capacity(b)
        if ca is None or cb is None or ca == cb:
            return None
        big, small = (a, b) if ca > cb else (b, a)
        return FactAnswer(
            say.larger.format(
                big=big.name, cb=f"{_capacity(big):,}", small=small.name, cs=f"{_capacity(small):,}"
            ),
            (a.name, b.name),
        )
    return None


def field_answer(
    field: str,
    subjects: Sequence[KnowledgeItem],
    days: list[int],
    main_phone: str,
    language: str = "en",
) -> FactAnswer | None:
    """The asked field of the first subject that has it, as one or two sentences."""
    say = phrases(language)
    for item in subjects:
        name, fields = item.name, item.fields
        if field in ("check_in", "check_out") and fields.get(field):
            label = say.check_in if field == "check_in" else say.check_out
            other = "check_out" if field == "check_in" else "check_in"
            pattern = say.at_time if re.match(r"\d", fields[field]) else say.stated
            text = pattern.format(label=label, value=fields[field])
            if fields.get(other):
                other_label = (say.check_out if field == "check_in" else say.check_in).split()[-1]
                text += say.other_field.format(label=other_label.lower(), value=fields[other])
            return FactAnswer(
                say.per_item.format(text=text, name=name, phone=fields.get("phone", main_phone)),
                (name,),
            )
        if field == "phone":
            if fields.get("phone"):
                return FactAnswer(say.phone.format(name=name, value=fields["phone"]), (name,))
            return FactAnswer(say.no_phone.format(name=name, phone=main_phone), (name,))
        if field == "capacity" and _capacity(item):
            unit = say.seats if item.category == "entertainment" else say.guests
            return FactAnswer(
                say.capacity.format(name=name, value=f"{_capacity(item):,}", unit=unit), (name,)
            )
        if field == "price" and _price(item):
            return FactAnswer(say.price.format(name=name, value=_price(item)), (name,))
        if field == "hours" and (hours := _hours(item)):
            by_day = hours_by_day(hours)
            if by_day:
                # "Wed-Sun 5:00 PM-10:00 PM" lists the days it opens: Monday is not one.
                by_day = {d: by_day.get(d, ["closed"]) for d in range(7)}
            stated = [d for d in days if d in by_day]
            if stated:
                sentences = []
                for day in stated:
                    open_hours = [h for h in by_day[day] if h != "closed"]
                    sentences.append(
                        say.open_on.format(
                            day=say.days[day], name=name, hours=say.and_.join(open_hours)
                        )
                        if open_hours
                        else say.closed_on.format(day=say.days[day], name=name)
                    )
                text = " ".join(sentences)
            else:
                label = say.hours if item.fields.get("hours") else say.schedule
                text = label.format(name=name, value=hours)
            return FactAnswer(text + say.confirm.format(phone=main_phone), (name,))
    return None


def policy_answer(
    question: str, retrieved: Sequence[KnowledgeItem], language: str = "en"
) -> FactAnswer | None:
    """A yes/no question that an FAQ entry answers: that entry's own answer, word for word (a
    small model loses its negations: "cash or chips only" became "you can pay by card")."""
    if not _YES_NO.match(question.casefold().strip()) or not retrieved:
        return None
    top = retrieved[0]
    if top.category != "faq" or not top.fields.get("answer"):
        return None
    shared = _content(question) & _content(
        f"{top.fields.get('question', '')} {top.fields['answer']}"
    )
    if len(shared) < 2:
        return None
    return FactAnswer(phrases(language).from_guide + str(top.fields["answer"]), (top.name,))


def work_out(
    question: str,
    *,
    previous: str | None,
    previous_items: Sequence[str] = (),
    items: Sequence[KnowledgeItem],
    retrieved: Sequence[str],
    today: date | None,
    property: dict[str, Any],
    current_time: str = "",
    language: str = "en",
) -> FactAnswer | None:
    """The answer to `question` worked out from the items, or None when its shape is not one
    the structure answers. `previous` is the guest's question before it when this one leans on
    it ("what about Wednesday?"): its subject and field carry over, the new day does not;
    `previous_items`, the items the answer to it used, are that subject first."""
    main_phone = property.get("phone", "")
    # "is the roadhouse open sunday? want comedy after": a named venue's hours, not the shows.
    venue_hours_asked = asked_field(question) == "hours" and any(
        _hours(i) and not i.fields.get("performances") for i in named_items(question, items)
    )
    if not venue_hours_asked and (found := events_answer(question, items, today)):
        return found
    by_name = {i.name: i for i in items}
    ranked = [by_name[n] for n in retrieved if n in by_name]
    if listed := _list_of(question, items, property.get("name", "the resort"), language):
        return listed
    if missing := missing_place(question, items, property.get("description", "")):
        return absent_answer(
            missing,
            property.get("name", "The resort"),
            ranked,
            language,
            field=asked_field(question),
        )
    thing = asked_thing(question)
    if (
        thing
        and asks_whether_exists(question)
        and (found := present_answer(thing, items, language))
    ):
        return found
    subjects, named = subject_items(question, items, retrieved)
    # A follow-up that names nothing ("how many rooms does it have") is about what the answer
    # before it was about, not about a retrieved item that shares only the asked field's word
    # with it (a room). "what if we just valet it" names valet parking: that one.
    # Not after "no wait, I meant the steakhouse": that takes the answer's item back.
    answered = [by_name[n] for n in previous_items if n in by_name] if previous else []
    if corrects_previous(question):
        answered = []
    if not named and answered and not _content(question) - FIELD_WORDS & _names_words(subjects):
        subjects, named = answered, True
    elif not subjects and previous and not corrects_previous(question):
        subjects, named = subject_items(previous, items, retrieved)
    if found := compare(question, subjects, language):
        return found
    if dated := opened_comparison(question, subjects, language):
        return FactAnswer(*dated)
    # The previous question's field carries over only to a message that asks nothing of its
    # own: "and on Sunday?" after an hours question, not "where can I park free?" after a price.
    carried = previous and not asks_its_own_question(question)
    field = asked_field(question) or (asked_field(previous) if carried else None)
    days = asked_days(question, current_time) or (
        asked_days(previous, current_time) if previous else []
    )
    if field in ("check_in", "check_out"):
        # The named or retrieved items that state it, then the others: a short search can
        # return the late check-out item alone, and the standard time must still be found.
        # Among the others, the one named for check-in/out before the towers that list it.
        if not any(i.fields.get(field) for i in subjects):
            subjects = [i for i in ranked if i.fields.get(field)]
        # Only when this question asks it: a field carried over from the previous question
        # ("whens checkout", then "who runs the sportsbook here") must not answer a new one.
        asked_now = asked_field(question) == field
        stating = [i for i in items if asked_now and i.fields.get(field) and i not in subjects]
        stating.sort(key=lambda i: "check" not in i.name.casefold())
        subjects = [*subjects, *stating]
        # "When's checkout?" asks the standard time, "can I check out late?" the exception:
        # the item whose value is a clock time comes first unless early or late is asked.
        exception_asked = bool(re.search(r"\b(early|late|later|earlier)\b", question.casefold()))
        subjects = sorted(
            subjects,
            key=lambda i: bool(re.match(r"\d", i.fields.get(field, ""))) == exception_asked,
        )
    if field == "phone" and not named:
        # Only a venue the guest named: "what number do I call to book a room" is about the
        # hotel's line, not the phone of whichever room ranked first.
        subjects = [i for i in subjects[:1] if i.fields.get("phone")]
    if field == "hours" and not named:
        subjects = [i for i in subjects if _hours(i)][:1]
    if field and subjects and (found := field_answer(field, subjects, days, main_phone, language)):
        return found
    if subjects and (quoted := described_answer(question, subjects, language)):
        return FactAnswer(quoted[0], (quoted[1],))
    return policy_answer(question, ranked, language)


def _list_of(
    question: str, items: Sequence[KnowledgeItem], property_name: str, language: str
) -> FactAnswer | None:
    """A list question ("which restaurants have a kids' menu") answered in code (lists.py);
    not one that names an item ("which restaurants are near Mohegan Sun Arena" is the model's)."""
    if named_items(question, items):
        return None
    say = phrases(language)

    def heading(category: str, filters: list[str]) -> str:
        words = say.list_filters.format(words=", ".join(filters)) if filters else ""
        name = say.categories.get(category, category)
        return say.list_heading.format(category=name, property=property_name, filters=words)

    found = list_answer(
        question,
        items,
        words_of=_content,
        has_word=lambda word, item: known(word, item_words(item)),
        heading=heading,
        more=say.list_more,
    )
    return FactAnswer(found.text, found.items) if found else None


def items_used(answer: str, context: list[dict[str, Any]], fact_items: list[str]) -> list[str]:
    """The items an answer drew on: those it was worked out from, else the retrieved items it
    names, else the one it was about (the first retrieved)."""
    if fact_items:
        return list(fact_items)
    names = list(dict.fromkeys(doc["metadata"].get("item_name", "") for doc in context))
    names = [n for n in names if n]
    folded = answer.casefold()
    return [n for n in names if n.casefold() in folded] or names[:1]
