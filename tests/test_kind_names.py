"""Shared code never names a kind (docs/architecture.md, *A kind is one place*): read from the source.

A kind's id (``"crapouille"``, ``"piketty"``…) may be written in its own subpackage
of ``companion/games/kinds/``, in the engine (``companion/rules/``, which is the rules
of those very games), and in the templates named after it (``games/president.html``,
``referee/live_whist.html``…).  Anywhere else, code that needs what a kind knows asks
the kind through :data:`companion.games.kinds.KINDS`: a string equal to a kind's id
in a shared module, or a quoted kind id in a shared template, is a branch on a kind.

Docstrings and comments may speak of the games by name; they decide nothing.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from companion.games.kinds import KINDS

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"
TEMPLATES = ROOT / "templates"

#: Where a kind may be named: its own subpackage, and the engine.
KIND_HOMES = (PACKAGE / "games" / "kinds", PACKAGE / "rules")


def _kind_words() -> set[str]:
    """The kinds' ids, their module names and their families' short words (``whist``)."""
    words = set(KINDS)
    words |= {kind_id.replace("-", "_") for kind_id in KINDS}
    words |= {kind_id.split("-")[0] for kind_id in KINDS}
    return words


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (of a module, class or function)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def named_kinds(source: str, words: set[str]) -> Iterator[tuple[int, str]]:
    """The lines of ``source`` (Python) where a string that is not a docstring is a kind's word,
    or a file named after one (``"games/crapouille.html"``)."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    pattern = re.compile(
        r"(?<![A-Za-z])(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")(?![A-Za-z])"
    )
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in docs:
            continue
        if node.value in words or (_is_path(node.value) and pattern.search(node.value)):
            yield node.lineno, node.value


def _is_path(value: str) -> bool:
    """Whether a string names a file (``"games/crapouille.html"``, ``"live_whist.html"``):
    a figure's name such as ``"times_president"`` is no branch on a kind."""
    return " " not in value and ("/" in value or value.endswith((".html", ".js", ".css")))


def _is_kind_template(path: Path, words: set[str]) -> bool:
    stem = path.name.split(".")[0]
    return any(word in stem for word in words)


def test_no_shared_module_names_a_kind() -> None:
    words = _kind_words()
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if any(path.is_relative_to(home) for home in KIND_HOMES):
            continue
        for line, value in named_kinds(path.read_text(encoding="utf-8"), words):
            problems.append(f"{path.relative_to(ROOT)}:{line} names {value!r}")
    assert not problems, "\n".join(problems)


def test_no_shared_template_names_a_kind() -> None:
    words = _kind_words()
    quoted = re.compile(r"""['"](""" + "|".join(map(re.escape, sorted(words))) + r""")['"]""")
    problems = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        if _is_kind_template(path, words):
            continue
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if quoted.search(text):
                problems.append(f"{path.relative_to(ROOT)}:{number}: {text.strip()[:100]}")
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_named_kind() -> None:
    """The reading catches a branch, a path made of a kind's id, and spares docstrings."""
    words = {"crapouille", "whist"}
    source = (
        '"""A module about the crapouille."""\n'
        "def f(kind):\n"
        '    """Is it \'crapouille\'?"""\n'
        '    if kind == "crapouille":\n'
        '        return "games/whist_round.html"\n'
        '    return "Crapouille is a game" if kind else "times_whist"\n'
    )
    assert [line for line, _ in named_kinds(source, words)] == [4, 5]
    assert _is_kind_template(Path("templates/referee/live_whist.html"), words)
    assert not _is_kind_template(Path("templates/referee/live.html"), words)
