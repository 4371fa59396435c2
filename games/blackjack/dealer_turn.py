"""The dealer's turn and the settlement of a blackjack round.

The hole card is turned over once (:meth:`DealerTurn._reveal_hole`), the dealer draws
while a hand or a Buster Bet is live and the total is under the table's rule
(``dealer_hits_soft_through``), then every hand still live is settled against the dealer's
total and each seat's Buster Bet against the dealer's cards, seat by seat; a hand settled
earlier (a bust, a surrender, the peek) is settled through the same
:meth:`DealerTurn._settle_hand`, which the backline bets behind the seat follow. Last the
Player/Dealer's bank (:mod:`games.blackjack.player_dealer`) and the round is over. What
each settles for is :mod:`games.blackjack.settlement`'s; this is when and in what order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from games.blackjack.backline import Backline
from games.blackjack.hand import dealer_hits, hand_total
from games.blackjack.phases import Phase
from games.blackjack.rules import BlackjackRules
from games.blackjack.seats import SeatState, spot
from games.blackjack.settlement import Payout, buster_payout, showdown_payout
from games.core.betting import BetBook
from games.core.cards import Card
from games.core.player_dealer import BANK_BET
from games.core.records import BetSettled, CardShown, Event, RoundOver


class DealerTurn:
    """The dealer's turn and the settlement, mixed into the round."""

    # the round's state these read and write (set by BlackjackRound.__init__)
    rules: BlackjackRules
    book: BetBook
    seats: int
    phase: Phase
    backline: Backline
    _players: list[SeatState]
    _dealer: list[Card]
    _hole_shown: bool
    _turn: tuple[int, int] | None
    settle: Callable[..., BetSettled]  # the round's (games.core.round.Round.settle)

    if TYPE_CHECKING:  # the Player/Dealer's (games.blackjack.player_dealer.BlackjackBank)

        def bank_settlement(self) -> tuple[int, int, str] | None: ...

    def _reveal_hole(self, ev: list[Event]) -> None:
        if not self._hole_shown and len(self._dealer) >= 2:
            self._hole_shown = True
            ev.append(CardShown(card=self._dealer[1], hand="dealer"))

    def _dealer_must_draw(self) -> bool:
        if self.phase is not Phase.DEALER:
            return False
        live = any(not h.settled for st in self._players for h in st.hands)
        if not (live or any(self.book.stake(s, "buster") for s in range(self.seats))):
            return False
        total, soft = hand_total(self._dealer)
        return dealer_hits(total, soft, self.rules.dealer_hits_soft_through)

    def _settle_hand(
        self, s: int, h: int, payout: Payout, ev: list[Event], *, shown: str = ""
    ) -> None:
        """Settle the seat's hand ``h``; ``shown``: its result in the view, if not the bet's."""
        hand = self._players[s].hands[h]
        hand.settled = hand.done = True
        hand.result = shown or payout.result
        ev.append(self._settle_spot(s, spot(h), payout))
        if h == 0:  # the backline bets behind the seat follow its first hand
            natural = self.rules.natural_pays
            ev += self.backline.follow(self.book, s, payout, shown, natural, self._settle_back)

    def _settle_back(
        self, position: int, bet: str, returned: int, note: str, result: str
    ) -> BetSettled:
        return self.settle(position, bet, returned, note, result=result)

    def _settle_spot(self, seat: int, bet: str, payout: Payout) -> BetSettled:
        return self.settle(seat, bet, payout.returned, payout.note, result=payout.result)

    def _settle_all(self, ev: list[Event]) -> None:
        """The dealer has finished: every live hand against the dealer's total, then the
        seat's Buster Bet, seat by seat."""
        d_total, _ = hand_total(self._dealer)
        for s, st in enumerate(self._players):
            for h, hand in enumerate(st.hands):
                if not hand.settled:
                    self._settle_hand(s, h, showdown_payout(self.rules, hand, d_total), ev)
            stake = self.book.stake(s, "buster")
            if stake:
                payout = buster_payout(self.rules, stake, d_total, len(self._dealer))
                ev.append(self._settle_spot(s, "buster", payout))
        self._finish(ev)

    def _finish(self, ev: list[Event]) -> None:
        self._reveal_hole(ev)
        self.phase = Phase.OVER
        self._turn = None
        d_total, _ = hand_total(self._dealer)
        bank = self.bank_settlement()
        if bank is not None:
            ev.append(self.settle(bank[0], BANK_BET, bank[1], bank[2]))
        ev.append(RoundOver(summary=f"dealer {' '.join(map(str, self._dealer))} ({d_total})"))


__all__ = ["DealerTurn"]
