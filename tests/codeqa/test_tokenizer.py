"""Identifiers meet questions: whole names match exactly, and their words match the prose."""

from __future__ import annotations

from langchain_core.documents import Document

from frontdesk.assistants.codeqa.retrieval.tokenizer import code_terms, identifier_parts
from frontdesk.knowledge.index import KeywordIndex


def test_identifiers_are_kept_whole_and_split_into_stemmed_words():
    assert identifier_parts("HTTPClient") == ["http", "client"]
    assert identifier_parts("get_user_v2") == ["get", "user", "v", "2"]
    assert code_terms("where is get_user defined?") == ["get_user", "get", "user", "defin"]
    assert code_terms("HTTPClient") == ["httpclient", "http", "client"]
    # A plain word is its stem alone, so "tokenization" and "tokenize" meet.
    assert code_terms("tokenization") == code_terms("tokenize") == ["token"]
    assert code_terms("How does it work?") == ["work"]


def test_keyword_search_finds_code_by_the_words_inside_its_names():
    docs = [
        Document(page_content="class HTTPClient:\n    def get_json(self, path): ..."),
        Document(page_content="def parse_config_file(path):\n    return toml.load(path)"),
        Document(page_content="def get_user(user_id):\n    return db.users[user_id]"),
    ]
    index = KeywordIndex(docs, tokenizer=code_terms)
    first = [index.search(q, 1)[0][0] for q in ("the http client", "get_user", "config parsing")]
    assert first == [docs[0], docs[2], docs[1]]
    # The core's default tokenizer reads `HTTPClient` as one word: the split is what finds it.
    assert KeywordIndex(docs).search("http client", 3) == []
    assert index.search("http client", 1)[0][0] == docs[0]
