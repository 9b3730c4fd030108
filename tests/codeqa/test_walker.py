"""Which files of a repository are indexed, and every one left out says why."""

from __future__ import annotations

import os
import subprocess

import pytest

from frontdesk.assistants.codeqa.indexing.walker import walk_repository


def _write(root, files):
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)


def test_a_plain_folder_is_walked_with_its_ignore_rules_and_skips_explained(tmp_path):
    _write(
        tmp_path,
        {
            "app/main.py": "def main():\n    return 1\n",
            "app/test_main.py": "def test_main():\n    assert True\n",
            "README.md": "# App\n",
            "pyproject.toml": "[project]\nname = 'app'\n",
            ".gitignore": "secrets/\n*.log\n",
            "secrets/key.py": "KEY = 1\n",
            "debug.log": "noise\n",
            "node_modules/left/index.js": "module.exports = 1\n",
            "logo.png": b"\x89PNG\r\n\x1a\n\0\0\0",
            "package-lock.json": "{}\n",
            "static/app.min.js": "var a=1;\n",
            "huge.py": "x = 1\n" * 200_000,
            "empty.py": "",
        },
    )
    walk = walk_repository(tmp_path)
    assert not walk.used_git
    kinds = {f.path: (f.language, f.source_type) for f in walk.files}
    assert kinds == {
        ".gitignore": ("ignore", "config"),
        "README.md": ("markdown", "doc"),
        "app/main.py": ("python", "code"),
        "app/test_main.py": ("python", "test"),
        "pyproject.toml": ("toml", "config"),
    }
    assert walk.skipped == {
        "secrets/": "ignored by .gitignore",
        "debug.log": "ignored by .gitignore",
        "node_modules/": "vendored or generated folder",
        "logo.png": "binary",
        "package-lock.json": "lock file",
        "static/app.min.js": "generated file",
        "huge.py": "over 1 MB (1,200,000 bytes)",
        "empty.py": "empty",
    }


def test_a_git_checkout_lists_tracked_and_unignored_files(tmp_path):
    _write(
        tmp_path,
        {"a.py": "A = 1\n", "b.py": "B = 2\n", "out.txt": "x\n", ".gitignore": "out.txt\n"},
    )
    git = ["git", "-C", str(tmp_path), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "a.py", ".gitignore"], check=True)
    subprocess.run([*git, "commit", "-qm", "first"], check=True)
    walk = walk_repository(tmp_path)
    assert walk.used_git
    # b.py is untracked but not ignored: a user asking about it expects it found.
    assert [f.path for f in walk.files] == [".gitignore", "a.py", "b.py"]


def test_links_are_not_followed_so_a_loop_cannot_trap_the_walk(tmp_path):
    _write(tmp_path, {"pkg/mod.py": "X = 1\n"})
    os.symlink(tmp_path, tmp_path / "pkg" / "loop")
    os.symlink(tmp_path / "pkg" / "mod.py", tmp_path / "alias.py")
    walk = walk_repository(tmp_path)
    assert [f.path for f in walk.files] == ["pkg/mod.py"]
    assert walk.skipped["pkg/loop/"] == "symbolic link (not followed)"
    assert walk.skipped["alias.py"] == "symbolic link (not followed)"


def test_an_empty_folder_has_nothing_to_index(tmp_path):
    walk = walk_repository(tmp_path)
    assert walk.files == [] and walk.skipped == {}


def test_a_path_that_is_not_a_folder_is_a_clear_error(tmp_path):
    (tmp_path / "file.py").write_text("x = 1\n")
    with pytest.raises(NotADirectoryError, match="is not a folder"):
        walk_repository(tmp_path / "file.py")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        walk_repository(tmp_path / "missing")
