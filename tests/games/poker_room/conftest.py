"""Variants for the poker room tests: the shipped tables, and the same without a collection."""

from __future__ import annotations

import pytest

from games.core.engine import Variant
from games.core.tomlread import packaged
from games.poker_room.rules import RoomRules, loads


def table(name: str, **changes: str) -> Variant[RoomRules]:
    """The shipped ``name`` table with ``key = value`` lines replaced (a TOML edit)."""
    text, where = packaged("games.poker_room", name)
    lines = text.splitlines()
    for key, value in changes.items():
        hits = [i for i, line in enumerate(lines) if line.split("=")[0].strip() == key]
        assert hits, key
        lines[hits[0]] = f"{key} = {value}"
    return loads("\n".join(lines), where)


def free(name: str, **changes: str) -> Variant[RoomRules]:
    """The table with no collection (chips in = chips out, exactly)."""
    text, where = packaged("games.poker_room", name)
    head, _, rest = text.partition("\n[collection]")
    _, _, room = rest.partition("\n[room]")
    v = loads(f'{head}\n[collection]\nkind = "none"\n\n[room]{room}', where)
    if changes:
        raise NotImplementedError
    return v


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
