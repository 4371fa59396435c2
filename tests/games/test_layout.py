"""The shape of the tree (issue 13, points 2 and 6 and the size rule), read from the files.

Nothing here imports a family: the checks parse the source with :mod:`ast` and look at
the directory tree, so a broken family cannot hide a broken rule. Each checker takes
the root of a tree, and each is shown to fail on a small tree written under
``tmp_path`` that breaks its rule.

1. A family (``games/<name>/``, except ``games/core`` and ``games/poker``) imports only
   ``games.core``, ``games.poker``, ``games.sim`` and itself; those three import no family
   (nor ``games.catalog`` or ``games.cli``, which list the families).
2. Every family has the one template: ``__init__.py``, ``rules.py``, ``engine.py``,
   ``exact.py``, ``simulate.py``, ``autoplay.py`` and ``paytables/``, and all of its
   TOML is under ``paytables/``.
3. No module of ``games``, ``kiosk_ui``, ``rng``, ``firmware_bridge`` or
   ``certification`` is over 600 lines.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = frozenset({"core", "poker"})  # games/ packages that are not families
ALLOWED = ("games.core", "games.poker", "games.sim")
TEMPLATE_FILES = ("__init__.py", "rules.py", "engine.py", "exact.py", "simulate.py", "autoplay.py")
PACKAGES = ("games", "kiosk_ui", "rng", "firmware_bridge", "certification")
MAX_LINES = 600

#: Rule breaks still in the tree, each named with why (an entry no longer needed fails
#: the test, so the list only shrinks).
EXCEPTIONS: dict[str, str] = {}


def families(root: Path) -> list[str]:
    """The family packages under ``root/games``, by directory name."""
    games = root / "games"
    return sorted(
        d.name
        for d in games.iterdir()
        if d.is_dir() and d.name not in SHARED and (d / "__init__.py").is_file()
    )


def _python_files(top: Path) -> Iterator[Path]:
    yield from sorted(p for p in top.rglob("*.py") if "__pycache__" not in p.parts)


def _imported(path: Path, package: str) -> Iterator[tuple[int, str]]:
    """Every module ``path`` (a module of ``package``) imports, as absolute dotted names."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = package.split(".")
    if path.name != "__init__.py":
        here.append(path.stem)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            if module == "games" or (node.level and not node.module):
                for alias in node.names:  # ``from games import catalog``: a module each
                    yield node.lineno, f"{module}.{alias.name}"
            else:
                yield node.lineno, module


def _allowed(module: str, family: str) -> bool:
    if module != "games" and not module.startswith("games."):
        return True  # the standard library, NumPy, ...: not a family's neighbour
    own = f"games.{family}"
    return any(module == ok or module.startswith(f"{ok}.") for ok in (*ALLOWED, own))


def foreign_imports(root: Path) -> list[str]:
    """``file:line imports module`` for each import of a family outside its allowance."""
    out: list[str] = []
    for family in families(root):
        top = root / "games" / family
        for path in _python_files(top):
            package = ".".join(["games", *path.parent.relative_to(root / "games").parts])
            where = path.relative_to(root).as_posix()
            for line, module in sorted(_imported(path, package)):
                if not _allowed(module, family):
                    out.append(f"{where}:{line} imports {module}")
    return out


def shared_imports(root: Path) -> list[str]:
    """``file:line imports module`` for each import of a family (or of the catalog) by
    ``games.core``, ``games.poker`` or ``games.sim``."""
    games = root / "games"
    paths = [p for d in sorted(SHARED) if (games / d).is_dir() for p in _python_files(games / d)]
    paths += [games / "sim.py"] if (games / "sim.py").is_file() else []
    out: list[str] = []
    for path in paths:
        package = ".".join(["games", *path.parent.relative_to(games).parts])
        where = path.relative_to(root).as_posix()
        for line, module in sorted(_imported(path, package)):
            if module.startswith("games.") and not _allowed(module, family="-"):
                out.append(f"{where}:{line} imports {module}")
    return out


def template_gaps(root: Path) -> list[str]:
    """What each family lacks of the template, and every TOML outside its ``paytables/``."""
    out: list[str] = []
    for family in families(root):
        top = root / "games" / family
        for name in TEMPLATE_FILES:
            if not (top / name).is_file():
                out.append(f"games/{family}/{name} is missing")
        if not (top / "paytables").is_dir():
            out.append(f"games/{family}/paytables/ is missing")
        for toml in sorted(top.rglob("*.toml")):
            if toml.relative_to(top).parts[0] != "paytables":
                out.append(f"{toml.relative_to(root).as_posix()} is outside paytables/")
    return out


def long_modules(root: Path, limit: int = MAX_LINES) -> list[str]:
    """``file has N lines`` for each module of the packages over ``limit`` lines."""
    out: list[str] = []
    for package in PACKAGES:
        if not (root / package).is_dir():
            continue
        for path in _python_files(root / package):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > limit:
                out.append(f"{path.relative_to(root).as_posix()} has {lines} lines")
    return out


