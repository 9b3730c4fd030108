"""codeqa's answers suite on a set in the core answers format: follow-up threads asked in one
conversation, questions about what a repository lacks, each asked about its row's repository."""

from __future__ import annotations

import json
from types import SimpleNamespace

from frontdesk.assistants.codeqa.suites import conversation_set, run_conversations


class FakeService:
    def __init__(self) -> None:
        self.asked: list[tuple[str, str, str]] = []

    async def ask(self, question: str, thread_id: str, *, scope: str) -> SimpleNamespace:
        self.asked.append((question, thread_id, scope))
        if "frobnicate" in question:
            return SimpleNamespace(answer="frobnicate is not defined anywhere in the repository.")
        return SimpleNamespace(answer="Signer.sign in src/itsdangerous/signer.py:200-210.")


class FakeRepositories:
    def __init__(self) -> None:
        self.prepared: set[str] = set()

    def prepare(self, repo_ids: set[str]) -> None:
        self.prepared |= repo_ids


def write(path, rows) -> None:
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")


async def test_threads_share_a_conversation_and_absence_is_scored(tmp_path):
    dataset = tmp_path / "followups.jsonl"
    write(dataset, [
        {"question": "Where is a value signed?", "repo": "itsdangerous", "thread": "a",
         "must_include": ["sign"]},
        {"question": "And in which file?", "repo": "itsdangerous", "thread": "a",
         "must_include": ["signer.py"]},
        {"question": "Where is frobnicate?", "repo": "click", "absent": True},
    ])  # fmt: skip
    service, repositories = FakeService(), FakeRepositories()
    result = await run_conversations(dataset, service, repositories)
    assert repositories.prepared == {"itsdangerous", "click"}
    [(_, first, scope1), (_, second, _), (_, third, scope3)] = service.asked
    assert first == second != third and (scope1, scope3) == ("itsdangerous", "click")
    assert [row["passed"] for row in result.details] == [True, True, True]


def test_a_gold_file_set_is_not_a_conversation_set(tmp_path):
    gold = tmp_path / "gold.jsonl"
    write(gold, [{"question": "q", "repo": "r", "gold_files": ["a.py"], "gold_symbols": []}])
    core = tmp_path / "core.jsonl"
    write(core, [{"question": "q", "repo": "r", "must_include": ["x"]}])
    assert not conversation_set(gold) and conversation_set(core)
