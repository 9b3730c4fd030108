"""The repository map ranks what other files use and fits a token budget."""

from __future__ import annotations

from frontdesk.assistants.codeqa.retrieval.repo_map import (
    CHARS_PER_TOKEN,
    _pagerank,
    rank_definitions,
    render_map,
)

from .conftest import manifest_entries


def test_pagerank_favours_what_is_pointed_at_and_follows_personalisation():
    edges = [("a", "c", "f", 1.0), ("b", "c", "f", 1.0), ("c", "a", "g", 1.0)]
    rank = _pagerank(["a", "b", "c"], edges, [])
    assert max(rank, key=rank.get) == "c"
    assert abs(sum(rank.values()) - 1.0) < 1e-6
    toward_b = _pagerank(["a", "b", "c"], edges, ["b"])
    assert toward_b["b"] > rank["b"]


def test_the_map_lists_used_definitions_first_within_the_budget(small_repo):
    entries, _ = manifest_entries(small_repo)
    ranked = rank_definitions(entries)
    used = [d["qualified"] for score, _, d in ranked if score > 0]
    # make_client is the one name another file calls (the test); calls within a file and
    # imports are not links between files.
    assert used == ["make_client"]
    assert {d["qualified"] for score, _, d in ranked if score == 0} >= {"load_settings"}
    full = render_map(ranked, token_budget=1000)
    assert "pkg/client.py:\n" in full and "  def make_client(url)" in full
    small = render_map(ranked, token_budget=20)
    assert len(small) <= 20 * CHARS_PER_TOKEN and small.splitlines()[0].endswith(":")
    assert render_map([], 100) == ""
