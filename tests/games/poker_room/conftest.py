"""Variants for the poker room tests: the shipped tables, and the same without a collection.

The pokerkit peer's driver is ``bench/pokerkit_room.py`` (the bench plays the same
hands): the differential test imports it, the repository root being on pytest's
``pythonpath`` (pyproject.toml: ``bench`` is not an installed package).
"""

from __future__ import annotations

import pytest

from games.core.engine import Variant
from games.core.tomlread import packaged
from games.poker_room.rules import RoomRules, load_packaged, loads, without_collection


def table(name: str, **changes: str) -> Variant[RoomRules]:
    """The shipped ``name`` table with ``key = value`` lines replaced (a TOML edit)."""
    text, where = packaged("games.poker_room", name)
    lines = text.splitlines()
    for key, value in changes.items():
        hits = [i for i, line in enumerate(lines) if line.split("=")[0].strip() == key]
        assert hits, key
        lines[hits[0]] = f"{key} = {value}"
    return loads("\n".join(lines), where)


def free(name: str) -> Variant[RoomRules]:
    """The shipped table with no collection (chips in = chips out, exactly)."""
    return without_collection(load_packaged(name))


@pytest.fixture
def holdem() -> Variant[RoomRules]:
    return free("holdem-2-4")


@pytest.fixture
def omaha() -> Variant[RoomRules]:
    return free("omaha-2-4")


@pytest.fixture
def stud() -> Variant[RoomRules]:
    return free("stud-2-4")


@pytest.fixture
def edit() -> object:
    """:func:`table`, for tests that change a line of a shipped table."""
    return table
