"""Telecom's answer for a turn out of time: the manual sections found, and how to reach
support, in the customer's language."""

from langchain_core.messages import HumanMessage

from frontdesk.assistants.telecom.service import out_of_time_answer


def hit(title: str, section: str) -> dict:
    return {"content": "...", "metadata": {"title": title, "section_path": section}, "score": 0.9}


def test_lists_the_retrieved_sections_once_and_where_to_ask():
    state = {
        "messages": [HumanMessage("My internet keeps dropping")],
        "retrieved_context": [
            hit("Internet troubleshooting", "Connection drops"),
            hit("Internet troubleshooting", "Connection drops"),
            hit("Router LED indicators", "Orange Internet LED"),
        ],
    }
    text = out_of_time_answer(state)
    assert text.count("• ") == 2
    assert "• Internet troubleshooting — Connection drops" in text
    assert "• Router LED indicators — Orange Internet LED" in text
    assert "contact customer support" in text


def test_without_sections_it_still_says_where_to_ask_in_polish():
    state = {"messages": [HumanMessage("Dlaczego moja faktura jest wyższa?")]}
    text = out_of_time_answer(state)
    assert "obsługą klienta" in text and "• " not in text
