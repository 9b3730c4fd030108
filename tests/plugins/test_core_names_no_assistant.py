"""The core never names an assistant: adding one must not mean editing the core.

Every Python module outside `frontdesk/assistants/<name>/`, and the web shell, is read token
by token: no identifier may contain an installed assistant's name, and no string may be one or
import one. Comments and docstrings may mention them as examples.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

from frontdesk.assistants.registry import plugins

SRC = Path(__file__).resolve().parents[2] / "src" / "frontdesk"
NAMES = sorted(plugins())


def core_modules() -> list[Path]:
    assistants = SRC / "assistants"
    plugin_dirs = [p for p in assistants.iterdir() if p.is_dir() and (p / "plugin.py").exists()]
    return [
        path
        for path in sorted(SRC.rglob("*.py"))
        if not any(path.is_relative_to(d) for d in plugin_dirs)
    ]


def naming_tokens(source: str) -> list[tuple[int, str]]:
    """(line, text) of identifiers and of strings that are not docstrings."""
    found = []
    previous = tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME or token.type == tokenize.STRING and previous not in (tokenize.NEWLINE, tokenize.INDENT,
                                                                  tokenize.DEDENT, tokenize.NL):
            found.append((token.start[0], token.string))
        if token.type not in (tokenize.COMMENT, tokenize.NL):
            previous = token.type
    return found


def offences(source: str) -> list[str]:
    wrong = []
    for line, text in naming_tokens(source):
        lowered = text.lower()
        for name in NAMES:
            if text.isidentifier() and name in lowered:
                wrong.append(f"line {line}: identifier {text}")
            elif not text.isidentifier() and (
                re.fullmatch(rf"[rbuf]*['\"]{{1,3}}{name}['\"]{{1,3}}", lowered)
                or f"assistants.{name}" in lowered
                or f"/{name}/" in lowered
            ):
                wrong.append(f"line {line}: string {text[:60]}")
    return wrong


def test_the_check_catches_what_it_should():
    assert NAMES, "no assistant is installed"
    name = NAMES[0]
    assert offences(f"def is_{name}(x):\n    return x\n")
    assert offences(f'DEFAULT = "{name}"\n')
    assert offences(f'import_module("frontdesk.assistants.{name}.service")\n')
    assert not offences(f'"""A docstring may mention the {name} as an example."""\n')
    assert not offences(f"x = 1  # so may a comment about the {name}\n")


@pytest.mark.parametrize("path", core_modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_core_module_names_an_assistant(path):
    assert offences(path.read_text(encoding="utf-8")) == []


# ---------------------------------------------------------------- the web shell

WEB = SRC / "web" / "static"
# Comments, not inside a string: /* ... */ and // to the end of the line in JS; <!-- --> in
# HTML. A "//" inside a string (a URL) is kept, which only makes the check stricter.
JS_COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.DOTALL)
HTML_COMMENTS = re.compile(r"<!--.*?-->", re.DOTALL)


def web_shell_files() -> list[Path]:
    return sorted(p for p in WEB.rglob("*") if p.suffix in {".js", ".html"})


def web_offences(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = (JS_COMMENTS if path.suffix == ".js" else HTML_COMMENTS).sub("", text)
    wrong = []
    for number, line in enumerate(text.splitlines(), start=1):
        for name in NAMES:
            if re.search(rf"(?i){re.escape(name)}", line):
                wrong.append(f"{path.name}: {name} in {line.strip()[:80]}")
    return wrong


def test_the_web_check_catches_what_it_should(tmp_path):
    name = NAMES[0]
    shell = tmp_path / "shell.js"
    shell.write_text(f'// comments may name the {name}\nconst x = 1; /* so may\n {name} */\n')
    assert web_offences(shell) == []
    shell.write_text(f'if (assistant === "{name}") render();\n')
    assert web_offences(shell)
    page = tmp_path / "index.html"
    page.write_text(f"<!-- the {name} --><p>{name.title()} help</p>\n")
    assert web_offences(page)


def test_the_web_shell_names_no_assistant():
    files = web_shell_files()
    assert any(p.name == "index.html" for p in files) and any(p.suffix == ".js" for p in files)
    assert [o for path in files for o in web_offences(path)] == []
