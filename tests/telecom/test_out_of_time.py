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
    # Only what is true: the turn does not know that others are asking.
    assert "many customers" not in text


def test_without_sections_it_still_says_where_to_ask_in_polish():
    state = {"messages": [HumanMessage("Dlaczego moja faktura jest wyższa?")]}
    text = out_of_time_answer(state)
    assert "obsługą klienta" in text and "• " not in text
    assert "wielu klientów" not in text


def test_a_question_the_manual_holds_gets_its_sentences_quoted_and_cited():
    drops = {
        "content": "## Drops on Wi-Fi Only\n- If the drops happen on 5 GHz and last about a "
        "minute, choose a fixed channel between 36 and 48.\n- Older devices dislike WPA3.",
        "metadata": {"title": "Internet troubleshooting", "section_path": "Connection drops"},
        "score": 0.9,
    }
    state = {
        "messages": [HumanMessage("My wifi drops for a minute on 5 GHz, which channel?")],
        "retrieved_context": [drops, hit("Router LED indicators", "Orange Internet LED")],
    }
    text = out_of_time_answer(state)
    assert text.startswith("Here is what the knowledge base says about this:")
    assert "between 36 and 48" in text and "WPA3" not in text
    assert text.rstrip().endswith("Internet troubleshooting — Connection drops")
    # Its sources are the sections it quotes, so each sentence carries a mark that opens one.
    from frontdesk.agentkit.claims import with_claims
    from frontdesk.assistants.telecom.service import sources_of

    sources = with_claims(sources_of({**state, "route": "technical"}), text)
    assert sources["documents"][0]["title"] == "Internet troubleshooting — Connection drops"
    quoted = [c for c in sources["claims"] if "between 36 and 48" in c["text"]]
    assert quoted and quoted[0]["cites"] == [1]


def test_each_cited_section_opens_on_its_own_text_whatever_the_order():
    """The citations of an answer need not follow the order of the retrieved hits: each
    document's text is its own section's (a Polish question's marks had opened the invoices
    section on the APN steps)."""
    from frontdesk.assistants.telecom.service import sources_of
    from frontdesk.knowledge.mmr import citation_of

    apn = {
        "content": "1) Connect to Wi-Fi and go to Settings > General > About.",
        "metadata": {
            "title": "APN Settings",
            "section_path": "APN Settings > iPhone",
            "path": "04.md",
        },
        "score": 0.5,
    }
    invoices = {
        "content": "Plan zmienisz w aplikacji w zakładce Plan.",
        "metadata": {"title": "Faktury", "section_path": "Faktury > Zmiana planu", "path": "12.md"},
        "score": 0.6,
    }
    state = {
        "route": "technical",
        "retrieved_context": [invoices, apn],
        "last_docs": [citation_of(apn), citation_of(invoices)],
    }
    documents = sources_of(state)["documents"]
    assert [d["title"] for d in documents] == ["APN Settings — iPhone", "Faktury — Zmiana planu"]
    assert documents[0]["text"] == apn["content"] and documents[1]["text"] == invoices["content"]
