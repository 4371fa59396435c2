"""Every game family and variant the appliance offers, found through one list.

Each family is a package ``games.<family>`` whose ``__init__`` exposes:

``VARIANTS: tuple[Variant, ...]``
    the playable tables of that family, as data.
``new_game(variant: Variant, seats: int = 1, *, context: GameContext) -> Engine``
    a fresh round (or, for craps, a fresh game from a clean table). The
    :class:`~games.core.engine.GameContext` says what the table hands on: the hand
    count, the finished last engine (``previous``) or, on replay, what it carried as
    logged (``carry``). A family whose games carry state from one game of a table to
    the next (the pai gow bank rotation, the stud "always contribute" buttons, the
    craps come-out options) has engines that are
    :class:`~games.core.capabilities.CarriesOver`: see :func:`carry_of`.
``house_edge(variant: Variant) -> dict[str, HouseEdge]``
    the exact (or, where stated, simulated) house edge of each bet.
``simulate(variant: Variant, rounds: int, seed: int) -> SimulationResult``
    a vectorised simulation of the return of each bet (never used for play).
``autoplay(engine: Engine, seat: int) -> Action | None``
    the documented scripted player used by ``croupier table autoplay``: the next
    action for ``seat`` (bets, deal, decisions), or None if the seat has nothing to do.

Every family listed in :data:`FAMILIES` is part of the build: one whose module is
missing, or has no ``VARIANTS``, is an error (:class:`FamilyMissing`) naming it, never a
game silently left out of the lobby.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, Protocol, cast

from games.core.capabilities import CarriesOver
from games.core.engine import NEW_TABLE, Engine, GameContext, Variant
from games.core.errors import GameError, UnknownGame
from games.core.figures import HouseEdge, SimulationResult
from games.core.records import Action

#: Every family of the build, by package name (``games.<name>``); each must be present.
FAMILIES: tuple[str, ...] = (
    "baccarat",
    "blackjack",
    "craps",
    "sicbo",
    "roulette",
    "war",
    "three_card",
    "caribbean_stud",
    "let_it_ride",
    "pai_gow",
    "holdem",
    "video_poker",
    "poker_room",
)


class FamilyMissing(GameError, ImportError):
    """A family :data:`FAMILIES` lists is not in this build (or is not a family)."""


class Family(Protocol):
    """What ``games.<family>`` exposes (see the module docstring)."""

    VARIANTS: tuple[Variant[Any], ...]

    def new_game(
        self, variant: Variant[Any], seats: int = 1, *, context: GameContext = NEW_TABLE
    ) -> Engine: ...

    def house_edge(self, variant: Variant[Any]) -> dict[str, HouseEdge]: ...

    def simulate(self, variant: Variant[Any], rounds: int, seed: int) -> SimulationResult: ...

    def autoplay(self, engine: Engine, seat: int) -> Action | None: ...


def _load(family: str) -> Family:
    """The family's module, or :class:`FamilyMissing` naming what is wrong (one line)."""
    name = f"games.{family}"
    try:
        module: ModuleType = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            raise FamilyMissing(
                f"game family {family!r} is listed in games.catalog.FAMILIES "
                f"but its package {name} is missing from this build"
            ) from None
        raise
    if not hasattr(module, "VARIANTS"):
        raise FamilyMissing(f"game family {family!r}: {name} has no VARIANTS")
    return cast(Family, module)


_FOUND: dict[tuple[str, ...], dict[str, Family]] = {}


def families() -> dict[str, Family]:
    """Every family of the build, by name (looked up once per family list).

    Raises :class:`FamilyMissing` if one :data:`FAMILIES` lists is absent.
    """
    found = _FOUND.get(FAMILIES)
    if found is None or any(sys.modules.get(f"games.{name}") is not m for name, m in found.items()):
        found = {fam: _load(fam) for fam in FAMILIES}
        _FOUND[FAMILIES] = found
    return dict(found)


def variants() -> dict[str, Variant[Any]]:
    """Every variant by id."""
    return {v.id: v for fam in families().values() for v in fam.VARIANTS}


def family_of(variant_or_id: Variant[Any] | str) -> Family:
    """The family module that runs a variant."""
    variant = get_variant(variant_or_id) if isinstance(variant_or_id, str) else variant_or_id
    fam = families().get(variant.family)
    if fam is None:
        raise UnknownGame(f"no engine for game family {variant.family!r}")
    return fam


def get_variant(variant_id: str) -> Variant[Any]:
    """The variant with that id, or the family's first variant if a family name is given."""
    all_variants = variants()
    if variant_id in all_variants:
        return all_variants[variant_id]
    fam = families().get(variant_id)
    if fam is not None and fam.VARIANTS:
        return fam.VARIANTS[0]
    known = ", ".join(sorted(all_variants))
    raise UnknownGame(f"unknown game {variant_id!r}; known: {known}")


def new_game(
    variant_id: str | Variant[Any],
    seats: int = 1,
    *,
    hand: int = 0,
    previous: Engine | None = None,
    carry: Mapping[str, Any] | None = None,
    new_players: frozenset[int] = frozenset(),
) -> Engine:
    """A fresh engine for a table: the family's ``new_game(variant, seats, context=...)``.

    ``hand`` counts the table's previous games; ``previous`` is the same table's last
    engine once it is over; ``carry`` is what :func:`carry_of` returned for that engine,
    as logged in the game-start record (the replayer passes it instead of ``previous``);
    ``new_players`` the seats whose player changed since that game.
    See :class:`~games.core.engine.GameContext`.
    """
    variant = get_variant(variant_id) if isinstance(variant_id, str) else variant_id
    context = GameContext(hand=hand, previous=previous, carry=carry, new_players=new_players)
    return family_of(variant).new_game(variant, seats, context=context)


def carry_of(engine: Engine | None) -> dict[str, Any] | None:
    """What a finished engine hands to the table's next game, as JSON-able data.

    None when the family carries nothing (or there is no engine). The runtime logs it
    in the next game's start record so :func:`new_game` (``carry=``) can replay it.
    """
    if engine is None or not engine.is_over or not _carries(type(engine)):
        return None
    carry = cast(CarriesOver, engine).carry()  # _carries: isinstance(engine, CarriesOver)
    return None if carry is None else dict(carry.encode())


_CARRIES: dict[type, bool] = {}


def _carries(kind: type) -> bool:
    """Whether engines of ``kind`` are CarriesOver, decided once per class: an isinstance
    against a runtime-checkable protocol recomputes its members on every call in Python
    3.11 (~5 us; twice per game on a table that settles a game per round)."""
    known = _CARRIES.get(kind)
    if known is None:
        known = _CARRIES[kind] = issubclass(kind, CarriesOver)
    return known


AutoplayFn = Callable[[Engine, int], Action | None]

__all__ = [
    "FAMILIES",
    "AutoplayFn",
    "Family",
    "FamilyMissing",
    "carry_of",
    "families",
    "family_of",
    "get_variant",
    "new_game",
    "variants",
]
