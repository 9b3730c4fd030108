"""The parts of retrieved sections a question is about (knowledge/passages.py)."""

from __future__ import annotations

from frontdesk.knowledge.passages import focused_passages, split_parts, terms

LED_SECTION = """## PON and LOS LEDs

The PON and LOS LEDs describe the fibre connection. Always read them together.

### PON LED

- **Off**: the box is not trying to register.
- **Blinking green**: the box is registering on the fibre network.
- **Blinking red**: the network rejected its registration. Report a fault.

### LOS LED

- **Blinking red**: no optical signal reaches the box.
- **Steady red**: the signal is too weak for a stable connection."""

BRIDGE_SECTION = """## Switching the Fibre Box to Bridge Mode

1) Connect a computer to the Fibre Box and open http://192.168.1.1.
2) Log in as `admin` with the password from the sticker.
3) Select **Bridge** and confirm.

## Configuring Your Own Router

- Connection type: PPPoE.
- VLAN ID: **35**."""

TABLE_SECTION = """## APN Settings

| Setting | Value |
|---|---|
| APN name | internet.fd |
| MMS proxy | 10.0.0.10 |
| MMS port | 8080 |
| Authentication | none |"""


def hit(content: str) -> dict:
    return {"content": content, "metadata": {}}


def test_a_question_keeps_the_part_it_is_about_under_its_heading():
    passages = focused_passages(
        "My PON LED is blinking red, what does it mean?",
        [hit(LED_SECTION), hit(BRIDGE_SECTION)],
        max_chars=260,
    )
    assert [index for index, _ in passages] == [0]
    text = passages[0][1]
    assert text.startswith("### PON LED")
    assert "rejected its registration" in text
    assert "LOS" not in text  # its "blinking red" is a less likely reading


def test_a_procedure_is_kept_whole_and_in_the_manuals_order():
    (index, text), *_ = focused_passages(
        "how do I switch the fibre box to bridge mode",
        [hit(BRIDGE_SECTION), hit(LED_SECTION)],
        max_chars=600,
    )
    assert index == 0
    steps = [line[:2] for line in text.splitlines() if line[:1].isdigit()]
    assert steps == ["1)", "2)", "3)"]


def test_a_table_row_keeps_the_tables_header_when_the_table_is_cut():
    (_, text), *_ = focused_passages("what is the mms port", [hit(TABLE_SECTION)], max_chars=90)
    lines = text.splitlines()
    assert "| Setting | Value |" in lines
    assert "| MMS port | 8080 |" in lines
    assert "| APN name | internet.fd |" not in lines


def test_everything_kept_fits_the_budget():
    sections = [hit(LED_SECTION), hit(BRIDGE_SECTION), hit(TABLE_SECTION)]
    for budget in (300, 600, 1200):
        passages = focused_passages("box red fibre router mms bridge", sections, budget)
        assert sum(len(text) for _, text in passages) <= budget


def test_the_first_hit_keeps_something_when_no_word_of_the_question_is_in_it():
    passages = focused_passages("zzz qqq", [hit(LED_SECTION), hit(BRIDGE_SECTION)], 500)
    assert [index for index, _ in passages] == [0]


def test_words_meet_across_inflections_in_both_languages():
    assert terms("blinking") & terms("blink")
    assert terms("faktury") & terms("faktura")
    assert terms("LEDs") == terms("LED")
    assert not terms("jak czy się the what")


def test_text_before_the_first_heading_is_a_part_of_its_own():
    parts = split_parts("Intro line.\n## Heading\nBody line.", hit=3)
    assert [(p.heading, p.text.strip(), p.hit) for p in parts] == [
        ("", "Intro line.", 3),
        ("## Heading", "Body line.", 3),
    ]


def test_best_sentences_are_those_holding_the_rarest_words_of_the_question_in_order():
    from frontdesk.knowledge.passages import best_sentences

    found = best_sentences("what does a blinking red PON LED mean", [LED_SECTION], count=1)
    assert found == ["Blinking red: the network rejected its registration."]
    two = best_sentences("what does a blinking red PON LED mean", [LED_SECTION], count=2)
    assert found[0] in two and two == sorted(two, key=LED_SECTION.replace("**", "").find)
    assert all("**" not in s and not s.startswith("-") for s in found)
    assert best_sentences("zzz", [LED_SECTION]) == []


def test_a_question_in_words_the_manual_never_uses_gets_the_hits_in_order_to_the_budget():
    passages = focused_passages(
        "Dlaczego mój internet nie działa wieczorem?",
        [hit(LED_SECTION), hit(BRIDGE_SECTION)],
        max_chars=1200,
    )
    assert [index for index, _ in passages] == [0, 1]
    assert passages[0][1].startswith("## PON and LOS LEDs")
    assert sum(len(text) for _, text in passages) <= 1200
