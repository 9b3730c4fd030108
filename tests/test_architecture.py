"""Import rules of the core, read from the source with `ast` (imports inside functions and
`TYPE_CHECKING` blocks included): a rule broken fails here, not in a review."""

from __future__ import annotations

from pathlib import Path

from tests.layering import imported_modules

import frontdesk

SOURCE = Path(frontdesk.__file__).parent


def _modules_imported_by(folder: str) -> dict[str, set[str]]:
    files = (SOURCE / folder).rglob("*.py") if (SOURCE / folder).is_dir() else [SOURCE / folder]
    return {
        str(path.relative_to(SOURCE)): imported_modules(path, SOURCE, "frontdesk")
        for path in sorted(files)
    }


def _reaching(imports: dict[str, set[str]], prefix: str) -> list[str]:
    return [
        f"{path} imports {module}"
        for path, modules in imports.items()
        for module in sorted(modules)
        if module == prefix or module.startswith(prefix + ".")
    ]


def test_model_runtimes_do_not_import_the_installer() -> None:
    """The chat and embedding runtimes load verified files (`model_files`); building those files
    is the installer's. A runtime that imported the installer would drag pip, wheels and the
    progress bars into every server start, and the two would import each other."""
    runtimes = {**_modules_imported_by("llm"), **_modules_imported_by("embeddings")}
    assert _reaching(runtimes, "frontdesk.setup_models") == []


def test_model_files_import_neither_side() -> None:
    imports = _modules_imported_by("model_files.py")
    assert _reaching(imports, "frontdesk.setup_models") == []
    assert _reaching(imports, "frontdesk.llm") == []
    assert _reaching(imports, "frontdesk.embeddings") == []


# The host's own modules: an assistant reaches the server only through `frontdesk.plugin_api`,
# and never the CLI's entry point, the registry that loads it, or the web shell.
HOST_MODULES = (
    "frontdesk.server",
    "frontdesk.cli",
    "frontdesk.cli_ask",
    "frontdesk.tickets_cli",
    "frontdesk.assistants.registry",
    "frontdesk.web",
)


def test_assistants_reach_the_server_only_through_the_plugin_api() -> None:
    imports = _modules_imported_by("assistants")
    plugins = {path: modules for path, modules in imports.items() if path.count("/") >= 2}
    assert plugins, "no assistant package found under frontdesk/assistants"
    reaching = [line for prefix in HOST_MODULES for line in _reaching(plugins, prefix)]
    assert reaching == []


def test_the_plugin_api_names_only_what_it_exports() -> None:
    import frontdesk.plugin_api as api

    exported = set(api.__all__)
    assert exported, "the plug-in API exports nothing"
    assert all(hasattr(api, name) for name in exported)
    public = {name for name in vars(api) if not name.startswith("_") and name != "annotations"}
    assert public == exported
