"""Layers that point one way (docs/architecture.md, *Layers*): read from the source, never imported.

Each first-level package or module of ``companion`` (``games``, ``membership``,
``watch``…) is a node; an import from one to another is an edge.  The app factory,
``companion/__init__.py``, sits above them all and is no node: its ``create_app()``
registers every blueprint.  The rules:

- no cycle between nodes: two never import each other, even through a third;
- no module imports another package's ``routes`` module (a blueprint's pages are its
  own: what another needs of them lives in a service module of their package);
- no module imports a module of ``companion`` inside a function (the way to hide a
  cycle from the interpreter), but for ``create_app()``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"


@dataclass(frozen=True)
class Import:
    """One import of a ``companion`` module: where, what, and whether inside a function."""

    path: Path
    line: int
    source: str  # the importing module, e.g. companion.games.routes
    target: str  # the imported module, e.g. companion.membership.access
    in_function: str | None  # the outermost enclosing function's name, if any


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    """Whether ``companion.x.y`` names a module or package of the source tree."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _targets(node: ast.Import | ast.ImportFrom, source: str, is_package: bool) -> Iterator[str]:
    """The companion modules an import statement names (``from a import b``: ``a.b``
    when ``b`` is a module, else ``a``)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:  # relative: resolved against the importing module's package
        package = source.split(".")
        if not is_package:
            package = package[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, base] if base else package)
    for alias in node.names:
        full = f"{base}.{alias.name}"
        yield full if _is_module(full) else base


def _imports(path: Path) -> Iterator[Import]:
    source = _module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))

    def visit(node: ast.AST, function: str | None) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                for target in _targets(child, source, path.name == "__init__.py"):
                    if target == "companion" or target.startswith("companion."):
                        yield Import(path, child.lineno, source, target, function)
            inner = function
            if inner is None and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                inner = getattr(child, "name", "<lambda>")
            yield from visit(child, inner)

    yield from visit(tree, None)


def _all_imports() -> list[Import]:
    return [found for path in sorted(PACKAGE.rglob("*.py")) for found in _imports(path)]


def _node(module: str) -> str | None:
    """The first-level package or module of ``companion`` that ``module`` belongs to
    (None for the app factory, ``companion`` itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def _where(found: Import) -> str:
    return f"{found.path.relative_to(ROOT)}:{found.line} ({found.source} imports {found.target})"


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            connect(node)
    return found


def test_the_source_is_read() -> None:
    imports = _all_imports()
    assert any(i.source == "companion.games.routes" for i in imports)
    assert any(i.target == "companion.rules.i18n" for i in imports)


def test_no_two_packages_import_each_other() -> None:
    edges: dict[str, set[str]] = {}
    why: dict[tuple[str, str], Import] = {}
    for found in _all_imports():
        a, b = _node(found.source), _node(found.target)
        if a is None or b is None or a == b:
            continue
        edges.setdefault(a, set()).add(b)
        why.setdefault((a, b), found)
    problems = []
    for component in _cycles(edges):
        inside = set(component)
        problems.append(
            " <-> ".join(component)
            + ": "
            + "; ".join(_where(why[a, b]) for a in component for b in sorted(edges[a] & inside))
        )
    assert not problems, "\n".join(problems)


def test_no_module_imports_another_packages_routes() -> None:
    problems = []
    for found in _all_imports():
        parts = found.target.split(".")
        if parts[-1] != "routes":
            continue
        owner = ".".join(parts[:-1])
        if found.source != owner and not found.source.startswith(owner + "."):
            problems.append(_where(found))
    assert not problems, "\n".join(problems)


def test_no_companion_import_inside_a_function() -> None:
    problems = [
        f"{_where(found)} inside {found.in_function}()"
        for found in _all_imports()
        if found.in_function is not None and not (found.source == "companion" and found.in_function == "create_app")
    ]
    assert not problems, "\n".join(problems)


def test_the_checks_catch_what_they_forbid(tmp_path: Path) -> None:
    """The three rules find each fault in a made-up source (the reading is exercised too)."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
    code = "from companion.games import routes\n\ndef f():\n    from companion.watch import answer\n    return answer\n"
    tree = ast.parse(code)
    nodes = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert list(_targets(nodes[0], "companion.referee.check", False)) == ["companion.games.routes"]
    assert list(_targets(nodes[1], "companion.referee.check", False)) == ["companion.watch"]
    relative = ast.parse("from .routes import x\n").body[0]
    assert isinstance(relative, ast.ImportFrom)
    assert list(_targets(relative, "companion.games.state", False)) == ["companion.games.routes"]
