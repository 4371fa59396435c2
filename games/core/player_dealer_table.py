"""The Player/Dealer on a poker table: :mod:`games.core.player_dealer` wired into the round.

:class:`PlayerDealerTable` is a :class:`~games.core.poker_table.PokerTableRound` whose
table may offer page 004's rotating Player/Dealer position (Three Card Poker with the 6
Card Bonus, Ultimate Texas Hold'em). It does, once for both:

* during betting the seat offered the position may ``bank`` / ``decline-bank``
  (:class:`~games.core.player_dealer.PlayerDealerOffer`); the round awaits it, so the
  runtime declines for an empty chair;
* the player/dealer plays no hand: it may not bet, is dealt nothing, and its bank stands
  until the round settles;
* at the deal an open offer lapses (the house banks); with a player/dealer the bank
  covers the wagers in seat order from its left (:func:`~games.core.player_dealer.cover`
  over the family's :meth:`PlayerDealerTable.banked_wagers`) and the rest are returned;
* at the close the bank settles for itself less the covered wagers' net
  (:func:`~games.core.player_dealer.bank_returned`);
* ``carry()`` hands the rotation to the table's next round.

A family gives :meth:`banked_wagers` (each wager's greatest possible loss to the bank),
:attr:`COMES_WITH` (wagers placed later that go with a covered one: the play with its
ante) and :attr:`NOT_BANKED` (bets that ride on a wager but are never the bank's: a
progressive paid from its meter).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import ClassVar, TypeVar

from games.core.engine import Variant
from games.core.errors import IllegalAction
from games.core.player_dealer import (
    BANK_BET,
    OFFER_DECISIONS,
    PlayerDealerCarry,
    PlayerDealerOffer,
    PlayerDealerRules,
    PlayerDealerView,
    Wager,
    bank_returned,
    cover,
    settle_covered,
)
from games.core.poker_table import PokerTableRound
from games.core.records import Deal, Decide, Event, Message, PlaceBet, RemoveBet
from games.core.round import Phase

R = TypeVar("R")


class PlayerDealerTable(PokerTableRound[R]):
    """A poker table round that may be banked by a seated player (page 004)."""

    COMES_WITH: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    NOT_BANKED: ClassVar[frozenset[str]] = frozenset()

    def __init__(
        self,
        variant: Variant[R],
        seats: int,
        rules: PlayerDealerRules | None,
        carry: PlayerDealerCarry | None = None,
    ) -> None:
        super().__init__(variant, seats)
        #: page 004's Player/Dealer position (None: the house banks every hand)
        self.offer = (
            PlayerDealerOffer(rules, seats, carry or PlayerDealerCarry())
            if rules is not None and seats > 1
            else None
        )

    @abstractmethod
    def banked_wagers(self, order: list[int]) -> list[Wager[tuple[int, str]]]:
        """The wagers of the seats in ``order`` the bank may cover, with their losses."""

    @property
    def banker(self) -> int | None:
        """The seat holding the Player/Dealer position this round (None: the house)."""
        return self.offer.dealer if self.offer else None

    def player_dealer_view(self) -> PlayerDealerView | None:
        """The position for the family's view (None: a table without one)."""
        return self.offer.view() if self.offer else None

    def active(self) -> list[int]:
        """Seats with a wager down (the player/dealer's bank is not one: it plays no hand)."""
        return [s for s in super().active() if s != self.banker]

    def legal_actions(self, seat: int) -> frozenset[str]:
        if self.offer is None or self.phase is not Phase.BETTING or not 0 <= seat < self.seats:
            return super().legal_actions(seat)
        if seat == self.banker:
            return frozenset({"deal"}) if self.active() else frozenset()
        return super().legal_actions(seat) | self.offer.open_to(seat)

    def awaiting(self) -> frozenset[int]:
        """The seat offered the position, while the offer is open (an empty chair declines)."""
        offered = self.offer.offered if self.offer and self.phase is Phase.BETTING else None
        return frozenset() if offered is None else frozenset({offered})

    def carry(self) -> PlayerDealerCarry | None:
        """The rotation the table's next round starts from (None: no position here)."""
        if not self.is_over:
            raise IllegalAction("this round is not over: nothing carries to the next one yet")
        return self.offer.next_carry() if self.offer else None

    def verify_place_bet(self, action: PlaceBet) -> None:
        if self.banker is not None and action.seat == self.banker:
            raise IllegalAction("the player/dealer plays no hand this round")
        super().verify_place_bet(action)

    def verify_remove_bet(self, action: RemoveBet) -> None:
        if action.bet == BANK_BET and self.offer is not None:
            raise IllegalAction("the player/dealer's bank stands until the round settles")
        super().verify_remove_bet(action)

    def verify_deal(self, action: Deal) -> None:
        if self.banker is not None and not self.active():
            raise IllegalAction("place a bet before dealing")
        super().verify_deal(action)

    def verify_decide(self, action: Decide) -> None:
        if action.decision in OFFER_DECISIONS and self.offer is not None:
            seat = self.seat_of(action)
            if self.phase is not Phase.BETTING:
                raise IllegalAction(f"seat {seat} has no decision to make now")
            self.offer.verify(seat, action, has_wagers=self.book.has(seat))
            return
        super().verify_decide(action)

    def apply_decide(self, action: Decide) -> list[Event]:
        if action.decision in OFFER_DECISIONS and self.offer is not None:
            return self.offer.apply(self.seat_of(action), action, self.book)
        return super().apply_decide(action)

    def apply_deal(self, action: Deal) -> list[Event]:
        banked = self._cover_wagers()
        return [*banked, *super().apply_deal(action)]

    def _cover_wagers(self) -> list[Event]:
        """The offer closes; the bank covers what it can from its left, the rest goes back."""
        if self.offer is None:
            return []
        events = self.offer.lapse()
        if self.offer.dealer is None:
            return events
        coverage = cover(self.offer.bank, self.banked_wagers(self.offer.order()))
        self.offer.covered = tuple(
            key
            for s, b in coverage.covered
            if b not in self.NOT_BANKED
            for key in [(s, b), *((s, w) for w in self.COMES_WITH.get(b, ()))]
        )
        self.offer.returned = coverage.uncovered
        events.extend(self.book.return_by_rule(s, b) for s, b in coverage.uncovered)
        named = ", ".join(f"seat {s} {b}" for s, b in self.offer.covered) or "nothing"
        events.append(Message(text=f"seat {self.offer.dealer}'s bank covers {named}"))
        return events

    def close(self) -> list[Event]:
        """Settle the player/dealer's bank (what its covered wagers lost, less what they
        won), then end the round."""
        if self.offer is None or self.offer.dealer is None:
            return super().close()
        covered = settle_covered(self._settlements, self.offer.covered)
        returned, note = bank_returned(self.offer.bank, covered)
        return [self.settle(self.offer.dealer, BANK_BET, returned, note), *super().close()]


__all__ = ["PlayerDealerTable"]
