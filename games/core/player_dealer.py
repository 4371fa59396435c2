"""The California player/dealer (page 004): one mechanism for every player-banked table.

The page's games are dealt against a "Player/Dealer" position that rotates ("Each player
may act as the player/dealer for two hands per round"; the player-banked baccarat: "The
bank rotates after two hands ... No player shall ever be required to cover all the
wagers in action"). The README reading applies it to Three Card Poker with its 6 Card
Bonus, UTH, 21st Century Blackjack and Fortune Pai Gow. What this module holds, each
part pure (no I/O, no RNG) and shared by every family that offers the position:

* :class:`PlayerDealerRules`: the table's data (``[player_dealer]`` in its TOML: the
  hands a seat may hold the position in a row).
* :class:`PlayerDealerCarry`: the rotation carried from one round to the next (whose
  turn it is and how many hands that seat has held it); plain JSON for the game-start
  record (:class:`~games.core.capabilities.CarriesOver`).
* :class:`PlayerDealerOffer`: the offer, made during betting to the seat whose turn it
  is, then on round the table; ``bank`` (``arg`` = the bank in cents) takes the position
  and ``decline-bank`` passes it on. Nobody is ever required to bank: the offer lapses at
  the deal, and when nobody took it the house banks, as before. While the offer is open
  the round awaits the offered seat, so the runtime declines for a chair nobody sits in
  (``decline-bank`` is the seat's default), as it does for the pai gow bank.
* :func:`cover`: which wagers the bank covers, in seat order from the player/dealer's
  left, each wager taking its greatest possible loss to the bank out of what remains; a
  wager the rest cannot cover is not covered (nor is any wager that needs it), and the
  next ones are still tried.
* :func:`bank_returned`: the bank's own settlement: the bank, plus what the covered
  wagers lost, minus what they won.

>>> cover(10_000, [Wager(key=1, loss=4_000), Wager(key=2, loss=7_000),
...                Wager(key=3, loss=6_000), Wager(key=4, loss=100, needs=2)])
Coverage(covered=(1, 3), uncovered=(2, 4), left=0)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypedDict, TypeVar

from games.core.betting import BetBook
from games.core.engine import GameContext
from games.core.errors import IllegalAction, PaytableError
from games.core.money import format_cents
from games.core.records import BetSettled, Decide, Event, Message

K = TypeVar("K", bound=Hashable)

BANK_BET = "bank"
TAKE, DECLINE = "bank", "decline-bank"
OFFER_DECISIONS = (TAKE, DECLINE)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerDealerRules:
    """A table that offers the player/dealer position (its ``[player_dealer]`` data)."""

    hands: int = 2  # hands a seat may hold the position in a row ("two hands per round")

    @classmethod
    def parse(cls, data: object, where: str) -> PlayerDealerRules:
        """``[player_dealer]`` -> rules; PaytableError naming the bad key."""
        if not isinstance(data, Mapping) or set(data) - {"hands"}:
            raise PaytableError(f"{where}: [player_dealer] takes only 'hands'")
        hands = data.get("hands", 2)
        if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
            raise PaytableError(f"{where}: [player_dealer] hands must be a whole number >= 1")
        return cls(hands=hands)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerDealerCarry:
    """The rotation one round hands to the next: whose turn, and hands held so far."""

    turn: int = 0  # the seat offered the position first
    held: int = 0  # hands that seat has held the position in a row

    def encode(self) -> dict[str, Any]:
        """JSON-able form (``{"player_dealer": {...}}``, as logged at the game's start)."""
        return {"player_dealer": {"turn": self.turn, "held": self.held}}

    @classmethod
    def decode(cls, data: Mapping[str, Any], seats: int) -> PlayerDealerCarry:
        """Rebuild from :meth:`encode` output; ValueError naming the bad field."""
        inner = data.get("player_dealer")
        if not isinstance(inner, Mapping) or set(inner) != {"turn", "held"}:
            raise ValueError("player/dealer carry: expected {'player_dealer': {turn, held}}")
        turn, held = inner["turn"], inner["held"]
        if not _whole(turn) or not 0 <= turn < seats or not _whole(held) or held < 0:
            raise ValueError(f"player/dealer carry: turn must be a seat 0..{seats - 1}")
        return cls(turn=turn, held=held)


def rotation_from(
    context: GameContext, round_type: type[Any], variant_id: str, seats: int
) -> PlayerDealerCarry | None:
    """The rotation a new round starts from: ``context.previous``'s if it is a finished
    round of the same table kind and variant, else the logged ``context.carry`` decoded,
    else None (a new table offers the position to seat 0 first)."""
    previous, carry = context.previous, context.carry
    if isinstance(previous, round_type) and previous.variant.id == variant_id:
        rotation = previous.carry()
        return rotation if isinstance(rotation, PlayerDealerCarry) else None
    if carry is not None:
        return PlayerDealerCarry.decode(carry, seats)
    return None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Wager(Generic[K]):
    """One wager the bank may cover: its key, its greatest possible loss to the bank, and
    the key of the wager it needs (a side bet needs its ante: uncovered, it goes too)."""

    key: K
    loss: int
    needs: K | None = None


@dataclass(frozen=True, slots=True)
class Coverage(Generic[K]):
    """What :func:`cover` decided: covered keys, uncovered keys (both in order), bank left."""

    covered: tuple[K, ...]
    uncovered: tuple[K, ...]
    left: int


def cover(bank: int, wagers: Iterable[Wager[K]]) -> Coverage[K]:
    """Cover ``wagers`` (in seat order from the player/dealer's left) out of ``bank``.

    Each wager is covered while its greatest possible loss fits in what is left of the
    bank ("Once the player-dealer's wager has been exhausted, the wagers not covered by
    the player-dealer will be returned to the players", page 004); one that does not fit
    is not covered, nor is a wager that needs an uncovered one. Pure.
    """
    left, covered, uncovered = bank, [], []
    done: set[K] = set()
    for w in wagers:
        if (w.needs is None or w.needs in done) and w.loss <= left:
            left -= w.loss
            covered.append(w.key)
            done.add(w.key)
        else:
            uncovered.append(w.key)
    return Coverage(covered=tuple(covered), uncovered=tuple(uncovered), left=left)


def left_of(dealer: int, seats: int) -> list[int]:
    """The other seats in order from the player/dealer's left (the next seat up)."""
    return [(dealer + i) % seats for i in range(1, seats)]


def bank_returned(bank: int, covered: Iterable[BetSettled]) -> tuple[int, str]:
    """The bank's settlement: ``bank`` less the covered wagers' net, and its note."""
    settled = list(covered)
    net = -sum(s.net for s in settled)
    sign = "+" if net >= 0 else "-"
    return bank + net, f"bank {sign}{format_cents(abs(net))} from {len(settled)} covered wagers"


class PlayerDealerView(TypedDict):
    """The position in a view: who is offered it, who holds it with what bank, and the
    wagers the bank covers and those it returned (``[seat, bet]`` pairs)."""

    offered: int | None
    seat: int | None
    bank: int
    hands: int
    covered: list[list[int | str]]
    returned: list[list[int | str]]


class PlayerDealerOffer:
    """The offer of the position in one round, and who took it with what bank."""

    def __init__(self, rules: PlayerDealerRules, seats: int, carry: PlayerDealerCarry) -> None:
        self.rules, self.seats, self.carried_in = rules, seats, carry
        turn = carry.turn % seats
        self._offers = [(turn + i) % seats for i in range(seats)] if seats > 1 else []
        self.dealer: int | None = None  # the seat holding the position this round
        self.bank = 0
        self.covered: tuple[tuple[int, str], ...] = ()  # (seat, bet) the bank covers
        self.returned: tuple[tuple[int, str], ...] = ()  # (seat, bet) given back at the deal

    def __eq__(self, other: object) -> bool:
        """Equal state (a refused action changes nothing: tests compare copies)."""
        return isinstance(other, PlayerDealerOffer) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]

    @property
    def offered(self) -> int | None:
        """The seat the position is offered to now (None once taken, declined or lapsed)."""
        return self._offers[0] if self._offers and self.dealer is None else None

    def open_to(self, seat: int) -> frozenset[str]:
        """The offer's decisions open to ``seat`` now."""
        return frozenset(OFFER_DECISIONS) if seat == self.offered else frozenset()

    def verify(self, seat: int, action: Decide, *, has_wagers: bool) -> None:
        """Refuse a ``bank`` / ``decline-bank`` that is not open, or a bad bank."""
        if seat != self.offered:
            who = "nobody" if self.offered is None else f"seat {self.offered}"
            raise IllegalAction(f"the player/dealer position is offered to {who} now")
        if action.decision == DECLINE:
            if action.arg:
                raise IllegalAction("decline-bank takes no argument")
            return
        if not action.arg.isdigit() or int(action.arg) <= 0:
            raise IllegalAction(f"bank takes the bank in cents, like '50000', got {action.arg!r}")
        if has_wagers:
            raise IllegalAction("the player/dealer plays no hand: take your wagers down first")

    def apply(self, seat: int, action: Decide, book: BetBook) -> list[Event]:
        """Take the position with the bank (posted on ``book`` as the ``bank`` bet, which
        the runtime debits from the seat's wallet) or pass it on."""
        if action.decision == TAKE:
            self.dealer, self.bank = seat, int(action.arg)
            return [
                book.add_by_rule(seat, BANK_BET, self.bank),
                Message(text=f"seat {seat} is the player/dealer with {format_cents(self.bank)}"),
            ]
        self._offers.pop(0)
        events: list[Event] = [Message(text=f"seat {seat} declines the player/dealer position")]
        nxt = self.offered
        events.append(
            Message(text=f"the player/dealer position is offered to seat {nxt}")
            if nxt is not None
            else Message(text="the house banks this hand")
        )
        return events

    def lapse(self) -> list[Event]:
        """The deal closes the offer: nobody took it, so the house banks."""
        if self.dealer is not None or not self._offers:
            return []
        self._offers.clear()
        return [Message(text="nobody took the player/dealer position: the house banks")]

    def order(self) -> list[int]:
        """The seats the bank covers, in order from the player/dealer's left."""
        return [] if self.dealer is None else left_of(self.dealer, self.seats)

    def view(self) -> PlayerDealerView:
        """What everyone sees of the position (nothing in it is private)."""
        return {
            "offered": self.offered,
            "seat": self.dealer,
            "bank": self.bank,
            "hands": self.rules.hands,
            "covered": [[s, b] for s, b in self.covered],
            "returned": [[s, b] for s, b in self.returned],
        }

    def next_carry(self) -> PlayerDealerCarry:
        """The rotation for the next round: the holder keeps it for its hands, then the
        seat on its left has the turn; when nobody held it, the turn moves one seat on."""
        carried = self.carried_in
        if self.dealer is None:
            return PlayerDealerCarry(turn=(carried.turn + 1) % self.seats, held=0)
        held = carried.held + 1 if self.dealer == carried.turn else 1
        if held >= self.rules.hands:
            return PlayerDealerCarry(turn=(self.dealer + 1) % self.seats, held=0)
        return PlayerDealerCarry(turn=self.dealer, held=held)


def settle_covered(
    settlements: Sequence[BetSettled], covered: Iterable[tuple[int, str]]
) -> list[BetSettled]:
    """The settlements of the covered wagers (those the bank pays and collects)."""
    keys = set(covered)
    return [s for s in settlements if (s.seat, s.bet) in keys]


__all__ = [
    "BANK_BET",
    "DECLINE",
    "OFFER_DECISIONS",
    "TAKE",
    "Coverage",
    "PlayerDealerCarry",
    "PlayerDealerOffer",
    "PlayerDealerRules",
    "PlayerDealerView",
    "Wager",
    "bank_returned",
    "cover",
    "left_of",
    "settle_covered",
]
