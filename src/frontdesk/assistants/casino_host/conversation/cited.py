"""The catalog items a host reply draws on, and which of its sentences each one supports: the
web UI's sources and inline citation marks, and `frontdesk ask --json`'s claims.

A reply names the items it was worked out from (`sources_used`: the venue of a field reply,
the venues of a list, the items the agent's search gave the model). Each becomes a document a
reader can open, in the words of the casino's own catalog, and the core ties every sentence of
the reply to the documents that state its specifics (agentkit/claims.py). A reply that used no
item (a greeting, a refusal, the fallback, a thing the casino lacks) cites nothing, and of the
items the search gave the model only those a sentence rests on are listed.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from frontdesk.agentkit.claims import with_claims
from frontdesk.assistants.casino_host.content import Catalog
from frontdesk.assistants.casino_host.content.documents import knowledge_items
from frontdesk.knowledge.formatters import item_details


@functools.lru_cache(maxsize=16)
def _documents_by_name(catalog: Catalog) -> dict[str, dict[str, str]]:
    return {
        item.name: {
            "id": f"{catalog.casino_id}/{item.category}/{item.fields['id']}",
            "title": item.name,
            "text": item_details(item.category, item.fields),
            "category": item.category,
        }
        for item in knowledge_items(catalog)
    }


def cited_sources(catalog: Catalog, names: Sequence[str], reply: str) -> dict[str, object]:
    """The `sources` event of a reply that used the items `names`: their documents, in that
    order, and each sentence's citations."""
    by_name = _documents_by_name(catalog)
    documents = [by_name[name] for name in dict.fromkeys(names) if name in by_name]
    cited = with_claims(_sources(documents), reply)
    # The search gives the model several items and its reply may use one: only the items a
    # sentence rests on are shown as sources.
    used = {number for claim in cited["claims"] for number in claim["cites"]}
    if len(used) < len(documents):
        documents = [d for number, d in enumerate(documents, 1) if number in used]
        cited = with_claims(_sources(documents), reply)
    return cited


def _sources(documents: list[dict[str, str]]) -> dict[str, object]:
    return {"sources": [d["title"] for d in documents], "documents": documents}