def _without_exceptions(
    found: list[str], rule: str, exceptions: dict[str, str] = EXCEPTIONS
) -> list[str]:
    """``found`` less what an exception of ``rule`` (``"rule:prefix"``) names; an
    exception that names nothing found fails (it is stale)."""
    named = {k for k in exceptions if k.startswith(f"{rule}:")}
    stale = [k for k in named if not any(f.startswith(k[len(rule) + 1 :]) for f in found)]
    assert not stale, f"exceptions no longer needed, delete them: {stale}"
    return [f for f in found if not any(f.startswith(k[len(rule) + 1 :]) for k in named)]


# --- the real tree ------------------------------------------------------------------


def test_the_tree_has_families() -> None:
    assert len(families(REPO)) >= 11  # the checks below look at something


def test_a_family_imports_only_core_poker_sim_and_itself() -> None:
    assert _without_exceptions(foreign_imports(REPO), "imports") == []


def test_core_poker_and_sim_import_no_family() -> None:
    assert _without_exceptions(shared_imports(REPO), "shared") == []


def test_every_family_has_the_template() -> None:
    assert _without_exceptions(template_gaps(REPO), "template") == []


def test_no_module_is_over_600_lines() -> None:
    assert _without_exceptions(long_modules(REPO), "lines") == []


# --- each rule, broken on purpose -----------------------------------------------------


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _family(name: str, engine: str = "") -> dict[str, str]:
    files = {f"games/{name}/{f}": "" for f in TEMPLATE_FILES}
    files[f"games/{name}/engine.py"] = engine
    files[f"games/{name}/paytables/standard.toml"] = "spec = 1\n"
    return files


def test_the_import_checks_catch_a_family_importing_another(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            **_family("alpha"),
            **_family(
                "beta",
                "import numpy\n"
                "from games.core.round import Round\n"
                "from games.poker import rank5\n"
                "from games.sim import bet_statistics\n"
                "from games.beta.rules import Rules\n"
                "from . import rules\n"
                "from .rules import Rules as R\n"
                "from games.alpha.engine import AlphaRound\n"
                "import games.alpha\n"
                "from games import catalog\n"
                "from .. import alpha\n"
                "def late() -> None:\n"
                "    from games.alpha import simulate\n",
            ),
            "games/core/__init__.py": "from games.alpha import engine\n",  # not a family
            "games/core/money.py": "from games.core.errors import GameError\n",
            "games/poker/rank5.py": "from games.catalog import families\n",
            "games/sim.py": "from games.poker import rank5\nfrom games.beta.rules import Rules\n",
        },
    )
    assert shared_imports(root) == [
        "games/core/__init__.py:1 imports games.alpha",
        "games/poker/rank5.py:1 imports games.catalog",
        "games/sim.py:2 imports games.beta.rules",
    ]
    assert foreign_imports(root) == [
        "games/beta/engine.py:8 imports games.alpha.engine",
        "games/beta/engine.py:9 imports games.alpha",
        "games/beta/engine.py:10 imports games.catalog",
        "games/beta/engine.py:11 imports games.alpha",
        "games/beta/engine.py:13 imports games.alpha",
    ]


def test_the_template_check_catches_a_missing_file_and_a_loose_toml(tmp_path: Path) -> None:
    files = _family("gamma")
    del files["games/gamma/exact.py"]
    files["games/gamma/odds.py"] = ""
    files["games/gamma/data/rules.toml"] = "spec = 1\n"
    files["games/gamma/wheels.toml"] = "spec = 1\n"
    root = _write(tmp_path, {**files, **_family("delta")})
    assert template_gaps(root) == [
        "games/gamma/exact.py is missing",
        "games/gamma/data/rules.toml is outside paytables/",
        "games/gamma/wheels.toml is outside paytables/",
    ]
    (root / "games/delta/paytables/standard.toml").unlink()
    (root / "games/delta/paytables").rmdir()
    assert "games/delta/paytables/ is missing" in template_gaps(root)


def test_the_size_check_catches_a_long_module(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "rng/short.py": "x = 1\n" * MAX_LINES,
            "kiosk_ui/table/long.py": "x = 1\n" * (MAX_LINES + 1),
            "bench/long.py": "x = 1\n" * 2 * MAX_LINES,  # not a package the rule covers
        },
    )
    assert long_modules(root) == [f"kiosk_ui/table/long.py has {MAX_LINES + 1} lines"]


def test_an_exception_hides_only_its_own_break_and_goes_when_fixed() -> None:
    found = ["a.py has 700 lines", "b.py has 601 lines"]
    exceptions = {"lines:a.py": "why it stays, named"}
    assert _without_exceptions(found, "lines", exceptions) == ["b.py has 601 lines"]
    with pytest.raises(AssertionError, match="no longer needed"):
        _without_exceptions(["b.py has 601 lines"], "lines", exceptions)
