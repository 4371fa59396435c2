"""European Slot Poker's High-Low double-up (page 001, "High-Low Double Your Win").

After a win (the hand and its bonuses) the player collects, or calls High or Low on the
next card: the High set is joker, bell, watermelon, plum and lemon, the Low set bar,
joker, cherry and diamond (the joker is in both, so it wins either call). A right call
doubles what is at risk; a wrong one loses it ("removes your bonus and win, completing
the hand"). Up to five wins in a row, then the win is collected. Half Gamble puts only
half of the win at risk and sends the other half to the credits (paid with the hand).
The double-up deals from a freshly shuffled deck ("shuffled between the regular game and
the High-Low sub-game") that is not shuffled between its cards; each card is a uniform
position over the cards left (``StartPosition``), like the hand's.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from enum import StrEnum
from typing import TypedDict

from games.core.errors import IllegalAction
from games.core.money import format_cents
from games.core.records import Decide, Event, Message
from games.video_poker import fruit
from games.video_poker.phases import Phase
from games.video_poker.rules import SYMBOLS, FruitRules


class DoubleUpCard(TypedDict):
    call: str
    card: str
    won: bool


class DoubleUp(ABC):
    """The double-up's state and its decisions, mixed into the round (which settles the
    hand: :meth:`close`, abstract here, is ``VideoPokerRound.close``)."""

    phase: StrEnum
    fruit_rules: FruitRules | None

    def init_double_up(self) -> None:
        self.at_risk = 0
        self.banked = 0  # Half Gamble's halves, paid with the hand
        self.double_wins = 0
        self.double_cards: list[DoubleUpCard] = []
        self._double_deck: fruit.Deck = ()
        self._call = ""
        self._halved = False

    @abstractmethod
    def close(self, returned: int) -> list[Event]:
        """Settle the hand's bet for ``returned`` cents (the win the double-up leaves,
        Half Gamble's banked halves included) and end the round."""

    # --- state -------------------------------------------------------------------

    def double_up_left(self) -> int:
        return sum(self._double_deck)

    def group_left(self, group: str) -> int:
        """Cards left in the double-up deck that win a ``high`` or ``low`` call."""
        assert self.fruit_rules is not None
        members = self.fruit_rules.high if group == "high" else self.fruit_rules.low
        return sum(n for s, n in zip(SYMBOLS, self._double_deck, strict=True) if s in members)

    def double_up_actions(self) -> frozenset[str]:
        out = {"collect", "high", "low"}
        if not self._halved and self.at_risk >= 2:
            out.add("half")
        return frozenset(out)

    # --- decisions ---------------------------------------------------------------

    def offer_double_up(self, win: int) -> list[Event]:
        assert self.fruit_rules is not None
        self.at_risk = win
        self._double_deck = self.fruit_rules.counts()
        self.phase = Phase.DOUBLE_UP
        return [Message(text=f"{format_cents(win)} won: collect, or High or Low to double it")]

    def verify_double_up(self, action: Decide) -> None:
        allowed = self.double_up_actions()
        if action.decision not in allowed:
            raise IllegalAction(
                f"double-up: choose {', '.join(sorted(allowed))}, not {action.decision!r}"
            )

    def apply_double_up(self, action: Decide) -> list[Event]:
        if action.decision == "collect":
            return self.close(self.banked + self.at_risk)
        if action.decision == "half":
            half = self.at_risk // 2
            self.banked += self.at_risk - half
            self.at_risk = half
            self._halved = True
            return [Message(text=f"Half Gamble: {format_cents(self.banked)} to the credits")]
        self._call = action.decision
        self.phase = Phase.DOUBLE_UP_CARD
        return [Message(text=f"called {action.decision}")]

    def draw_double_up(self, position: int) -> list[Event]:
        """The High-Low card at ``position`` of the cards left: win doubles, loss ends."""
        assert self.fruit_rules is not None
        symbol = fruit.symbol_at(self._double_deck, position)
        self._double_deck = fruit.without(self._double_deck, symbol)
        group = self.fruit_rules.high if self._call == "high" else self.fruit_rules.low
        won = symbol in group
        self.double_cards.append(DoubleUpCard(call=self._call, card=symbol, won=won))
        self._halved = False
        if not won:
            lost = self.at_risk
            self.at_risk = 0
            return [
                Message(text=f"{symbol}: {self._call} loses {format_cents(lost)}"),
                *self.close(self.banked),
            ]
        self.at_risk *= 2
        self.double_wins += 1
        events: list[Event] = [
            Message(text=f"{symbol}: {self._call} wins, {format_cents(self.at_risk)}")
        ]
        if self.double_wins >= self.fruit_rules.double_up_wins:
            events.append(Message(text=f"{self.double_wins} wins in a row: collected"))
            return events + self.close(self.banked + self.at_risk)
        self.phase = Phase.DOUBLE_UP
        return events


__all__ = ["DoubleUp", "DoubleUpCard"]
