"""Pai gow's reveal and settlement: once every hand is set, every bet is paid.

The dealer's seven cards are shown and set by the house way; every wager plays the
banker's hands (the dealer's, or a player-banker's: page 002, foul hands
"automatically lose"); each seat's hands are shown and its main and side bets settle
(a surrendered hand is not exposed: page 002); then the dragon hand's wager
(:mod:`games.pai_gow.dragon`), the player-banker's bank (:mod:`games.pai_gow.bank_offer`)
and a Player/Dealer's bank (:mod:`games.pai_gow.player_dealer`). The sums are
:mod:`games.pai_gow.showdown`'s; this is the order they are shown and paid in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from games.core.betting import BetBook
from games.core.cards import Card
from games.core.records import BetSettled, CardShown, Event, Message, RoundOver
from games.pai_gow.bonus import bonus_hands
from games.pai_gow.dragon import DRAGON_BET
from games.pai_gow.hands import Setting, describe_key
from games.pai_gow.house_way import house_way
from games.pai_gow.land_deal import DEALER
from games.pai_gow.rules import MAIN_BET, PaiGowRules
from games.pai_gow.showdown import FOUL_KEYS, Keys, foul_loses, keys, main_bet, side_bet


class Reveal:
    """The reveal and the settlement, mixed into the round."""

    # the round's state these read and write (set by PaiGowRound.__init__)
    rules: PaiGowRules
    book: BetBook
    banker: int | None
    _order: list[int]
    _hands: dict[int, list[Card]]
    _dealer: list[Card]
    _settings: dict[int, Setting]
    _dealer_setting: Setting | None
    _surrendered: set[int]
    _fouls: dict[int, str]
    settle: Callable[..., BetSettled]  # the round's (games.core.round.Round.settle)

    if TYPE_CHECKING:  # the round's own and its other mixins', further along the MRO

        def _settle_dragon(self, banker: Keys) -> tuple[list[Event], int]: ...

        def _settle_bank(self, bank_net: int, bank: tuple[int, int]) -> list[Event]: ...

        def _close_banked(self) -> list[Event]: ...

    def _reveal_and_settle(self) -> list[Event]:
        """Every hand is set: the dealer's cards shown and set by the house way, the
        banker's hands (the dealer's, or the player-banker's: foul, they lose to every
        hand set correctly), each seat's hands shown and its bets settled, then the
        dragon hand's, the bank's and a Player/Dealer's bank; the round is over."""
        rules = self.rules
        dealer = house_way(self._dealer, rules.joker, rules.wheel_second)
        self._dealer_setting = dealer
        banker = keys(dealer, rules)
        events: list[Event] = [CardShown(card=c, hand=DEALER) for c in self._dealer]
        whose = "dealer" if self.banker is None else "the house's hand"
        events.append(Message(text=f"{whose} sets {dealer} by the house way: {_words(banker)}"))
        if self.banker is not None:  # every wager plays the player-banker's hands
            b_set = self._settings[self.banker]
            events += _shown(self.banker, b_set)
            banker = keys(b_set, rules)
            events.append(Message(text=f"seat {self.banker} banks with {b_set}: {_words(banker)}"))
            if self.banker in self._fouls:  # page 002: it "automatically loses"
                banker = FOUL_KEYS
                events.append(
                    Message(
                        text=f"seat {self.banker}'s hands are foul ({self._fouls[self.banker]}): "
                        "they lose to every hand set correctly"
                    )
                )
        hands = {
            s: bonus_hands(self._hands[s], rules.joker, rules.wheel_second) for s in self._order
        }
        bank_net = 0  # what the player-banker wins (+) or pays (-) over all wagers
        for seat in self._order:
            if seat == self.banker:
                continue
            if seat in self._surrendered:  # page 002: a surrendered hand is not exposed
                for bet, stake in self._own_bets(seat).items():
                    bank_net += stake
                    events.append(
                        self.settle(seat, bet, 0, "surrendered before the reveal", result="lose")
                    )
                continue
            st = self._settings[seat]
            events += _shown(seat, st)
            for bet, stake in self._own_bets(seat).items():
                if bet == MAIN_BET and seat in self._fouls:
                    out = foul_loses(stake, self._fouls[seat])
                    bank_net += stake
                elif bet == MAIN_BET:
                    out = main_bet(rules, stake, st, banker)
                    bank_net -= out.returned - stake  # the banker pays the whole win
                else:
                    assert rules.side is not None and rules.side.name == bet
                    out = side_bet(rules.side, seat, stake, hands)
                events.append(
                    self.settle(
                        seat,
                        bet,
                        out.returned,
                        out.note,
                        commission=out.commission,
                        result=out.result,
                    )
                )
        dragon_events, dragon_net = self._settle_dragon(banker)
        events += dragon_events
        if self.banker is not None:
            events += self._settle_bank(bank_net + dragon_net, banker)
        events += self._close_banked()
        who = "dealer" if self.banker is None else f"seat {self.banker} banks"
        events.append(RoundOver(summary=f"{who}; dealer {dealer}"))
        return events

    def _own_bets(self, seat: int) -> dict[str, int]:
        """The seat's bets on its own hand (its dragon hand's settles apart)."""
        return {b: v for b, v in self.book.of(seat).items() if b != DRAGON_BET}


def _words(k: tuple[int, int]) -> str:
    """A setting's (low, high) keys in words, high hand first."""
    return f"{describe_key(k[1])} and {describe_key(k[0])}"


def _shown(seat: int, setting: Setting) -> list[Event]:
    """The reveal of a seat's set hands, low then high."""
    low = [CardShown(card=c, hand=f"seat{seat}.low") for c in setting.low]
    high = [CardShown(card=c, hand=f"seat{seat}.high") for c in setting.high]
    return [*low, *high]


__all__ = ["Reveal"]
