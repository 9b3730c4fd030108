"""The real code QA service behind the web chat: the repository picker lists the indexed
repositories and its choice goes with each question; a citation opens the cited lines,
numbered and marked, in the source dialog. Hash embeddings and a scripted model: the fast
path answers "where is X defined" from the symbol index, so what is tested is the service's
events and the page."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from frontdesk.assistants.codeqa.service import build_service, open_index
from frontdesk.config import Settings
from frontdesk.runtime import Models

from .conftest import LiveServer, ask, expect, open_page

pytestmark = pytest.mark.browser

SMALL_REPO = {
    "pkg/client.py": (
        '"""A tiny HTTP client."""\n\nimport json\n\n\nclass HTTPClient:\n'
        "    def get_json(self, path):\n"
        '        """GET `path` and decode the body."""\n'
        "        return json.loads(self._fetch(path))  # decoded\n"
    ),
    "README.md": "# pkg\n\nA tiny HTTP client.\n",
}
OTHER_REPO = {"lib/tools.py": 'def render_badge(text):\n    """A badge."""\n    return text\n'}


def write_repo(root, files):
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.fixture(scope="module")
def codeqa_server(tmp_path_factory) -> Iterator[LiveServer]:
    base = tmp_path_factory.mktemp("codeqa-ui")
    small = write_repo(base / "small", SMALL_REPO)
    other = write_repo(base / "other", OTHER_REPO)

    async def load(settings: Settings):
        # A second repository indexed beforehand, as `frontdesk codeqa index` would.
        models = Models(settings)
        open_index(settings, models).index(other, "other")
        service = await build_service(settings, models)
        for _ in range(200):  # the worker indexes "small" in the background
            if service.info()["indexing"]["stage"] == "done":
                break
            await asyncio.sleep(0.05)
        return {"codeqa": service}

    with LiveServer(
        load=load,
        assistant="codeqa",
        llm_provider="scripted",
        embeddings_provider="hash",
        checkpointer="memory",
        plugin_settings={"codeqa": {"repo_path": small, "repo_id": "small"}},
    ) as server:
        yield server


@pytest.fixture
def codeqa_page(browser, codeqa_server, problems):
    page = open_page(browser, codeqa_server, problems)
    yield page
    page.context.close()


def test_the_picker_chooses_the_repository_and_citations_open_the_cited_lines(codeqa_page):
    page = codeqa_page
    picker = page.get_by_label("Repository")
    expect(picker).to_be_visible()
    expect(picker.locator("option")).to_have_text(["other", "small"])
    expect(picker).to_have_value("small")

    answer = ask(page, "Where is `get_json` defined?")
    expect(answer.locator(".bubble-text")).to_contain_text("pkg/client.py")
    chip = answer.locator(".sources .source-open")
    expect(chip).to_have_count(1)
    label = chip.inner_text().strip().lstrip("•").strip()
    assert label.startswith("pkg/client.py:")
    start, end = (int(n) for n in label.split(":")[1].split("-"))

    chip.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#document-category")).to_have_text("pkg/client.py")
    cited = dialog.locator('.code-line[data-cited="true"]')
    expect(cited).to_have_count(end - start + 1)
    expect(cited.first.locator(".code-number")).to_have_text(str(start))
    expect(cited.first).to_contain_text("def get_json")
    expect(cited.first.locator(".tok-keyword").first).to_have_text("def")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    # The inline mark after the sentence opens the same code at the same lines (names with
    # "_" had no mark; a mark opened the code as text, with nothing marked).
    mark = answer.locator(".bubble-text .cite-mark").first
    expect(mark).to_be_visible()
    mark.click()
    expect(dialog).to_be_visible()
    expect(dialog.locator('.code-line[data-cited="true"]')).to_have_count(end - start + 1)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    # The other repository: its code is found, the first one's is not.
    picker.select_option("other")
    answer = ask(page, "Where is `render_badge` defined?")
    expect(answer.locator(".bubble-text")).to_contain_text("lib/tools.py")
    page.reload()
    expect(page.get_by_label("Repository")).to_have_value("other")  # remembered
