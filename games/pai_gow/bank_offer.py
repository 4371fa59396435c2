"""The bank offer of a player-banked pai gow game (page 002, "The Bank"): take or decline.

A mixin of :class:`~games.pai_gow.engine.PaiGowRound`: the seat offered the bank may
``Decide(decision="bank", arg="<bank>[ <house wager>]")`` (cents; the bank is posted as
the ``bank`` bet) or ``Decide(decision="decline-bank")`` (the offer passes to the next
seat in turn; when none is left the dealer banks). The rotation itself is
:mod:`games.pai_gow.bank`.

A seat's place in the rotation is its player's (page 002: "each player who took part"
is queued, "a player may not act as the Banker for two consecutive hands", the house
matches "the Player/Banker's last wager"): when the player leaves the seat before the
game is over with no stake in it, :meth:`BankOffer.bank_orders` gives the decisions that
take it out (``decline-bank`` if the bank is offered to it now, then
``Decide(decision="leave-bank-rotation")``: out of the queue, no last wager, not the last
banker), so whoever sits there next, in this game or the next, inherits none of it.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from games.core.betting import BetBook
from games.core.errors import IllegalAction
from games.core.money import format_cents
from games.core.records import BetSettled, Decide, Event, Message
from games.pai_gow.bank import BANK_BET, BankCarry, parse_bank_arg
from games.pai_gow.hands import Setting
from games.pai_gow.rules import PaiGowRules
from games.pai_gow.showdown import bank_bet, house_wager, keys
from games.pai_gow.view import Phase

BANK_DECISIONS = ("bank", "decline-bank")
LEAVE_ROTATION = "leave-bank-rotation"  # the seat's player left: its place goes with them


class BankOffer:
    """The ``bank`` / ``decline-bank`` decisions, checked and applied, and the bank's
    settlement at the reveal (the house's wager against it, then the bank itself)."""

    # the round's state these read and write (set by PaiGowRound.__init__)
    rules: PaiGowRules
    phase: StrEnum
    book: BetBook
    carried_in: BankCarry
    banker: int | None
    bank: int
    house_wager: int
    house_result: int
    _offers: list[int]
    _dealer_setting: Setting | None
    settle: Callable[..., BetSettled]

    @property
    def offered(self) -> int | None:
        """The seat the bank is offered to now (None outside the bank phase)."""
        return self._offers[0] if self.phase is Phase.BANK else None

    def _last_wager(self, seat: int) -> int:
        return self.carried_in.house_wagers.get(seat, 0)

    def _verify_bank(self, seat: int, action: Decide) -> None:
        if self.phase is not Phase.BANK:
            why = (
                "this table has no player banking"
                if not self.rules.player_bank
                else (f"the bank is settled for this game (the round is {self.phase})")
            )
            raise IllegalAction(f"{action.decision} is not allowed now: {why}")
        if seat != self.offered:
            if seat == self.carried_in.last_banker:
                raise IllegalAction(
                    f"seat {seat} banked the last hand: no player banks two hands in a row"
                )
            raise IllegalAction(f"the bank is offered to seat {self.offered} now, not seat {seat}")
        if action.decision == "decline-bank":
            if action.arg:
                raise IllegalAction("decline-bank takes no argument")
            return
        parse_bank_arg(action.arg, self._last_wager(seat))

    def bank_orders(self, seat: int) -> tuple[Decide, ...]:
        """The decisions that take ``seat``'s place in the bank rotation back (its player
        left; see the module docstring), none when it holds none, when it banks this game
        (its bank is a stake: the seat is not freed before the game ends) or once the game
        is over (the next game drops it: ``new_players``, :meth:`BankCarry.without`)."""
        if not self.rules.player_bank or self.phase is Phase.OVER or seat == self.banker:
            return ()
        offered = seat == self.offered
        out = [Decide(seat=seat, decision="decline-bank")] if offered else []
        if (seat in self._offers and not offered) or self._holds_carried(seat):
            out.append(Decide(seat=seat, decision=LEAVE_ROTATION))
        return tuple(out)

    def _holds_carried(self, seat: int) -> bool:
        """Whether the rotation handed to this game names ``seat`` (last banker, or a
        last wager against the house)."""
        carried = self.carried_in
        return seat == carried.last_banker or seat in carried.house_wagers

    def _verify_leave(self, seat: int, action: Decide) -> None:
        if not self.rules.player_bank:
            raise IllegalAction("this table has no player banking: no bank rotation to leave")
        if action.arg:
            raise IllegalAction(f"{LEAVE_ROTATION} takes no argument")
        if self.phase is Phase.OVER:
            raise IllegalAction("this game is over: the next one starts the rotation afresh")
        if seat == self.offered:
            raise IllegalAction(f"the bank is offered to seat {seat} now: take it or decline it")
        if seat == self.banker:
            raise IllegalAction(f"seat {seat} is the Banker this game")
        if seat not in self._offers and not self._holds_carried(seat):
            raise IllegalAction(f"seat {seat} holds no place in the bank rotation")

    def _apply_leave(self, seat: int) -> tuple[Event, ...]:
        self._offers = [s for s in self._offers if s != seat]
        self.carried_in = self.carried_in.without(frozenset({seat}))
        return (Message(text=f"seat {seat} leaves the bank rotation: its player left"),)

    def _settle_bank(self, bank_net: int, bank: tuple[int, int]) -> list[Event]:
        """The house's wager against the player-banker, then the bank's own settlement."""
        assert self.banker is not None and self._dealer_setting is not None
        events: list[Event] = []
        notes = []
        if self.house_wager:
            house = keys(self._dealer_setting, self.rules)
            self.house_result, text = house_wager(self.house_wager, house, bank)
            bank_net -= self.house_result
            notes.append(text)
            events.append(Message(text=f"{text} against seat {self.banker}'s bank"))
        out = bank_bet(self.rules, self.bank, bank_net, notes)
        events.append(
            self.settle(
                self.banker,
                BANK_BET,
                out.returned,
                out.note,
                commission=out.commission,
                result=out.result,
            )
        )
        return events

    def _apply_bank(self, seat: int, action: Decide) -> tuple[Event, ...]:
        self._offers.pop(0)
        events: list[Event] = []
        if action.decision == "bank":
            bank, house = parse_bank_arg(action.arg, self._last_wager(seat))
            if bank >= max(house, 1):
                self.phase = Phase.BETTING
                self.banker, self.bank, self.house_wager = seat, bank, house
                posted = self.book.add_by_rule(seat, BANK_BET, bank)
                return (
                    posted,
                    Message(
                        text=f"seat {seat} is the Banker with {format_cents(bank)}; "
                        f"the house wagers {format_cents(house)} against the bank"
                    ),
                )
            events.append(
                Message(
                    text=f"seat {seat}'s bank of {format_cents(bank)} cannot pay the house's "
                    f"wager of {format_cents(house)}: the dealer holds the bank this game"
                )
            )
            self._offers.clear()
        else:
            events.append(Message(text=f"seat {seat} declines the bank"))
        if self._offers:
            events.append(Message(text=f"the bank is offered to seat {self._offers[0]}"))
        else:
            self.phase = Phase.BETTING
            events.append(Message(text="the dealer holds the bank this game"))
        return tuple(events)


__all__ = ["BANK_DECISIONS", "LEAVE_ROTATION", "BankOffer"]
