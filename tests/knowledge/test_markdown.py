"""Markdown knowledge: front matter (and its failures), normalisation, header-aware chunks."""

from __future__ import annotations

import pytest

from frontdesk.knowledge.markdown import (
    MarkdownKnowledgeError,
    load_markdown_folder,
    normalize_markdown,
    parse_document,
)
from frontdesk.knowledge.markdown_chunking import (
    _headers,
    chunk_document,
    count_tokens,
    extract_keywords,
    section_path_at,
)

DOC = """---
title: "Wi-Fi Troubleshooting"
version: "2.1"
last_updated: "2025-10-15"
audience: end_users
language: en
summary: "Fix Wi-Fi on 2.4 GHz and 5 GHz bands"
---
# Wi-Fi Troubleshooting

<!-- internal note: remove before publishing -->
Intro text.   



## Bands

| Band | Range | Speed |
|------|-------|-------|
| 2.4 GHz | long | lower |
| 5 GHz | short | higher |

### Channels

- Use channel 1, 6 or 11 on 2.4 GHz.
1) Open 192.168.1.1.
"""


def test_front_matter_fields_and_normalisation():
    doc = parse_document(DOC, "02_wifi.md")
    assert doc.doc_id == "02_wifi"
    assert doc.title == "Wi-Fi Troubleshooting" and doc.version == "2.1"
    assert doc.meta["language"] == "en" and doc.meta["audience"] == "end_users"
    assert doc.warnings == ()
    assert "internal note" not in doc.text  # HTML comment removed
    assert "\n\n\n" not in doc.text  # blank runs collapsed
    assert "Intro text.\n" in doc.text  # trailing spaces trimmed
    assert "|" not in doc.text  # table turned into text
    assert "Band: 2.4 GHz; Range: long; Speed: lower" in doc.text
    assert "## Bands" in doc.text and "- Use channel 1" in doc.text  # structure kept


@pytest.mark.parametrize(
    ("raw", "warning"),
    [
        ("# Only a body\ntext", "no front matter"),
        ("---\ntitle: [unclosed\n---\n# Body\ntext", "not valid YAML"),
        ("---\n- a\n- b\n---\n# Body\ntext", "not a mapping"),
        ("---\ntitle: x\n# Body never closed\ntext", "not closed"),
    ],
)
def test_broken_front_matter_warns_and_falls_back(raw, warning):
    doc = parse_document(raw, "broken_doc.md")
    assert any(warning in w and "broken_doc.md" in w for w in doc.warnings)
    assert doc.title in ("Body", "Only a body", "Body never closed")
    assert doc.text.strip()


def test_folder_loading_reports_problems_without_failing(tmp_path):
    (tmp_path / "good.md").write_text(DOC)
    (tmp_path / "bad.md").write_text("---\ntitle: [x\n---\n# Bad\nbody text")
    (tmp_path / "empty.md").write_text("---\ntitle: nothing\n---\n")
    (tmp_path / "README.md").write_text("# not knowledge")
    corpus = load_markdown_folder(tmp_path, "kb")
    assert [d.doc_id for d in corpus.documents] == ["bad", "good"]
    assert any("empty.md" in w for w in corpus.skipped)
    assert any("bad.md" in w for w in corpus.warnings)
    with pytest.raises(MarkdownKnowledgeError):
        load_markdown_folder(tmp_path / "missing", "kb")


def test_code_blocks_keep_pipes_and_headers():
    text = normalize_markdown("```\n| not | a table |\n# not a header\n```\n")
    assert "| not | a table |" in text


def test_section_path_is_last_three_open_headers():
    text = "# A\n## B\n### C\n#### D\nbody\n## E\nmore"
    headers = _headers(text)
    assert section_path_at(headers, text.index("body")) == ["B", "C", "D"]
    assert section_path_at(headers, text.index("more")) == ["A", "E"]


def test_chunks_carry_metadata_and_respect_the_token_budget():
    body = "\n\n".join(
        f"## Section {i}\n\n" + " ".join(f"word{i}x{j}" for j in range(150)) for i in range(6)
    )
    doc = parse_document(f"---\ntitle: Big\nversion: '1.0'\nsummary: section words\n---\n# Big\n{body}", "big.md")
    chunks, dropped = chunk_document(doc, "kb", chunk_tokens=200, overlap_tokens=40)
    assert dropped == 0 and len(chunks) >= 6
    assert all(count_tokens(c.content) <= 200 for c in chunks)
    meta = chunks[1].metadata
    assert meta["doc_id"] == "big" and meta["version"] == "1.0" and meta["property_id"] == "kb"
    assert meta["section_path"].startswith("Big > Section")
    assert len(meta["sha1"]) == 40
    assert "section" in meta["keywords"].split(", ")


def test_low_information_chunks_are_dropped():
    doc = parse_document(
        "---\ntitle: Router\nsummary: router lights\n---\n# Router\n## Lights\nrouter lights guide"
        "\n\n## Misc\n" + "zzz " * 150,
        "r.md",
    )
    chunks, dropped = chunk_document(doc, "kb", chunk_tokens=120, overlap_tokens=10)
    texts = " ".join(c.content for c in chunks)
    assert "router lights guide" in texts
    assert dropped >= 1 and "zzz zzz" not in texts


def test_keywords_come_from_summary_and_headers():
    doc = parse_document(DOC, "w.md")
    keywords = extract_keywords(doc)
    assert len(keywords) <= 12
    assert {"wi-fi", "bands", "channels"} <= set(keywords)
    assert all(2 < len(k) < 24 for k in keywords)
