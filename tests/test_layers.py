"""The layering, checked on the source (ast): what may import what, and where SQL lives.

Rules (issue 13, point 4):

- **sql**: no SQL outside ``kiosk_ui/store/``: no ``import sqlite3``, no
  ``.execute(`` / ``.executemany(`` / ``.executescript(`` call, no string literal that
  starts with an SQL statement (SELECT, INSERT, UPDATE, DELETE, CREATE, ...);
- **web**: no ``fastapi`` / ``starlette`` import outside ``kiosk_ui/web/``;
- **lower**: ``certification``, ``games``, ``rng`` and ``firmware_bridge`` never import
  ``kiosk_ui``, and ``games`` imports nothing of ``rng``, ``firmware_bridge``,
  ``certification`` or ``kiosk_ui``.

Imports count wherever they are (inside functions too), and so does
``importlib.import_module("...")`` with a literal name. ``tests/`` and ``bench/`` are
not checked (they open stores to tamper with them, and time peers).
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("firmware_bridge", "rng", "games", "certification", "kiosk_ui")
STORE = ("kiosk_ui", "store")
WEB = ("kiosk_ui", "web")
WEB_LIBS = ("fastapi", "starlette")
SQL_CALLS = ("execute", "executemany", "executescript")
SQL_TEXT = re.compile(
    r"\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|REPLACE|PRAGMA|UPSERT)\s", re.ASCII
)
#: package -> the packages it must never import
FORBIDDEN = {
    "certification": ("kiosk_ui",),
    "rng": ("kiosk_ui",),
    "firmware_bridge": ("kiosk_ui",),
    "games": ("kiosk_ui", "rng", "firmware_bridge", "certification"),
}


def _sources(root: Path) -> Iterator[tuple[tuple[str, ...], ast.Module]]:
    """Each checked module under ``root``: its path parts (relative) and its tree."""
    yield from _parsed(root)


@functools.cache
def _parsed(root: Path) -> tuple[tuple[tuple[str, ...], ast.Module], ...]:
    return tuple(
        (path.relative_to(root).parts, ast.parse(path.read_text(), filename=str(path)))
        for package in PACKAGES
        for path in sorted((root / package).rglob("*.py"))
    )


def _imports(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Every module name the tree imports, with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.lineno, node.args[0].value


def _top(name: str) -> str:
    return name.split(".", 1)[0]


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the docstring constants (prose, not SQL)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def sql_outside_store(root: Path) -> list[str]:
    """Rule **sql**: SQL anywhere but ``kiosk_ui/store``."""
    found: list[str] = []
    for parts, tree in _sources(root):
        if parts[:2] == STORE:
            continue
        where = "/".join(parts)
        found += [f"{where}:{n}: imports {m}" for n, m in _imports(tree) if _top(m) == "sqlite3"]
        prose = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in SQL_CALLS
            ):
                found.append(f"{where}:{node.lineno}: calls .{node.func.attr}(")
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in prose
                and SQL_TEXT.match(node.value)
            ):
                found.append(f"{where}:{node.lineno}: SQL text {node.value[:40]!r}")
    return found


def web_outside_web(root: Path) -> list[str]:
    """Rule **web**: FastAPI or Starlette imported outside ``kiosk_ui/web``."""
    return [
        f"{'/'.join(parts)}:{n}: imports {m}"
        for parts, tree in _sources(root)
        if parts[:2] != WEB
        for n, m in _imports(tree)
        if _top(m) in WEB_LIBS
    ]


def upward_imports(root: Path) -> list[str]:
    """Rule **lower**: a lower package importing one it must not."""
    return [
        f"{'/'.join(parts)}:{n}: imports {m}"
        for parts, tree in _sources(root)
        if parts[0] in FORBIDDEN
        for n, m in _imports(tree)
        if _top(m) in FORBIDDEN[parts[0]]
    ]


RULES = {"sql": sql_outside_store, "web": web_outside_web, "lower": upward_imports}


def violations(root: Path) -> list[str]:
    """Every broken rule under ``root``, one line each (rule, file, line, what)."""
    return [f"{name}: {v}" for name, rule in RULES.items() for v in rule(root)]


def test_the_tree_keeps_its_layers() -> None:
    assert violations(ROOT) == []


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


CLEAN = {
    "kiosk_ui/store/db.py": (
        'import sqlite3\nQ = "SELECT 1"\nsqlite3.connect(":memory:").execute(Q)\n'
    ),
    "kiosk_ui/web/app.py": "from fastapi import FastAPI\n",
    "kiosk_ui/table/table.py": 'from kiosk_ui.store import ledger\n"""Update the seats."""\n',
    "games/core/engine.py": "from games.core import money\n",
    "certification/log/verify.py": "import orjson\n",
}

BROKEN = {
    "sql": [
        {"kiosk_ui/table/runtime.py": "import sqlite3\n"},
        {"kiosk_ui/table/runtime.py": "def f(conn):\n    conn.execute(Q)\n"},
        {"kiosk_ui/web/routes/player.py": "def f(c):\n    c.executemany(Q, [])\n"},
        {"certification/log/store.py": "def f(c):\n    c.executescript(Q)\n"},
        {"kiosk_ui/auth.py": 'Q = "UPDATE operators SET role = ?"\n'},
        {"certification/log/integrity.py": 'def f():\n    return "SELECT seq FROM log"\n'},
        {"kiosk_ui/table/outcomes.py": 'DDL = """\nCREATE TABLE t (x)"""\n'},
    ],
    "web": [
        {"kiosk_ui/table/table.py": "from fastapi import HTTPException\n"},
        {"kiosk_ui/errors.py": "def f():\n    import starlette.status\n"},
    ],
    "lower": [
        {"certification/log/cli.py": "def f():\n    from kiosk_ui.store import reader\n"},
        {"rng/sources.py": "import kiosk_ui.table\n"},
        {"firmware_bridge/registry.py": 'import importlib as i\ni.import_module("kiosk_ui.cli")\n'},
        {"games/catalog.py": "from rng.sample import Rng\n"},
        {"games/core/engine.py": "import firmware_bridge.hal\n"},
        {"games/sim.py": "from certification import outcomes\n"},
        {"games/baccarat/engine.py": "from kiosk_ui.errors import TableError\n"},
    ],
}


def test_a_clean_tree_passes(tmp_path: Path) -> None:
    assert violations(_tree(tmp_path, CLEAN)) == []


@pytest.mark.parametrize(
    ("rule", "files"),
    [(rule, files) for rule, cases in BROKEN.items() for files in cases],
    ids=lambda x: x if isinstance(x, str) else next(iter(x)),
)
def test_each_rule_fails_when_broken(tmp_path: Path, rule: str, files: dict[str, str]) -> None:
    found = violations(_tree(tmp_path, {**CLEAN, **files}))
    assert found, f"rule {rule} did not catch {files}"
    assert all(v.startswith(f"{rule}: ") for v in found), found
    (name,) = files
    assert all(name in v for v in found), found
