"""Shared helpers for the pai gow tests: the known-answer data and a card feeder."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from games.core.cards import Card
from games.core.engine import Engine
from games.core.records import Event
from tests.games.pai_gow.dealing import deal_in

DATA = Path(__file__).resolve().parents[2] / "data" / "pai_gow"


def load_data(name: str) -> dict[str, Any]:
    with (DATA / name).open("rb") as fh:
        return tomllib.load(fh)


def feed(engine: Engine, cards: str | Iterable[Card]) -> list[Event]:
    """Deal cards into the engine while it asks for them; return every event (on the land
    table from seat 0's position, the unplayed hands from the rest of the deck)."""
    return deal_in(engine, cards)


@pytest.fixture(scope="session")
def published() -> dict[str, Any]:
    return load_data("published.toml")


@pytest.fixture(scope="session")
def house_way_table() -> dict[str, Any]:
    return load_data("house_way.toml")


@pytest.fixture(scope="session")
def deal() -> Callable[[Engine, str | Iterable[Card]], list[Event]]:
    """The :func:`feed` helper, as a fixture (test modules do not import conftest)."""
    return feed
