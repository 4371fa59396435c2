"""The California Player/Dealer on Fortune Pai Gow (page 004): :mod:`games.core.player_dealer`.

A mixin of :class:`~games.pai_gow.engine.PaiGowRound`, apart from the page-002 bank
(:mod:`games.pai_gow.bank`, where the player-banker sets its own hand against every seat
and the house wagers against it). Here, as on the other California tables, the position
is offered in turn during betting (``bank <cents>`` / ``decline-bank``); the
player/dealer plays no seat: its hand is the dealer's seven cards, set by the house way
("copies go to the player/dealer"); at the deal its bank covers the wagers in seat
order from its left, each with its greatest possible loss (a main bet at 1:1, no
commission on this table; the Fortune bonus at its best pay, capped, plus an Envy
payout for each other seat), and the rest are returned; at the reveal the bank settles
for itself less the covered wagers' net.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from games.core.betting import BetBook
from games.core.errors import IllegalAction
from games.core.money import Cents, pay
from games.core.player_dealer import (
    PlayerDealerOffer,
    Wager,
    bank_returned,
    cover,
)
from games.core.records import BetSettled, Decide, Event, Message
from games.pai_gow.bank import BANK_BET
from games.pai_gow.rules import PaiGowRules
from games.pai_gow.view import Phase

MAIN = "main"


class FortuneBank:
    """The round's Player/Dealer: the offer in betting, coverage at the deal, the bank."""

    # the round's state these read (set by PaiGowRound.__init__)
    rules: PaiGowRules
    book: BetBook
    seats: int
    pdealer: PlayerDealerOffer | None
    phase: StrEnum
    _settlements: list[BetSettled]
    settle: Callable[..., BetSettled]

    def pd_open(self, seat: int) -> frozenset[str]:
        """The offer's decisions open to ``seat`` (none once taken, declined or lapsed)."""
        return self.pdealer.open_to(seat) if self.pdealer else frozenset()

    def pd_seat(self) -> int | None:
        """The seat holding the Player/Dealer position (None: the house banks)."""
        return self.pdealer.dealer if self.pdealer else None

    def pd_verify(self, seat: int, action: Decide) -> None:
        assert self.pdealer is not None
        self.pdealer.verify(seat, action, has_wagers=self.book.has(seat))

    def pd_check_bet(self, seat: int) -> None:
        if seat == self.pd_seat():
            raise IllegalAction("the player/dealer plays no hand this round")

    def pd_wagers(self, order: list[int]) -> list[Wager[tuple[int, str]]]:
        """Each wager from the dealer's left with the most it can take off the bank."""
        side, out = self.rules.side, []
        others = max(0, sum(1 for s in order if self.book.stake(s, MAIN)) - 1)
        for seat in order:
            main = self.book.stake(seat, MAIN)
            if not main:
                continue
            out.append(Wager((seat, MAIN), main))
            if side is None or not self.book.stake(seat, side.name):
                continue
            stake = self.book.stake(seat, side.name)
            most: int = max(pay(Cents(stake), x) for x in side.pays.values())
            most = min(most, side.payout_cap) if side.payout_cap else most
            if side.envy and stake >= side.envy_minimum:
                most += others * max(side.envy.values())
            out.append(Wager((seat, side.name), most, (seat, MAIN)))
        return out

    def pd_cover(self) -> list[Event]:
        """The offer closes; the bank covers what it can from its left, the rest goes back."""
        if self.pdealer is None:
            return []
        events = self.pdealer.lapse()
        if self.pdealer.dealer is None:
            return events
        coverage = cover(self.pdealer.bank, self.pd_wagers(self.pdealer.order()))
        self.pdealer.covered, self.pdealer.returned = coverage.covered, coverage.uncovered
        events.extend(self.book.return_by_rule(s, b) for s, b in coverage.uncovered)
        named = ", ".join(f"seat {s} {b}" for s, b in coverage.covered) or "nothing"
        events.append(Message(text=f"seat {self.pdealer.dealer}'s bank covers {named}"))
        return events

    def _close_banked(self) -> list[Event]:
        """The round ends; a Player/Dealer's bank settles for itself less the covered
        wagers' net."""
        self.phase = Phase.OVER
        if self.pdealer is None or self.pdealer.dealer is None:
            return []
        keys = set(self.pdealer.covered)
        covered = [s for s in self._settlements if (s.seat, s.bet) in keys]
        returned, note = bank_returned(self.pdealer.bank, covered)
        return [self.settle(self.pdealer.dealer, BANK_BET, returned, note)]


__all__ = ["FortuneBank"]
