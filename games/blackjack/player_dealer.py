"""The Player/Dealer on 21st Century Blackjack (page 004, Game Rules 6: "Each player may act
as the player/dealer for two hands per round"): :mod:`games.core.player_dealer` applied.

A mixin of :class:`~games.blackjack.engine.BlackjackRound`. The offer, the rotation, the
coverage and the bank's settlement are the core's; what is blackjack's own is each
wager's greatest possible loss to the bank (:meth:`BlackjackBank.banked_wagers`: a main
bet split to the table's most hands, each doubled, plus insurance at half the bet; the
Buster Bet at its best pay; a backline bet at the natural's pay) and which settlements a
covered main bet brings (its split hands and insurance: every settlement of the seat but
an uncovered Buster Bet).
"""

from __future__ import annotations

from games.blackjack.backline import Backline
from games.blackjack.rules import BlackjackRules
from games.core.betting import BetBook
from games.core.errors import IllegalAction
from games.core.money import Cents, pay
from games.core.player_dealer import (
    PlayerDealerCarry,
    PlayerDealerOffer,
    Wager,
    bank_returned,
    cover,
)
from games.core.records import BetSettled, Event, Message


class BlackjackBank:
    """The round's player/dealer: the offer, the coverage at the deal, the bank at the end."""

    # the round's state these read (set by BlackjackRound.__init__)
    rules: BlackjackRules
    book: BetBook
    seats: int
    backline: Backline
    offer: PlayerDealerOffer | None
    is_over: bool
    _settlements: list[BetSettled]

    @property
    def banker(self) -> int | None:
        """The seat holding the Player/Dealer position this round (None: the house)."""
        return self.offer.dealer if self.offer else None

    def awaiting(self) -> frozenset[int]:
        """The seat offered the position, while the offer is open (an empty chair declines)."""
        offered = self.offer.offered if self.offer else None
        return frozenset() if offered is None else frozenset({offered})

    def carry(self) -> PlayerDealerCarry | None:
        """The rotation the table's next round starts from (None: no position here)."""
        if not self.is_over:
            raise IllegalAction("this round is not over: nothing carries to the next one yet")
        return self.offer.next_carry() if self.offer else None

    def banked_wagers(self, order: list[int]) -> list[Wager[tuple[int, str]]]:
        """Each wager from the dealer's left with the most it can take off the bank."""
        r, out = self.rules, []
        best_buster = max(
            (line.pays for line in r.buster), key=lambda x: x.num / x.den, default=None
        )
        for seat in order:
            main = self.book.stake(seat, "main")
            if not main:
                continue
            most = max(2 * r.max_hands * main, pay(Cents(main), r.natural_pays)) + main
            out.append(Wager((seat, "main"), most))
            buster = self.book.stake(seat, "buster")
            if buster and best_buster is not None:
                out.append(Wager((seat, "buster"), pay(Cents(buster), best_buster), (seat, "main")))
            for position in self.backline.positions(seat):
                stake = self.book.stake(position, "main")
                if stake:
                    loss = max(stake, pay(Cents(stake), r.natural_pays))
                    out.append(Wager((position, "main"), loss, (seat, "main")))
        return out

    def cover_at_deal(self) -> list[Event]:
        """The offer closes; the bank covers what it can from its left, the rest goes back."""
        if self.offer is None:
            return []
        events = self.offer.lapse()
        if self.offer.dealer is None:
            return events
        coverage = cover(self.offer.bank, self.banked_wagers(self.offer.order()))
        self.offer.covered, self.offer.returned = coverage.covered, coverage.uncovered
        events.extend(self.book.return_by_rule(s, b) for s, b in coverage.uncovered)
        named = ", ".join(f"seat {s} {b}" for s, b in coverage.covered) or "nothing"
        events.append(Message(text=f"seat {self.offer.dealer}'s bank covers {named}"))
        return events

    def bank_settlement(self) -> tuple[int, int, str] | None:
        """The bank's (seat, returned, note): itself less the covered wagers' net (a
        covered main bet brings its split hands and insurance); None: the house banked."""
        if self.offer is None or self.offer.dealer is None:
            return None
        keys = set(self.offer.covered)
        mains = {s for s, b in keys if b == "main" and s < self.seats}
        covered = [
            s
            for s in self._settlements
            if (s.seat, s.bet) in keys or (s.seat in mains and s.bet != "buster")
        ]
        returned, note = bank_returned(self.offer.bank, covered)
        return self.offer.dealer, returned, note


__all__ = ["BlackjackBank"]
