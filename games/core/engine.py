"""The interface every table-game engine implements, and the variant description.

Engines are pure state machines: no I/O, no clock, no RNG. Cards, dice and
wheel numbers enter only as actions (:class:`~games.core.records.DealCard`,
``RollDice``, ``SpinResult``) fed by whoever owns the source: the runtime,
reading an rng shoe or a physical device, or a test, or the log replayer.
When the engine needs something from the source, :meth:`Engine.needs` says
what; while it does, players have no legal actions.

Money moves only through events: ``BetPlaced`` (wallet -> table),
``BetReturned`` (table -> wallet, bet taken down), ``BetSettled`` (table ->
wallet, ``returned - commission``). The runtime posts ledger rows from them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol

from typing_extensions import TypeVar

from games.core.collection import CollectionSchedule, charges
from games.core.money import format_cents
from games.core.records import Action, Event


class NeedKind(StrEnum):
    CARD = "card"
    DICE = "dice"
    SPIN = "spin"
    POSITION = "position"  # a table position 1..count, e.g. where the deal starts


@dataclass(frozen=True, slots=True, kw_only=True)
class Need:
    """What the engine is waiting for from its source.

    ``hidden`` is True for a card dealt face down (a hole card): a physical shoe
    still delivers it, but views do not show it until the rules reveal it.
    A ``POSITION`` need is answered by a :class:`~games.core.records.StartPosition`
    naming one of the positions ``1..count``, each equally likely (the land pai gow
    table's "electronic random-number generator" picking where the deal starts).
    """

    kind: NeedKind
    count: int = 1  # dice per roll, 1 card, or the positions to pick one of
    target: str = ""  # which hand receives the card, for display ("player", "dealer")
    hidden: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class BetLimit:
    """Limits for one bet spot, in cents; the reasons it gives are in dollars, in the one
    wording every family's limit refusal uses (a player reads them as they are)."""

    minimum: int
    maximum: int
    increment: int = 100

    def check(self, amount: int) -> str | None:
        """Return the reason ``amount`` is refused, or None if it is allowed.

        >>> BetLimit(minimum=500, maximum=50_000).check(60_000)
        'the maximum bet is $500.00'
        """
        if amount < self.minimum:
            return self.too_small()
        if amount > self.maximum:
            return self.too_large()
        if amount % self.increment:
            return self.off_step()
        return None

    def too_small(self) -> str:
        return f"the minimum bet is {format_cents(self.minimum)}"

    def too_large(self) -> str:
        return f"the maximum bet is {format_cents(self.maximum)}"

    def off_step(self) -> str:
        return f"bets go in steps of {format_cents(self.increment)}"


R_co = TypeVar("R_co", covariant=True, default=Any)  # bare ``Variant`` is Variant[Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant(Generic[R_co]):
    """One playable table: a game family, its rules, limits and pay tables.

    ``rules`` is the family's own frozen rules dataclass (``Variant[BaccaratRules]``);
    ``source`` names the rules page (and any standard used to fill a gap in it).
    """

    id: str  # "baccarat-pinnacle", "blackjack-high-stakes", ...
    family: str  # "baccarat", "blackjack", "craps", ...
    title: str
    source: str
    limits: Mapping[str, BetLimit]  # bet name -> limit
    rules: R_co
    seats: int = 1
    notes: tuple[str, ...] = field(default_factory=tuple)
    # What the outcome source must supply (the runtime builds shoes and wheels from these):
    decks: int = 0  # cards: decks per shoe (0 = the game uses no cards)
    jokers: int = 0  # jokers per shoe (pai gow: 1)
    new_shoe_each_game: bool = True  # False: a continuing shoe with a cut card
    zeros: int = 0  # roulette: 1 (single zero) or 2 (double zero)
    # Progressive meters this table feeds: meter name -> reset (seed) value in cents.
    # Tables naming the same meter share it (the runtime keeps it as a ledger account).
    jackpots: Mapping[str, int] = field(default_factory=dict)
    # The California collection (games.core.collection): the fee per seat per hand,
    # charged at the deal; None for a table that takes none.
    collection: CollectionSchedule | None = None

    def charge_collection(self, bets: Mapping[int, Mapping[str, int]]) -> list[Event]:
        """The collection each seat pays at the deal for ``bets`` (:func:`charges`)."""
        return list(charges(self.collection, bets))


@dataclass(frozen=True, slots=True, kw_only=True)
class GameContext:
    """What a table tells a family's ``new_game`` besides the variant and the seats.

    ``hand`` counts the table's previous games (the player-banked baccarat bank rotates
    every two hands); ``previous`` is the same table's last engine once it is over (None
    for a new table or after a restart); ``carry`` is what that engine's ``carry()``
    encoded, as logged in the game-start record (the replayer passes it instead of
    ``previous``). ``new_players`` are the seats held by a player who did not hold
    them in that last game (sat down since), or left empty by the one who did (the game
    may open before anyone sits there): what the last game carries
    for such a seat that is its player's (a standing bet order, a come-out option) is
    dropped, what is the table's (a bank rotation) is kept; logged beside the carry.
    Families that need none of these ignore them.
    """

    hand: int = 0
    previous: Engine | None = None
    carry: Mapping[str, Any] | None = None
    new_players: frozenset[int] = frozenset()


NEW_TABLE = GameContext()


class Engine(Protocol):
    """A game in progress (one round, or one craps 'game' from a clean table)."""

    @property
    def variant(self) -> Variant[Any]: ...

    def needs(self) -> Need | None:
        """What the source must supply next, or None if players (or nobody) act."""
        ...

    def legal_actions(self, seat: int) -> frozenset[str]:
        """Names of what ``seat`` may do now: ``"place-bet"``, ``"deal"``, decisions."""
        ...

    def verify(self, action: Action) -> None:
        """Raise :class:`~games.core.errors.IllegalAction` with the reason if not allowed."""
        ...

    def can(self, action: Action) -> bool: ...

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Verify, then apply: the only mutator. Returns the events that happened."""
        ...

    @property
    def is_over(self) -> bool:
        """True once every bet is settled and the round (or craps game) has ended."""
        ...

    def default_action(self, seat: int) -> Action | None:
        """What the rules do for ``seat`` if it does not act (absent, or its clock ran out)."""
        ...

    def awaiting(self) -> frozenset[int]:
        """Seats the round cannot go on without (an empty one gets its default action)."""
        ...

    def view(self, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see now (None: the public/spectator view), JSON-able.

        Never contains the shoe order, a card not yet dealt, or an unrevealed hole card.
        """
        ...
