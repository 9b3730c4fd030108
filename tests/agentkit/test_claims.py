"""Claim-level citations: each answer sentence names the documents that state it."""

from __future__ import annotations

from frontdesk.agentkit.claims import answer_sentences, cite, with_claims

SPA = {
    "title": "Elemis Spa",
    "text": "Elemis Spa: Daily 8:00 AM-8:00 PM. A 50-minute massage costs $165.",
}
VALET = {"title": "Valet parking", "text": "Valet parking costs $25 per visit at the Sky entrance."}
TUSCANY = {"title": "Tuscany", "text": "Tuscany: Italian. Dinner entrees $26-$54."}
FARM = {"title": "The Farm Italy", "text": "The Farm Italy: Italian. Entrees $28-$62."}


def test_a_sentence_cites_the_document_that_states_its_values():
    claims = cite("The spa opens at 8:00 AM.", [VALET, SPA])
    assert [c.cites for c in claims] == [(2,)]
    assert claims[0].quote == "Elemis Spa: Daily 8:00 AM-8:00 PM."


def test_a_value_no_document_states_is_cited_by_none():
    # $150 is in no document: citing the spa would promise the spa says it.
    claims = cite("A massage is $150.", [SPA, VALET])
    assert claims[0].cites == ()


def test_a_sentence_without_specifics_cites_what_it_names_or_restates():
    claims = cite("Elemis Spa is the place for a massage. Please ask again anytime.", [VALET, SPA])
    assert claims[0].cites == (2,)
    assert claims[1].cites == ()  # boilerplate: supported by nothing, cites nothing


def test_values_spread_over_two_documents_cite_both():
    text = "Tuscany is the less expensive of the two. Tuscany: $26-$54. The Farm Italy: $28-$62."
    claims = cite(text, [FARM, TUSCANY])
    assert claims[2].cites == (1,)
    assert claims[1].cites == (2,)
    joint = cite("Tuscany costs $26-$54 and The Farm Italy $28-$62.", [FARM, TUSCANY])
    assert set(joint[0].cites) == {1, 2}


def test_list_lines_are_claims_of_their_own():
    answer = "Italian restaurants:\n- Tuscany: $26-$54\n- The Farm Italy: $28-$62"
    assert answer_sentences(answer) == [
        "Italian restaurants:",
        "- Tuscany: $26-$54",
        "- The Farm Italy: $28-$62",
    ]
    claims = cite(answer, [TUSCANY, FARM])
    assert [c.cites for c in claims[1:]] == [(1,), (2,)]


def test_the_sources_event_gains_claims_only_with_documents():
    assert with_claims({"sources": []}, "Hello!")["claims"] == []
    event = with_claims({"sources": ["Elemis Spa"], "documents": [SPA]}, "It opens at 8:00 AM.")
    assert event["claims"] == [
        {
            "text": "It opens at 8:00 AM.",
            "cites": [1],
            "quote": "Elemis Spa: Daily 8:00 AM-8:00 PM.",
            "quotes": ["Elemis Spa: Daily 8:00 AM-8:00 PM."],
        }
    ]
    assert event["sources"] == ["Elemis Spa"]


DEFINITION = {
    "id": "pkg/graph.py:10-30",
    "title": "pkg/graph.py",
    "text": "def build_graph(checkpointer):\n    graph = StateGraph(State)\n    return graph",
}
CALLER = {
    "id": "pkg/service.py:40-60",
    "title": "pkg/service.py",
    "text": "class Service:\n    def start(self):\n        self.graph = build_graph(saver)",
}


def test_a_line_that_cites_its_lines_rests_on_them_not_on_what_it_names():
    answer = "- `Service.start` in `pkg/service.py` (pkg/service.py:42)"
    claims = cite(answer, [DEFINITION, CALLER])
    assert [c.cites for c in claims] == [(2,)]
    # Lines outside the document's are not a citation of it.
    outside = cite("- `Service.start` in `pkg/service.py` (pkg/service.py:61)", [CALLER])
    assert outside[0].cites == ()


def test_marks_come_in_document_order_each_with_its_own_sentence():
    # The spa's own document supports the sentence best; the pool's states its time too.
    pool = {"title": "Pool", "text": "Pool: Daily 8:00 AM-6:00 PM."}
    claims = cite("Elemis Spa opens at 8:00 AM.", [pool, SPA])
    assert claims[0].cites == (1, 2)
    assert claims[0].quotes == (
        "Pool: Daily 8:00 AM-6:00 PM.",
        "Elemis Spa: Daily 8:00 AM-8:00 PM.",
    )
    assert claims[0].quote == "Elemis Spa: Daily 8:00 AM-8:00 PM."  # the best one's
