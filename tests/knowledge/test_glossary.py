"""Query translation by glossary, and the MMR retriever searching with the translation."""

from __future__ import annotations

import pytest

from frontdesk.knowledge.glossary import Glossary, GlossaryError
from frontdesk.knowledge.index import KnowledgeIndex
from frontdesk.knowledge.ingest import ingest
from frontdesk.knowledge.markdown import load_markdown_folder
from frontdesk.knowledge.markdown_chunking import chunk_corpus
from frontdesk.knowledge.mmr import MMRRetriever, MMRSettings

GLOSSARY = """# a comment
diod*\tLED
miga*\tblinking
czerwon*\tred
tryb* most*\tbridge mode
most*\tbridge
na
"""

DOCS = {
    "leds.md": "---\ntitle: LEDs\naudience: customer\n---\n# LEDs\n## PON LED\nA blinking red "
    "PON LED means the network rejected the box.\n## Power LED\nA steady green power LED "
    "means the box works.\n",
    "bridge.md": "---\ntitle: Bridge\naudience: customer\n---\n# Bridge\n## Bridge mode\nIn "
    "bridge mode your own router makes the PPPoE session on VLAN 35.\n",
    "policy.md": "---\ntitle: Agent policy\naudience: agent\n---\n# Policy\n## Transfers\nCall "
    "transfer_to_human_agents and tell the customer to hold. Escalation zebra quantum.\n",
}


def _glossary(tmp_path, text=GLOSSARY) -> Glossary:
    path = tmp_path / "glossary.tsv"
    path.write_text(text, encoding="utf-8")
    return Glossary.load(path)


def test_translation_uses_prefixes_longest_entries_and_keeps_unknown_words(tmp_path):
    glossary = _glossary(tmp_path)
    assert glossary.translate("Dioda PON miga na czerwono") == "LED pon blinking red"
    # "tryb* most*" (two words) wins over "most*"; the inflected "trybie mostu" matches.
    assert glossary.translate("Fibre Box w trybie mostu") == "fibre box w bridge mode"
    assert glossary.translate("mostek") == "bridge"
    assert glossary.translate("na") == ""  # matched, and nothing to say
    assert glossary.translate("How do I reset the box?") is None  # nothing matched
    assert glossary.translate("nano SIM") is None  # "na" matches only the whole word


@pytest.mark.parametrize(
    ("text", "error"),
    [("", "has no entries"), ("# only a comment\n", "has no entries"), ("*\tx\n", ":1: an entry")],
)
def test_a_bad_glossary_is_a_clear_error(tmp_path, text, error):
    with pytest.raises(GlossaryError, match=error):
        _glossary(tmp_path, text)
    with pytest.raises(GlossaryError, match="cannot read"):
        Glossary.load(tmp_path / "missing.tsv")


def _retriever(tmp_path, hash_embeddings, translate=None, **settings):
    folder = tmp_path / "docs"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in DOCS.items():
        (folder / name).write_text(text)
    corpus = load_markdown_folder(folder, "kb")
    index = KnowledgeIndex(tmp_path / "index", hash_embeddings, "hash", title_keys=("title",))
    ingest(corpus, index, chunk_size=40, overlap=5, chunker=chunk_corpus)
    options = {"threshold": -1.0, "min_hits": 1, **settings}
    return MMRRetriever(index, "kb", MMRSettings(**options), translate=translate)


def test_a_translated_question_finds_the_section_in_the_other_language(tmp_path, hash_embeddings):
    glossary = _glossary(tmp_path)
    plain = _retriever(tmp_path / "a", hash_embeddings)
    translating = _retriever(tmp_path / "b", hash_embeddings, translate=glossary.translate)
    question = "dioda miga na czerwono"
    without, found = plain.retrieve(question), translating.retrieve(question)
    assert found.hits[0]["metadata"]["doc_id"] == "leds"
    assert found.extra["translated_query"] == "LED blinking red"
    assert found.relevance > without.relevance + 0.3  # coverage and similarity both rise
    # A question the glossary has nothing for is searched as written, nothing recorded.
    assert translating.retrieve("PPPoE VLAN 35").extra == {}


def test_only_the_served_audience_is_retrieved_and_counted(tmp_path, hash_embeddings):
    everyone = _retriever(tmp_path / "a", hash_embeddings)
    customers = _retriever(tmp_path / "b", hash_embeddings, audiences=("customer",))
    question = "transfer_to_human_agents escalation zebra quantum"
    assert everyone.retrieve(question).hits[0]["metadata"]["doc_id"] == "policy"
    found = customers.retrieve(question)
    assert found.hits and all(h["metadata"]["audience"] == "customer" for h in found.hits)
    assert "transfer_to_human_agents" not in " ".join(h["content"] for h in found.hits)
    # The agents' words do not make a customer's question look covered either.
    assert everyone.coverage("zebra quantum") == 1.0 and customers.coverage("zebra quantum") == 0.0
    nobody = _retriever(tmp_path / "c", hash_embeddings, audiences=("partner",))
    empty = nobody.retrieve("PON LED")
    assert empty.no_context and empty.hits == [] and "audience" in empty.reason


def test_a_front_matter_change_reaches_the_index_without_re_embedding(tmp_path, hash_embeddings):
    folder = tmp_path / "docs"
    folder.mkdir()
    page = "---\ntitle: Policy\naudience: {}\n---\n# Policy\n## Transfers\nCall the desk.\n"
    (folder / "policy.md").write_text(page.format("customer"))
    index = KnowledgeIndex(tmp_path / "index", hash_embeddings, "hash", title_keys=("title",))
    ingest(load_markdown_folder(folder, "kb"), index, chunk_size=40, overlap=5, chunker=chunk_corpus)
    retriever = MMRRetriever(index, "kb", MMRSettings(threshold=-1.0, min_hits=1, audiences=("customer",)))
    assert retriever.retrieve("call the desk").hits
    (folder / "policy.md").write_text(page.format("agent"))  # the text, hence the ids, stay
    report = ingest(
        load_markdown_folder(folder, "kb"), index, chunk_size=40, overlap=5, chunker=chunk_corpus
    )
    assert report.relabelled >= 1 and report.added == 0
    assert retriever.retrieve("call the desk").hits == []


def test_a_word_at_a_sentences_end_matches_without_its_full_stop(tmp_path):
    path = tmp_path / "g.tsv"
    path.write_text("hoy\ttoday\nwi-fi\twifi\n", encoding="utf-8")
    glossary = Glossary.load(path)
    assert glossary.translate("¿Abren hoy.") == "abren today"
    assert glossary.translate("hay wi-fi?") == "hay wifi"
