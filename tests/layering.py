"""Layer rules for an assistant whose folder is split into parts: which part may import which.

An assistant's top-level modules are its orchestrator and may use every part. Each part (a
subpackage) may use only what its rule lists, read from its source with `ast` (imports inside
functions and `TYPE_CHECKING` blocks included), so a part that reaches up into the
orchestrator or sideways into a part it should not know fails a test, not a review. The shared
top-level modules that parts import must not import a part back at run time.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path


def _module_name(path: Path, root: Path, package: str) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((package, *parts))


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST, type_checking: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
        return
    skip = not type_checking and isinstance(node, ast.If) and _is_type_checking(node)
    for child in node.orelse if skip else ast.iter_child_nodes(node):
        yield from _imports(child, type_checking)


def imported_modules(
    path: Path, root: Path, package: str, *, type_checking: bool = True
) -> set[str]:
    """Every module `path` imports, as absolute dotted names (relative imports resolved; for
    `from X import y`, `X.y`, since `y` may be a module)."""
    module = _module_name(path, root, package)
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in _imports(ast.parse(path.read_text(), str(path)), type_checking=type_checking):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = module.split(".")[: len(module.split(".")) - node.level + is_package]
            base = ".".join([*anchor, base] if base else anchor)
        found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def part_of(module: str, package: str) -> str | None:
    """The part (subpackage or top-level module) `module` belongs to; None outside."""
    if module == package:
        return "__init__"
    if not module.startswith(package + "."):
        return None
    return module[len(package) + 1 :].split(".")[0]


def violations(
    root: Path,
    package: str,
    allowed: Mapping[str, frozenset[str]],
    shared: tuple[str, ...] = (),
) -> list[str]:
    """`file: imports module (part)` for every import a part's rule does not allow, and
    `name.py: imports module at run time` for a shared module that imports a part."""
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if len(relative.parts) == 1:
            continue  # the orchestrator may import anything
        part = relative.parts[0]
        rule = allowed.get(part)
        if rule is None:
            found.append(f"{relative}: part {part!r} has no rule in ALLOWED")
            continue
        for target in sorted(imported_modules(path, root, package)):
            other = part_of(target, package)
            if other not in (None, part) and other not in rule:
                found.append(f"{relative}: imports {target} ({other})")
    for name in shared:
        path = root / f"{name}.py"
        for target in sorted(imported_modules(path, root, package, type_checking=False)):
            if part_of(target, package) not in (None, *shared):
                found.append(f"{name}.py: imports {target} at run time")
    return found


def undocumented_parts(root: Path) -> list[str]:
    """The subpackages without an `__init__.py` that says what the part is."""
    missing = []
    for folder in sorted({p.parent for p in root.rglob("*.py") if p.parent != root}):
        init = folder / "__init__.py"
        if not init.exists():
            missing.append(f"{folder.relative_to(root)} has no __init__.py")
        elif not ast.get_docstring(ast.parse(init.read_text())):
            missing.append(f"{init.relative_to(root)} has no docstring")
    return missing


def parts(root: Path) -> set[str]:
    return {p.relative_to(root).parts[0] for p in root.rglob("*.py") if p.parent != root}


def long_modules(root: Path, limit: int = 400) -> dict[str, int]:
    lines = {str(p.relative_to(root)): len(p.read_text().splitlines()) for p in root.rglob("*.py")}
    return {name: n for name, n in lines.items() if n > limit}


def write_module(root: Path, relative: str, text: str) -> None:
    """A module of a made-up tree, for the rule check's own tests."""
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
